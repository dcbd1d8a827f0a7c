// Reading a request's body up to a byte limit, as both servers do (the daemon's JSON bodies, the relay's routes:
// docs/relay-api.md#ra40, #ra21): a body announced larger than the limit is not read at all, one that grows past it
// stops being read as soon as it does. The caller decides what a refusal is: this file says what happened and
// throws the caller's errors. It imports Node's own modules only: the daemon and the relay both use it.

import type { IncomingMessage } from 'node:http';

/** A body larger than the limit: the caller refuses it (at once, or at its turn in its order of checks). */
export const TOO_LARGE = Symbol('too large');
export type BoundedBody = Buffer | typeof TOO_LARGE;

/** The errors a read rejects with: the caller's own. */
export interface BodyRefusals {
  /** The body is compressed (a Content-Encoding other than identity), which is not read. */
  encoded(): Error;
  /** The client stopped sending before the end: the stream failed (`cause`) or the connection closed. */
  cutOff(cause?: Error): Error;
}

/** The size the client announced in Content-Length, if it did (a whole number). */
export function announcedLength(req: IncomingMessage): number | undefined {
  const header = req.headers['content-length'];
  return header !== undefined && /^\d+$/.test(header) ? Number(header) : undefined;
}

/**
 * `req`'s body, at most `maxBytes` of it: TOO_LARGE without reading a byte when Content-Length announces more,
 * and as soon as what arrives passes the limit (the rest is left unread: the caller closes the connection after
 * its answer). An empty body is an empty Buffer.
 */
export function readBoundedBody(req: IncomingMessage, maxBytes: number, refusals: BodyRefusals): Promise<BoundedBody> {
  const announced = announcedLength(req);
  if (announced !== undefined && announced > maxBytes) return Promise.resolve(TOO_LARGE);
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return Promise.reject(refusals.encoded());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: BoundedBody | Error): void => {
      if (done) return;
      done = true;
      req.off('data', onData);
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) finish(TOO_LARGE);
      else chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('error', (error) => finish(refusals.cutOff(error)));
    req.once('aborted', () => finish(refusals.cutOff()));
    req.once('end', () => finish(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
  });
}
