// A refusal in the shape of the dialect the caller speaks (docs/senders.md, "Refusals"): a tool written for ntfy or
// Gotify reads the error the way that server writes it. The dialects' own errors keep their codes; one of Notifier's
// (a field over its limit, no credentials, a door's refusal) gets the dialect's code for its status.

import type { ApiError } from '../../protocol/errors.js';
import { GotifyError, gotifyErrorBody } from '../../protocol/dialects/gotify.js';
import { NtfyError, ntfyErrorBody, ntfyErrorOf } from '../../protocol/dialects/ntfy.js';

/**
 * Another server's publishing API that Notifier also speaks (docs/senders.md): its routes answer refusals in that
 * server's error shape, so the tools written for it understand them.
 */
export type Dialect = 'ntfy' | 'gotify';

export function dialectError(dialect: Dialect, error: ApiError | NtfyError | GotifyError): { status: number; body: unknown } {
  if (dialect === 'ntfy') {
    const refusal = error instanceof NtfyError ? error : ntfyErrorOf(error.status, error.message);
    return { status: refusal.http, body: ntfyErrorBody(refusal) };
  }
  const status = error instanceof NtfyError ? error.http : error.status;
  return { status, body: gotifyErrorBody(status, error.message) };
}
