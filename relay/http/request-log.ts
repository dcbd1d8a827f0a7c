// One log line per HTTP request (docs/relay.md, "Logs"): its id, method, route pattern, status, duration and,
// once authenticated, the computer and key it came from. A WebSocket upgrade (the device stream) gets the same
// line, with 101 or the refusal's status and the time to the upgrade. The route is the pattern (`/v1/receipts/:id`), never
// the path: paths carry ids, and a careless client may put a credential in one. Nothing of the headers, query
// or body is logged.

import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { hasCredential, log } from '../log.js';

/** The header a proxy sets to tie its log to ours; answered on every request. */
export const REQUEST_ID_HEADER = 'X-Request-Id';
/**
 * A proxy's id is kept when it is short and plain (nginx's $request_id is 32 hex digits, a UUID 36 characters):
 * anything longer or with other characters is replaced, so a client cannot fill or forge log lines with it, and
 * so is one shaped like a credential of the relay (a careless client's key), so that none reaches the log.
 */
const REQUEST_ID_SHAPE = /^[A-Za-z0-9._:-]{1,128}$/;
/** What a request no route took is logged as. */
const NO_ROUTE = '(none)';

/** The request id to use: the one given, when it has a safe shape, else a new UUID. */
function requestId(given: string | undefined): string {
  return given !== undefined && REQUEST_ID_SHAPE.test(given) && !hasCredential(given) ? given : randomUUID();
}

/**
 * Who was authenticated (relay/http/auth.ts keeps the caller on res.locals as `agent` or `device`). An OAuth access
 * token names its key only in the database: verifyAgentKey notes it on the caller once found (relay/core/auth.ts).
 */
function caller(res: Response): { deviceId?: string; keyId?: string } {
  const found = (res.locals.agent ?? res.locals.device) as { deviceId?: string; keyId?: string; verifiedKeyId?: string } | undefined;
  return { deviceId: found?.deviceId, keyId: found?.keyId ?? found?.verifiedKeyId };
}

/** Milliseconds since `started`, to a hundredth. */
const elapsedMs = (started: bigint): number => Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100;

/**
 * The matched route's pattern (the routers are mounted at the root, so it is whole), several spellings joined by
 * `|`; undefined when no route took the request. The log and the metrics (request-count.ts) both name routes so.
 */
export function routePattern(req: Request): string | undefined {
  const path = (req.route as { path?: string | string[] } | undefined)?.path;
  if (path === undefined) return undefined;
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
    log.request({
      requestId: id,
      method: req.method,
      route: routePattern(req) ?? NO_ROUTE,
      status: res.statusCode,
      durationMs: elapsedMs(started),
      ...caller(res),
      // The client went away before the answer was complete (a long-poll given up, a cut upload).
      aborted: res.writableFinished ? undefined : true,
    });
  };
  res.once('finish', write);
  res.once('close', write);
  next();
}

/** The line of one WebSocket upgrade, written once it is answered. */
export interface UpgradeLog {
  /** The request id, to answer in the `X-Request-Id` header of the 101 or of the refusal. */
  readonly requestId: string;
  /** Writes the line: 101 or the refusal's status, and the computer once its token was checked. */
  answered(status: number, deviceId?: string): void;
}

/** Starts timing an upgrade request (Express never sees it); `route` is its pattern, when it has one. */
export function upgradeLog(req: IncomingMessage, route: string | undefined): UpgradeLog {
  const started = process.hrtime.bigint();
  const given = req.headers[REQUEST_ID_HEADER.toLowerCase()];
  const id = requestId(typeof given === 'string' ? given : undefined);
  let logged = false;
  return {
    requestId: id,
    answered: (status, deviceId) => {
      if (logged) return;
      logged = true;
      log.request({ requestId: id, method: req.method ?? '', route: route ?? NO_ROUTE, status, durationMs: elapsedMs(started), deviceId });
    },
  };
}
