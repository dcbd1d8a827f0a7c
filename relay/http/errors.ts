import type { NextFunction, Request, Response } from 'express';
import { brokenPathEscape, internal, notFound, RelayError } from '../../protocol/relay/errors.js';
import { log } from '../log.js';
import { sendRefusal } from './respond.js';

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
  if (error instanceof RelayError) refusal = error;
  else if ((error as { type?: string }).type === 'entity.parse.failed')
    refusal = new RelayError('invalid_request', 'the body is not valid JSON');
  else {
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
