// One log line per HTTP request (docs/relay.md, "Logs"): its id, method, route pattern, status, duration and,
// once authenticated, the computer and key it came from. The route is the pattern (`/v1/receipts/:id`), never
// the path: paths carry ids, and a careless client may put a credential in one. Nothing of the headers, query
// or body is logged.

import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { log } from '../log.js';

/** The header a proxy sets to tie its log to ours; answered on every request. */
export const REQUEST_ID_HEADER = 'X-Request-Id';
/**
 * A proxy's id is kept when it is short and plain (nginx's $request_id is 32 hex digits, a UUID 36 characters):
 * anything longer or with other characters is replaced, so a client cannot fill or forge log lines with it.
 */
const REQUEST_ID_SHAPE = /^[A-Za-z0-9._:-]{1,128}$/;
/** What a request no route took is logged as. */
const NO_ROUTE = '(none)';

/** The request id to use: the one given, when it has a safe shape, else a new UUID. */
function requestId(given: string | undefined): string {
  return given !== undefined && REQUEST_ID_SHAPE.test(given) ? given : randomUUID();
}

/** Who was authenticated (relay/http/auth.ts keeps the caller on res.locals as `agent` or `device`). */
function caller(res: Response): { deviceId?: string; keyId?: string } {
  const found = (res.locals.agent ?? res.locals.device) as { deviceId?: string; keyId?: string } | undefined;
  return { deviceId: found?.deviceId, keyId: found?.keyId };
}

/** The matched route's pattern (the routers are mounted at the root, so it is whole); several joined by `|`. */
function routePattern(req: Request): string {
  const path = (req.route as { path?: string | string[] } | undefined)?.path;
  if (path === undefined) return NO_ROUTE;
  return Array.isArray(path) ? path.join('|') : path;
}

/** The middleware: first in the app, so every request has an id before anything can refuse it. */
export function requestLog(req: Request, res: Response, next: NextFunction): void {
  const started = process.hrtime.bigint();
  const id = requestId(req.get(REQUEST_ID_HEADER));
  res.locals.requestId = id;
  res.setHeader(REQUEST_ID_HEADER, id);
  let logged = false;
  const write = (): void => {
    if (logged) return;
    logged = true;
    const fields = {
      requestId: id,
      method: req.method,
      route: routePattern(req),
      status: res.statusCode,
      durationMs: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
      ...caller(res),
      // The client went away before the answer was complete (a long-poll given up, a cut upload).
      aborted: res.writableFinished ? undefined : true,
    };
    if (res.statusCode >= 500) log.error('request', fields);
    else log.info('request', fields);
  };
  res.once('finish', write);
  res.once('close', write);
  next();
}
