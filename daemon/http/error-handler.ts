import type { NextFunction, Request, Response } from 'express';
import { ApiError, errors } from '../../protocol/errors.js';
import { log } from '../log.js';
import { sendJSON } from './routes.js';

function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  log.error(`unexpected error: ${(error as Error)?.stack ?? String(error)}`);
  return errors.internal();
}

/**
 * The one place an error becomes a reply: `{"error": message}` with its status. When the request body was not
 * read (a refusal from the guard, a body announced too large), the connection is closed after the reply so
 * the unread body is never read.
 */
export function errorHandler(error: unknown, req: Request, res: Response, _next: NextFunction): void {
  const { status, message } = asApiError(error);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (!req.complete) res.setHeader('Connection', 'close');
  sendJSON(res, status, { error: message });
}
