import { gotifyRoutes } from './dialect-routes/gotify.js';
import { ntfyRoutes } from './dialect-routes/ntfy.js';
import type { Route } from './route.js';
import { appRoutes } from './routes/apps.js';
import { approvalRoutes } from './routes/approvals.js';
import { assetRoutes } from './routes/assets.js';
import { bannerRoutes } from './routes/banners.js';
import { healthRoutes } from './routes/health.js';
import { historyRoutes } from './routes/history.js';
import { keyRoutes } from './routes/keys.js';
import { lookupRoutes } from './routes/lookups.js';
import { manifestRoutes } from './routes/manifests.js';
import { mcpRoutes } from './routes/mcp.js';
import { notificationRoutes } from './routes/notifications.js';
import { openApiRoutes } from './routes/openapi.js';
import { previewRoutes } from './routes/previews.js';
import { relayRoutes } from './routes/relay.js';
import { replyRoutes } from './routes/replies.js';
import { scheduledRoutes } from './routes/scheduled.js';
import { settingsRoutes } from './routes/settings.js';
import { templateRoutes } from './routes/templates.js';
import { voiceRoutes } from './routes/voice.js';
import type { Services } from './services.js';
import { approvalRoutes as windowApprovalRoutes } from './window-routes/approvals.js';
import { composeRoutes } from './window-routes/compose.js';
import { designerRoutes } from './window-routes/designer.js';
import { desktopRoutes } from './window-routes/desktop.js';
import { eventRoutes } from './window-routes/events.js';
import { firstRunRoutes } from './window-routes/first-run.js';
import { historyRoutes as windowHistoryRoutes } from './window-routes/history.js';
import { relayRoutes as windowRelayRoutes } from './window-routes/relay.js';
import { sessionRoutes } from './window-routes/session.js';
import { settingsRoutes as windowSettingsRoutes } from './window-routes/settings.js';

// Every route of the daemon, one list per door; a route's file is named after its family
// (docs/architecture.md, "One route model", lists where each is).

/**
 * `/v1`: the routes programs call with the API token (and the open health check). The OpenAPI document describes
 * these. The order is the one the API test sends their examples in (a notification is sent before it is snoozed, a
 * manifest is saved before a template becomes its default).
 */
export const V1_ROUTES: readonly Route<Services>[] = [
  ...healthRoutes(),
  ...notificationRoutes(),
  ...keyRoutes(),
  ...scheduledRoutes(),
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
  ...openApiRoutes(() => V1_ROUTES),
];

/** `/app/api`: the person's window, behind its session. */
export const WINDOW_ROUTES: readonly Route<Services>[] = [
  ...sessionRoutes(),
  ...windowHistoryRoutes(),
  ...windowApprovalRoutes(),
  ...composeRoutes(),
  ...firstRunRoutes(),
  ...windowSettingsRoutes(),
  ...desktopRoutes(),
  ...windowRelayRoutes(),
  ...designerRoutes(),
  ...eventRoutes(),
];

/**
 * The publishing dialects of other servers, at the root (docs/senders.md): Gotify's two paths and ntfy's topics. Not
 * in the OpenAPI document: they are those servers' APIs, described in docs/api/ntfy.md and gotify.md.
 */
export const DIALECT_ROUTES: readonly Route<Services>[] = [...gotifyRoutes(), ...ntfyRoutes()];

/** Every route the router answers. */
export const ROUTES: readonly Route<Services>[] = [...V1_ROUTES, ...WINDOW_ROUTES, ...DIALECT_ROUTES];
