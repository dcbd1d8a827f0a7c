import express, { type Express } from 'express';
import type { Relay } from '../core/relay.js';
import { errorHandler, refuseBrokenPathEscape, unknownRoute } from './errors.js';
import { countRequests } from '../metrics.js';
import { agentRoutes } from './routes/agent.js';
import { audioRoutes } from './routes/audio.js';
import { consentRoutes } from './routes/consents.js';
import { deviceRoutes } from './routes/device.js';
import { metricsRoutes } from './metrics-route.js';
import { mcpRoutes } from './routes/mcp.js';
import { oauthPageRoutes } from './routes/oauth-pages.js';
import { oauthRoutes } from './routes/oauth.js';
import { closeConnectionsWhenDraining, readyRoutes, type Readiness } from './ready.js';
import { pairingRoutes } from './routes/pairing.js';
import { requestLog } from './request-log.js';
import { publicRoutes } from './routes/public.js';

/**
 * The relay's HTTP face: each group of routes reads its own body (after authenticating), so nothing is read
 * that a route would refuse. `trustProxy`: how many proxies' X-Forwarded-* headers to believe (0: none).
 */
export function createApp(relay: Relay, trustProxy: number, readiness: Readiness, metricsToken?: string): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('trust proxy', trustProxy > 0 ? trustProxy : false);
  app.use(requestLog); // first: every request gets its id and its line, whoever refuses it
  app.use(countRequests);
  app.use(closeConnectionsWhenDraining(readiness)); // a draining node lets kept-alive connections go
  app.use(refuseBrokenPathEscape);
  app.use(readyRoutes(readiness));
  app.use(agentRoutes(relay)); // first: notify is the route that carries the load
  app.use(publicRoutes());
  app.use(pairingRoutes(relay));
  app.use(mcpRoutes(relay));
  app.use(audioRoutes(relay));
  app.use(oauthRoutes(relay));
  app.use(oauthPageRoutes(relay));
  app.use(consentRoutes(relay));
  app.use(deviceRoutes(relay));
  app.use(metricsRoutes(metricsToken));
  app.use(unknownRoute);
  app.use(errorHandler);
  return app;
}
