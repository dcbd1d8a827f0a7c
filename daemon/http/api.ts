import type { ApiRoute } from './api-route.js';
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
import { openApiRoutes } from './routes/openapi.js';
import { previewRoutes } from './routes/previews.js';
import { relayRoutes } from './routes/relay.js';
import { replyRoutes } from './routes/replies.js';
import { settingsRoutes } from './routes/settings.js';
import { templateRoutes } from './routes/templates.js';
import { voiceRoutes } from './routes/voice.js';

/**
 * Every route of the service with its contract: the app serves these, and the OpenAPI document describes these.
 * The order is the one the API test sends their examples in (a notification is sent before it is snoozed, a
 * manifest is saved before a template becomes its default).
 */
export const API_ROUTES: readonly ApiRoute[] = [
  ...healthRoutes(),
  ...notificationRoutes(),
  ...bannerRoutes(),
  ...replyRoutes(),
  ...appRoutes(),
  ...historyRoutes(),
  ...approvalRoutes(),
  ...manifestRoutes(),
  ...templateRoutes(),
  ...previewRoutes(),
  ...lookupRoutes(),
  ...assetRoutes(),
  ...settingsRoutes(),
  ...voiceRoutes(),
  ...mcpRoutes(),
  ...relayRoutes(),
  ...openApiRoutes(() => API_ROUTES),
];
