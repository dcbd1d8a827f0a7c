// A JSON answer as both servers write it (the daemon's API, the relay's routes: docs/relay-api.md#ra2): the body
// as UTF-8 JSON with its length, never cached. This file imports Node's own modules only: the daemon and the relay
// both use it.

import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

/**
 * Writes `body` as the whole answer, with `status`, `Content-Type: application/json; charset=utf-8`,
 * `Cache-Control: no-store` and its `Content-Length`. Headers set on `res` before stay; `headers` are added last,
 * so they may replace those three (a cacheable document's `Cache-Control`). One `writeHead` with every header: on
 * a response with no header set before, Node writes them at once, where a `setHeader` each costs several microseconds
 * per answer (docs/performance-history.md, "Re-measured after the second pass of the house").
 */
export function answerJson(res: ServerResponse, status: number, body: unknown, headers?: OutgoingHttpHeaders): void {
  const text = JSON.stringify(body);
  const all: OutgoingHttpHeaders = {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(text),
  };
  if (headers) for (const [name, value] of Object.entries(headers)) if (value !== undefined) all[name] = value;
  res.writeHead(status, all);
  res.end(text);
}
