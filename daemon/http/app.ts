import express, { type Express } from 'express';
import type { NotifierCore } from '../core/notifier.js';
import { jsonBody } from './body.js';
import { errorHandler } from './error-handler.js';
import { guard } from './guard.js';
import type { PersonApp } from './person-app/index.js';
import { routeTable } from './routes.js';
import { API_ROUTES } from './api.js';

/**
 * The HTTP face of the core (docs/api/README.md#g9): guard -> JSON body -> route -> core -> reply, and one error
 * handler; the person's app (docs/app.md) under `/app`, behind its own door.
 */
export function createApp(core: NotifierCore, token: string, personApp?: PersonApp): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  // `/app` has a door of its own (the person's session, never the token); every other path is `/v1`'s.
  if (personApp) app.use(personApp.handler);
  app.use(guard(token));
  app.use(jsonBody);
  app.use(routeTable(API_ROUTES.map((route) => ({ method: route.method, path: route.path, handle: route.handler(core) }))));
  app.use(errorHandler);
  return app;
}
