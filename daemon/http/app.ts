import express, { type Express } from 'express';
import type { NotifierCore } from '../core/notifier.js';
import { MAX_BODY_BYTES } from '../limits.js';
import { errorHandler } from './error-handler.js';
import { guard } from './guard.js';
import { mountRoutes } from './routes.js';
import { appRoutes } from './routes/apps.js';
import { healthRoutes } from './routes/health.js';
import { historyRoutes } from './routes/history.js';
import { notificationRoutes } from './routes/notifications.js';

/**
 * The HTTP face of the core (DESIGN.md rule 2): guard -> JSON body -> route -> core -> reply, and one error
 * handler. The body is read as JSON whatever its Content-Type, so `curl -d '{...}'` works without `-H`.
 */
export function createApp(core: NotifierCore, token: string): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use(guard(token));
  app.use(express.json({ limit: MAX_BODY_BYTES, type: () => true }));
  mountRoutes(app, [...healthRoutes, ...notificationRoutes(core), ...appRoutes(core), ...historyRoutes(core)]);
  app.use(errorHandler);
  return app;
}
