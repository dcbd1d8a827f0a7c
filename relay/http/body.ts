// Reading a request's body on the relay's routes, bounded (common/bounded-body.ts): a body announced larger than a
// route takes is not read at all, one that grows past it stops being read. Either way the route gets TOO_LARGE and
// refuses it at its turn in the order of checks (docs/relay-api.md#ra40, #ra21); the connection is then closed
// after the answer (errors.ts).

import type { Request } from 'express';
import { readBoundedBody, TOO_LARGE, type BodyRefusals, type BoundedBody } from '../../common/bounded-body.js';
import { invalidJSON, RelayError, tooLarge } from '../../protocol/relay/errors.js';

/** RA2: a compressed body is refused (415); one the client cut off fails the request, which nobody reads any more. */
const REFUSALS: BodyRefusals = {
  encoded: () => new RelayError('unsupported_media_type', 'send the body without Content-Encoding'),
  cutOff: (cause) => cause ?? new Error('the client closed the connection'),
};

export function readBody(req: Request, maxBytes: number): Promise<BoundedBody> {
  return readBoundedBody(req, maxBytes, REFUSALS);
}

/** A JSON body that was read (an empty body is `undefined`): 413 when it was too large, 400 when not JSON. */
export function parseJSON(body: BoundedBody, maxBytes: number): unknown {
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
