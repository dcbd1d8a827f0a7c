// How the relay answers (docs/relay-api.md#ra2): JSON with `charset=utf-8`, never cached; a refusal is the
// error body with its status, and `Retry-After` where the rule says so.

import type { Response } from 'express';
import type { RelayError } from '../../protocol/relay/errors.js';

export function sendJSON(res: Response, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.status(status);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

export function sendRefusal(res: Response, error: RelayError): void {
  const { retryAfterHeader, retryAfterSeconds } = error.details;
  if (retryAfterHeader && retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(retryAfterSeconds));
  sendJSON(res, error.status, error.body());
}
