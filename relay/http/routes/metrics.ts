// GET /metrics on the main port (docs/relay.md, "Metrics"): only with RELAY_METRICS_TOKEN, a bearer token the
// scraper sends (http/auth.ts). Without one the main port answers 404 here as for any unknown path.

import { METRICS_PATH, sendMetrics } from '../metrics-server.js';
import { route, type RouteGroup } from '../route.js';

export function metricsRoutes(token: string | undefined): RouteGroup {
  if (token === undefined) return { routes: [] };
  return { routes: [route({ method: 'GET', path: METRICS_PATH, caller: 'metrics', handle: ({ res }) => sendMetrics(res) })] };
}
