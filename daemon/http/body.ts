import type { NextFunction, Request, Response } from 'express';
import { readBoundedBody, TOO_LARGE, type BodyRefusals } from '../../common/bounded-body.js';
import { errors } from '../../protocol/errors.js';
import { MAX_BODY_BYTES } from '../../protocol/limits.js';

/** How the daemon refuses a body it cannot read: the API's own errors. */
const REFUSALS: BodyRefusals = { encoded: () => errors.unsupportedEncoding(), cutOff: () => errors.bodyCutOff() };

/**
 * Reads the request body as JSON (UTF-8, whatever the Content-Type says, so `curl -d '{...}'` works without
 * `-H`). A body announced larger than the limit is refused before a byte of it is read; one that grows past
 * it while streaming is refused as soon as it does (common/bounded-body.ts). No body at all leaves `req.body`
 * undefined.
 */
export function jsonBody(req: Request, _res: Response, next: NextFunction): void {
  const announced = req.headers['content-length'];
  if (announced === undefined ? req.headers['transfer-encoding'] === undefined : announced === '0') return next();
  readBoundedBody(req, MAX_BODY_BYTES, REFUSALS).then((bytes) => {
    if (bytes === TOO_LARGE) return next(errors.bodyTooLarge());
    let text = bytes.toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // a byte order mark is allowed, and ignored
    try {
      req.body = JSON.parse(text);
    } catch {
      if (/\S/.test(text)) return next(errors.invalidJson());
      req.body = undefined; // only white space: no body
    }
    next();
  }, next);
}

/** Reads the request body as bytes (a dialect's route reads its own forms), bounded as a JSON body is; none is empty. */
export async function readRawBody(req: Request): Promise<Buffer> {
  const bytes = await readBoundedBody(req, MAX_BODY_BYTES, REFUSALS);
  if (bytes === TOO_LARGE) throw errors.bodyTooLarge();
  return bytes;
}
