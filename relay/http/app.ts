// The relay's HTTP face: the middleware every request passes, then the route groups (routes/, one file each,
// declared as route.ts says), then 404 and the one error handler. Each route authenticates its caller before its
// body is read, so nothing is read that a route would refuse.

import express, { type Express } from 'express';
import type { Relay } from '../core/relay.js';
import { authenticators } from './auth.js';
import { errorHandler, refuseBrokenPathEscape, unknownRoute } from './errors.js';
import { closeConnectionsWhenDraining, type Readiness } from './ready.js';
import { countRequests } from './request-count.js';
import { requestLog } from './request-log.js';
import { routerOf } from './route.js';
import { agentRoutes } from './routes/agent.js';
import { audioRoutes } from './routes/audio.js';
import { consentRoutes } from './routes/consents.js';
import { deviceRoutes } from './routes/device.js';
import { dialectRoutes } from './routes/dialects.js';
import { mcpRoutes } from './routes/mcp.js';
import { metricsRoutes } from './routes/metrics.js';
import { oauthPageRoutes } from './routes/oauth-pages.js';
import { oauthRoutes } from './routes/oauth.js';
import { pairingRoutes } from './routes/pairing.js';
import { publicRoutes } from './routes/public.js';
import { readyRoutes } from './routes/ready.js';

/** `trustProxy`: how many proxies' X-Forwarded-* headers to believe (0: none). */
export function createApp(relay: Relay, trustProxy: number, readiness: Readiness, metricsToken?: string): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('trust proxy', trustProxy > 0 ? trustProxy : false);
  app.use(requestLog); // first: every request gets its id and its line, whoever refuses it
  app.use(countRequests);
  app.use(closeConnectionsWhenDraining(readiness)); // a draining node lets kept-alive connections go
  app.use(refuseBrokenPathEscape);
  const authenticate = authenticators(relay, metricsToken);
  const groups = [
    readyRoutes(readiness),
    agentRoutes(relay), // first after /ready: notify is the route that carries the load
    publicRoutes(),
    pairingRoutes(relay),
    mcpRoutes(relay),
    audioRoutes(relay),
    oauthRoutes(relay),
    oauthPageRoutes(relay),
    consentRoutes(relay),
    deviceRoutes(relay),
    metricsRoutes(metricsToken),
    dialectRoutes(relay), // last: a topic is any first segment the relay's own paths did not take
  ];
  for (const group of groups) app.use(routerOf(group, authenticate));
  app.use(unknownRoute);
  app.use(errorHandler);
  return app;
}
