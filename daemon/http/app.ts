import express, { type Express } from 'express';
import type { Core } from '../core/core.js';
import { ROUTES } from './api.js';
import { programDoor } from './guard.js';
import { router } from './router.js';
import type { PersonApp } from './window/person-app.js';

/**
 * The HTTP face of the core (docs/api/README.md#g9): the window's pages and files under `/app`, then the one router
 * of every API route — each request through its door (the token for `/v1`, the person's session for `/app/api`),
 * its route, its body and parameters read by the route's contract, a service, and the answer or the one error body.
 */
export function createApp(core: Core, token: string, personApp: PersonApp): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use(personApp.pages);
  app.use(
    router(
      ROUTES,
      { ...core, ...personApp.parts },
      { program: programDoor(token, core.sendKeys), session: (req, res) => personApp.admit(req, res) },
    ),
  );
  return app;
}
