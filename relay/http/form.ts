// Form bodies (`application/x-www-form-urlencoded`): what OAuth clients send to /token, /revoke and
// /device_authorization, and what the relay's own pages post (docs/relay-api.md#ra100).

import type { Request } from 'express';
import { oauthInvalidRequest } from '../../protocol/relay/oauth-errors.js';
import { TOO_LARGE } from '../../common/bounded-body.js';
import { readBody } from './body.js';

/** The largest form body read: the longest fields (codes, tokens, a redirect address) fit many times over. */
export const FORM_MAX_BYTES = 16 * 1024;

/**
 * RA100: the form's fields. 400 invalid_request when the body is larger than 16 KiB, is of another media type,
 * or names a field twice (RFC 6749 section 3.1).
 */
export async function readForm(req: Request): Promise<URLSearchParams> {
  const type = req.headers['content-type']?.split(';')[0]!.trim().toLowerCase();
  const body = await readBody(req, FORM_MAX_BYTES);
  if (body === TOO_LARGE) throw oauthInvalidRequest(`the body is larger than ${FORM_MAX_BYTES} bytes`);
  if (type !== undefined && type !== 'application/x-www-form-urlencoded' && body.length > 0)
    throw oauthInvalidRequest('send the body as application/x-www-form-urlencoded');
  const form = new URLSearchParams(body.toString('utf8'));
  const names = [...form.keys()];
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated !== undefined) throw oauthInvalidRequest(`${repeated} is given more than once`);
  return form;
}
