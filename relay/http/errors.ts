// The relay's one error handler (docs/relay-api.md#ra2, #ra3): every refusal of a relay route is a RelayError of
// the one catalogue (protocol/relay/errors.ts), answered as its JSON body `{error: code, message, fields?}` with
// its status and, where the rule says so, Retry-After. A route group with a wire shape of its own (OAuth's, MCP's)
// writes its refusals first (route.ts, RouteGroup.errors) and passes on the rest.

import type { NextFunction, Request, Response } from 'express';
import { answerJson } from '../../common/json-answer.js';
import { brokenPathEscape, internal, notFound, RelayError, unavailable } from '../../protocol/relay/errors.js';
import { UNAVAILABLE_RETRY_AFTER_S } from '../limits.js';
import { log } from '../log.js';

/** A refusal: the error body with its status, and `Retry-After` where the rule says so (RA3). */
export function sendRefusal(res: Response, error: RelayError): void {
  const { retryAfterHeader, retryAfterSeconds } = error.details;
  if (retryAfterHeader && retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(retryAfterSeconds));
  answerJson(res, error.status, error.body());
}

/**
 * RA2: a path whose % escapes do not decode is the caller's mistake, refused first, whatever the route and before
 * any credential is looked at; Express would otherwise fail to read the route's parameters and answer 500. One
 * log line, without a stack: a prober sending many costs a line each.
 */
export function refuseBrokenPathEscape(req: Request, res: Response, next: NextFunction): void {
  if (req.path.includes('%')) {
    try {
      decodeURIComponent(req.path);
    } catch {
      // The path itself is not quoted: it may hold an id or a credential (the request's own line has its id).
      log.warn('refused: a broken % escape in the path', { requestId: res.locals.requestId as string, method: req.method });
      return next(brokenPathEscape());
    }
  }
  next();
}

/** RA2: anything no route took: 404 (under /v1/device with its own message). */
export function unknownRoute(req: Request, _res: Response, next: NextFunction): void {
  const path = req.path;
  next(notFound(path === '/v1/device' || path.startsWith('/v1/device/') ? 'no such device endpoint' : 'no such endpoint'));
}

/**
 * The one place an error becomes an answer. A RelayError is the caller's: its status and body. Anything else
 * is ours: logged, and a 500 without details. When the body was not read (refused before it), the connection
 * is closed after the answer rather than reading it.
 */
export function errorHandler(error: unknown, req: Request, res: Response, _next: NextFunction): void {
  let refusal: RelayError;
  const fromDatabase = databaseRefusal(error);
  if (error instanceof RelayError) refusal = error;
  else if ((error as { type?: string }).type === 'entity.parse.failed')
    refusal = new RelayError('invalid_request', 'the body is not valid JSON');
  else if (fromDatabase) {
    log.warn(`the database did not serve the request: ${(error as Error).message}`, {
      requestId: res.locals.requestId as string,
      method: req.method,
    });
    refusal = fromDatabase;
  } else {
    const route = (req.route as { path?: unknown } | undefined)?.path;
    log.error(`a request failed: ${(error as Error)?.stack ?? String(error)}`, {
      requestId: res.locals.requestId as string,
      method: req.method,
      route: route === undefined ? undefined : String(route),
    });
    refusal = internal();
  }
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (!req.complete) res.setHeader('Connection', 'close');
  sendRefusal(res, refusal);
}

/** The refusal while the database does not answer: 503, try again after Retry-After. */
const databaseUnavailable = (): RelayError => unavailable('the database does not answer; try again shortly', UNAVAILABLE_RETRY_AFTER_S);

/**
 * The 503 for a database error that is of the moment, not of the request (unreachable, or busy), else undefined
 * (an error of ours: 500).
 */
export function databaseRefusal(error: unknown): RelayError | undefined {
  if (databaseUnreachable(error)) return databaseUnavailable();
  if (databaseBusy(error)) return unavailable('the database is busy; try again shortly', UNAVAILABLE_RETRY_AFTER_S);
  return undefined;
}

/**
 * PostgreSQL gave a statement up for a reason of the moment: a lock or statement timeout its administrator set
 * (SQLSTATE 55P03 lock_not_available, 57014 query_canceled), a deadlock or a serialization failure (class 40).
 * The transaction was rolled back and nothing of it stored: 503, the caller tries again.
 */
function databaseBusy(error: unknown): boolean {
  const { code } = (error ?? {}) as { code?: unknown };
  return typeof code === 'string' && (code === '55P03' || code === '57014' || /^40/.test(code));
}

/**
 * PostgreSQL's connection was lost or refused (a restart, a failover, pg_terminate_backend): SQLSTATE class 08
 * (connection exception) or 57P (operator intervention), or the driver's own "Connection terminated". Not the
 * caller's fault and not a bug of ours: 503, the caller tries again once the pool has connected anew.
 */
function databaseUnreachable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (/^08/.test(code) || /^57P/.test(code) || code === 'ECONNREFUSED' || code === 'ECONNRESET')) return true;
  return typeof message === 'string' && /Connection terminated|not queryable|timeout exceeded when trying to connect/.test(message);
}
