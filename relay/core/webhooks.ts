// The requests the relay sends to an agent's webhook (docs/relay-api.md#ra206, #ra209, #ra210): signed by the
// Standard Webhooks scheme, sent through the outbound rules (relay/core/outbound.ts), and what each answer means.

import { createHmac } from 'node:crypto';
import { WEBHOOK_ANSWER_MAX_BYTES, WEBHOOK_TIMEOUT_MS } from '../limits.js';
import type { OutboundResponse } from './outbound.js';
import type { Relay } from './relay.js';

const SECRET_PREFIX = 'whsec_';

/** RA204: the HMAC key of a secret: the bytes of the base64 after `whsec_`. */
export const secretKey = (secret: string): Buffer => Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');

/** RA209: `v1,` and the base64 HMAC-SHA256 of `<id>.<timestamp>.<body>`. */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', secretKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export interface WebhookMessage {
  /** `webhook-id`: the event's id (the same on every attempt), or `ver_...` for a challenge. */
  id: string;
  subscriptionId: string;
  secret: string;
  /** The JSON body, exactly as signed. */
  body: string;
}

/**
 * RA209: one POST to the callback, timestamped and signed now (each attempt afresh), no redirects followed,
 * 10 seconds for all of it. Throws when no answer came (see Outbound.request).
 */
export function sendWebhook(
  relay: Pick<Relay, 'clock' | 'outbound'>,
  url: string,
  message: WebhookMessage,
  signal?: AbortSignal,
): Promise<OutboundResponse> {
  const timestamp = Math.floor(relay.clock() / 1000);
  return relay.outbound.request(new URL(url), {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'webhook-id': message.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signature(message.secret, message.id, timestamp, message.body),
      'x-mcp-subscription-id': message.subscriptionId,
    },
    body: message.body,
    timeoutMs: WEBHOOK_TIMEOUT_MS,
    maxResponseBytes: WEBHOOK_ANSWER_MAX_BYTES,
    signal,
  });
}

/** RA210: what an answer to a delivery means. */
export type Verdict = { outcome: 'delivered' } | { outcome: 'gone' } | { outcome: 'dropped' } | { outcome: 'retry'; retryAfterMs?: number };

export function verdictOf(response: Pick<OutboundResponse, 'status' | 'headers'>, now: number): Verdict {
  const { status } = response;
  if (status >= 200 && status < 300) return { outcome: 'delivered' };
  if (status === 410) return { outcome: 'gone' };
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) return { outcome: 'dropped' };
  // 408, 429, 5xx, redirects (never followed) and anything else odd: try again later.
  return { outcome: 'retry', retryAfterMs: retryAfterMs(response.headers['retry-after'], now) };
}

/** RA210: `Retry-After` as seconds or as an HTTP date, in milliseconds from `now` (undefined when absent or unreadable). */
export function retryAfterMs(header: string | string[] | undefined, now: number): number | undefined {
  const text = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
