import express, { type Express } from 'express';
import type { NotifierCore } from '../core/notifier.js';
import { jsonBody } from './body.js';
import { errorHandler } from './error-handler.js';
import { guard } from './guard.js';
import { routeTable } from './routes.js';
import { appRoutes } from './routes/apps.js';
import { approvalRoutes } from './routes/approvals.js';
import { assetRoutes } from './routes/assets.js';
import { bannerRoutes } from './routes/banners.js';
import { healthRoutes } from './routes/health.js';
import { historyRoutes } from './routes/history.js';
import { lookupRoutes } from './routes/lookups.js';
import { manifestRoutes } from './routes/manifests.js';
import { mcpRoutes } from './routes/mcp.js';
import { notificationRoutes } from './routes/notifications.js';
import { previewRoutes } from './routes/previews.js';
import { replyRoutes } from './routes/replies.js';
import { settingsRoutes } from './routes/settings.js';
import { templateRoutes } from './routes/templates.js';
import { voiceRoutes } from './routes/voice.js';

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
  app.use(
    routeTable([
      ...healthRoutes,
      ...notificationRoutes(core),
      ...bannerRoutes(core),
      ...replyRoutes(core),
      ...appRoutes(core),
      ...historyRoutes(core),
      ...approvalRoutes(core),
      ...templateRoutes(core),
      ...manifestRoutes(core),
      ...previewRoutes(core),
      ...lookupRoutes(),
      ...assetRoutes(core),
      ...settingsRoutes(core),
      ...voiceRoutes(core),
      ...mcpRoutes(core),
    ]),
  );
  app.use(errorHandler);
  return app;
}
