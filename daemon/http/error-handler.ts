import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../errors.js';
import { MAX_BODY_BYTES } from '../limits.js';
import { log } from '../log.js';

/** body-parser's errors carry a `type`; these are the caller's doing, so they are 4xx with a clear message. */
const BODY_ERRORS: Record<string, (error: { status?: number }) => ApiError> = {
  'entity.too.large': () => new ApiError(413, `body is too large (at most ${MAX_BODY_BYTES} bytes)`),
  'entity.parse.failed': () => new ApiError(400, 'invalid JSON'),
  'entity.verify.failed': () => new ApiError(400, 'invalid JSON'),
  'encoding.unsupported': () => new ApiError(415, 'unsupported Content-Encoding: send the JSON body as is'),
  'charset.unsupported': () => new ApiError(415, 'unsupported charset: send the JSON body as UTF-8'),
  'request.aborted': () => new ApiError(400, 'the request body was cut off'),
  'request.size.invalid': () => new ApiError(400, 'the request body does not match its Content-Length'),
};

function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const type = (error as { type?: string } | null)?.type;
  if (type && BODY_ERRORS[type]) return BODY_ERRORS[type](error as { status?: number });
  log.error(`unexpected error: ${(error as Error)?.stack ?? String(error)}`);
  return new ApiError(500, 'internal error (details are in the Notifier log)');
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
  res.status(status).json({ error: message });
}
