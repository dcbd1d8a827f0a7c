import express, { type Express } from 'express';
import type { NotifierCore } from '../core/notifier.js';
import { jsonBody } from './body.js';
import { errorHandler } from './error-handler.js';
import { guard } from './guard.js';
import { routeTable } from './routes.js';
import { API_ROUTES } from './api.js';

/**
 * The HTTP face of the core (docs/api/README.md#g9): guard -> JSON body -> route -> core -> reply, and one error
 * handler.
 */
export function createApp(core: NotifierCore, token: string): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use(guard(token));
  app.use(jsonBody);
  app.use(routeTable(API_ROUTES.map((route) => ({ method: route.method, path: route.path, handle: route.handler(core) }))));
  app.use(errorHandler);
  return app;
}
