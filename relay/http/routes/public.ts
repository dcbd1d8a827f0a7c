// Public routes (docs/relay-api.md#ra5): readiness and the front page.

import { Router, type Request, type Response } from 'express';
import { RELAY_VERSION } from '../../version.js';
import { sendJSON } from '../respond.js';

export const SERVICE_NAME = 'notifier-relay';

const HEALTH = { service: SERVICE_NAME, ok: true, version: RELAY_VERSION } as const;

const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Notifier relay</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: system-ui, sans-serif; max-width: 40em; margin: 3em auto; line-height: 1.5">
<h1>Notifier relay</h1>
<p>This server passes notifications from agents to a person's computer running Notifier. The computer pairs
with it and keeps one connection open; agents send with an agent key over HTTPS or MCP (<code>/mcp</code>).</p>
<p>Status: <a href="/health">/health</a></p>
</body>
</html>
`;

/** RA5: `GET /` is a small page for a browser (a request that prefers text/html), JSON for everyone else. */
function frontPage(req: Request, res: Response): void {
  if (req.method === 'GET' && req.accepts(['application/json', 'text/html']) === 'text/html') {
    res.status(200).setHeader('Content-Type', 'text/html; charset=utf-8').setHeader('Cache-Control', 'no-store').end(PAGE);
    return;
  }
  sendJSON(res, 200, HEALTH);
}

export function publicRoutes(): Router {
  const router = Router();
  router.all('/', frontPage);
  // RA5: readiness, any method: a load balancer's check needs no credential and touches no database.
  router.all(['/health', '/healthz'], (_req, res) => sendJSON(res, 200, HEALTH));
  return router;
}
