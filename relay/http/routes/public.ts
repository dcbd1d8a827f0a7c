// Public routes (docs/relay-api.md#ra5): the front page and the health check, without a credential.

import type { Request, Response } from 'express';
import { answerJson } from '../../../common/json-answer.js';
import { RELAY_VERSION } from '../../version.js';
import { route, type RouteGroup } from '../route.js';

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
  answerJson(res, 200, HEALTH);
}

export function publicRoutes(): RouteGroup {
  return {
    routes: [
      // RA5, RA70: `GET /` (and HEAD); `POST /` is ntfy's JSON publishing (routes/dialects.ts).
      route({ method: 'GET', path: '/', caller: 'none', handle: ({ req, res }) => frontPage(req, res) }),
      // RA5: the process is up, any method: a load balancer's check needs no credential and touches no database.
      route({ method: 'ALL', path: ['/health', '/healthz'], caller: 'none', handle: ({ res }) => answerJson(res, 200, HEALTH) }),
    ],
  };
}
