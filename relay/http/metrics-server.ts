// GET /metrics (docs/relay.md, "Metrics"): the Prometheus text of the process's registry, on the main port with
// RELAY_METRICS_TOKEN (routes/metrics.ts), or on RELAY_METRICS_PORT, whose own listener needs no token, being bound
// to a private address.

import http from 'node:http';
import { registry } from '../metrics.js';

export const METRICS_PATH = '/metrics';

/** The registry's text, never cached. */
export async function sendMetrics(res: http.ServerResponse): Promise<void> {
  const text = await registry.metrics();
  res.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' });
  res.end(text);
}

/** The separate listener's server: /metrics, and 404 for anything else. */
export function createMetricsServer(): http.Server {
  return http.createServer((req, res) => {
    if (req.method === 'GET' && req.url?.split('?')[0] === METRICS_PATH) {
      sendMetrics(res).catch(() => {
        res.writeHead(500).end();
      });
      return;
    }
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('only GET /metrics is served here\n');
  });
}
