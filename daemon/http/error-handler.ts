import type { NextFunction, Request, Response } from 'express';
import { ApiError, errorBody, errors } from '../../protocol/errors.js';
import { GotifyError } from '../../protocol/dialects/gotify.js';
import { NtfyError } from '../../protocol/dialects/ntfy.js';
import { log } from '../log.js';
import { type Dialect, dialectError } from './dialect-errors.js';
import { answerJson } from '../../common/json-answer.js';

/** The caller's error as it is; anything else is a bug of ours: logged, and a 500 without details. */
function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  log.error(`unexpected error: ${(error as Error)?.stack ?? String(error)}`);
  return errors.internal();
}

/**
 * The one place an error becomes an answer, on `/v1` and `/app/api` alike: `{"error": message, "code", "field"?,
 * "reason"?}` with its status, never cached. When the request body was not read (a refusal from a door, a body
 * announced too large), the connection is closed after the answer so the unread body is never read.
 */
export function sendError(req: Request, res: Response, error: unknown, dialect?: Dialect): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (!req.complete) res.setHeader('Connection', 'close');
  if (dialect !== undefined) {
    const { status, body } = dialectError(dialect, error instanceof NtfyError || error instanceof GotifyError ? error : asApiError(error));
    answerJson(res, status, body);
    return;
  }
  const failure = asApiError(error);
  answerJson(res, failure.status, errorBody(failure));
}

/** Express's error middleware for `/v1`. */
export function errorHandler(error: unknown, req: Request, res: Response, _next: NextFunction): void {
  sendError(req, res, error);
}
