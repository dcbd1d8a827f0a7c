// GET /metrics (docs/relay.md, "Metrics"): the Prometheus text of the process's registry. On the main port only
// with RELAY_METRICS_TOKEN (a bearer token, compared in constant time); on RELAY_METRICS_PORT its own listener
// needs none, being bound to a private address. With neither, the main port answers 404 as for any unknown path.

import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { Router, type Request, type Response } from 'express';
import { unauthorized } from '../../protocol/relay/errors.js';
import { authorizationOf } from './auth.js';
import { registry } from '../metrics.js';

export const METRICS_PATH = '/metrics';

async function sendMetrics(res: http.ServerResponse): Promise<void> {
  const text = await registry.metrics();
  res.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' });
  res.end(text);
}

/** Equal-length digests, so the comparison takes the same time whatever the token given. */
const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

function bearerMatches(req: Request, token: string): boolean {
  const given = /^Bearer (.+)$/i.exec(authorizationOf(req) ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(given), digest(token));
}

/** The route on the main port: present only when a token is configured. */
export function metricsRoutes(token: string | undefined): Router {
  const router = Router();
  if (token === undefined) return router;
  router.get(METRICS_PATH, async (req: Request, res: Response) => {
    if (!bearerMatches(req, token)) throw unauthorized('GET /metrics needs RELAY_METRICS_TOKEN: Authorization: Bearer <token>');
    await sendMetrics(res);
  });
  return router;
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
