import type { NextFunction, Request, Response } from 'express';
import { type ApiError, errors } from '../../protocol/errors.js';
import { MAX_BODY_BYTES } from '../../protocol/limits.js';

/**
 * Reads the request body as JSON (UTF-8, whatever the Content-Type says, so `curl -d '{...}'` works without
 * `-H`). A body announced larger than the limit is refused before a byte of it is read; one that grows past
 * it while streaming is refused as soon as it does. No body at all leaves `req.body` undefined.
 */
export function jsonBody(req: Request, _res: Response, next: NextFunction): void {
  const announced = req.headers['content-length'];
  if (announced === undefined ? req.headers['transfer-encoding'] === undefined : announced === '0') return next();
  if (Number(announced) > MAX_BODY_BYTES) return next(errors.bodyTooLarge());
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
    return next(errors.unsupportedEncoding());
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let done = false;
  const finish = (error?: ApiError): void => {
    if (done) return;
    done = true;
    req.off('data', onData);
    next(error);
  };
  const onData = (chunk: Buffer): void => {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) finish(errors.bodyTooLarge());
    else chunks.push(chunk);
  };
  req.on('data', onData);
  req.once('error', () => finish(errors.bodyCutOff()));
  req.once('end', () => {
    if (done) return;
    let text = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)).toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // a byte order mark is allowed, and ignored
    try {
      req.body = JSON.parse(text);
    } catch {
      if (/\S/.test(text)) return finish(errors.invalidJson());
      req.body = undefined; // only white space: no body
    }
    finish();
  });
}
