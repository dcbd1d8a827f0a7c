import type { NextFunction, Request, Response } from 'express';
import { internal, notFound, RelayError } from '../../protocol/relay/errors.js';
import { log } from '../log.js';
import { sendRefusal } from './respond.js';

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
    log.error(`${req.method} ${req.path} failed: ${(error as Error)?.stack ?? String(error)}`);
    refusal = internal();
  }
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (!req.complete) res.setHeader('Connection', 'close');
  sendRefusal(res, refusal);
}
