// Reading a request's body, bounded: a body announced larger than a route takes is not read at all, one that
// grows past it stops being read. Either way the route gets TOO_LARGE and refuses it at its turn in the order
// of checks (docs/relay-api.md#ra40, #ra21); the connection is then closed after the answer.

import type { Request } from 'express';
import { invalidJSON, RelayError, tooLarge } from '../../protocol/relay/errors.js';
import { TOO_LARGE, type Body } from '../core/notes.js';

/** The size the client announced, if it did. */
export function declaredLength(req: Request): number | undefined {
  const header = req.headers['content-length'];
  return header !== undefined && /^\d+$/.test(header) ? Number(header) : undefined;
}

export function readBody(req: Request, maxBytes: number): Promise<Body> {
  const declared = declaredLength(req);
  if (declared !== undefined && declared > maxBytes) return Promise.resolve(TOO_LARGE);
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
    return Promise.reject(new RelayError('unsupported_media_type', 'send the body without Content-Encoding'));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: Body | Error): void => {
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
    req.once('error', (error) => finish(error));
    req.once('aborted', () => finish(new Error('the client closed the connection')));
    req.once('end', () => finish(Buffer.concat(chunks, size)));
  });
}

/** A JSON body that was read (an empty body is `undefined`): 413 when it was too large, 400 when not JSON. */
export function parseJSON(body: Body, maxBytes: number): unknown {
  if (body === TOO_LARGE) throw tooLarge('the body', maxBytes);
  const text = body.toString('utf8').replace(/^\uFEFF/, '');
  if (!/\S/.test(text)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw invalidJSON();
  }
}

/** Reads and parses a JSON body of a device or pairing route. */
export async function readJSON(req: Request, maxBytes: number): Promise<unknown> {
  return parseJSON(await readBody(req, maxBytes), maxBytes);
}
