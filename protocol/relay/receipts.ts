// Receipts (docs/relay-api.md#ra20): what the computer reports about a relayed notification, and the receipt an
// agent reads back. The computer sends the same receipt over HTTP or its socket; these rules apply to both.

import { invalidField, notAnObject } from './errors.js';
import { MAX_REPLY_CHARS, MAX_REPLY_SECONDS, SUPPRESS_REASON_PATTERN } from './limits.js';

export const RECEIPT_KINDS = ['displayed', 'spoken', 'replied', 'suppressed'] as const;
export type ReceiptKind = (typeof RECEIPT_KINDS)[number];

/** `speech`: only the speech was held back (the banner showed); `all`: nothing was shown. */
export const SUPPRESS_SCOPES = ['speech', 'all'] as const;
export type SuppressScope = (typeof SUPPRESS_SCOPES)[number];

/** RL32: the reasons of the computer's `suppressed` receipts, by what held the notification or its speech back. */
export const SUPPRESS_REASONS = {
  muted: 'muted',
  quietHours: 'quiet-hours',
  deliveryFailed: 'delivery-failed',
  unreadable: 'unreadable',
  speechOff: 'speech-off',
  speechUnavailable: 'speech-unavailable',
} as const;
export type SuppressReason = (typeof SUPPRESS_REASONS)[keyof typeof SUPPRESS_REASONS];

/** The relay's id of one notification: `r_` and 24 hex digits. */
export const RELAY_ID_PATTERN = /^r_[0-9a-f]{24}$/;

/** What the relay stores as a suppression reason when the computer sends none, or one that breaks the rule. */
export const DEFAULT_SUPPRESS_REASON = 'suppressed';

/** A checked receipt from the computer. */
export interface ReceiptInput {
  id: string;
  kind: ReceiptKind;
  text?: string;
  transcript?: string;
  durationSeconds?: number;
  reason?: string;
  scope?: SuppressScope;
}

/**
 * Checks a receipt (RA20). `kind` may be fixed by the route (`POST /v1/device/reply` is a `replied` receipt);
 * on the socket, `notificationId` is accepted as another name for `id` (both mean the relay's id).
 */
export function readReceipt(input: unknown, options: { kind?: ReceiptKind; idAlias?: boolean } = {}): ReceiptInput {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw notAnObject();
  const body = input as Record<string, unknown>;
  const id = body.id ?? (options.idAlias ? body.notificationId : undefined);
  if (typeof id !== 'string' || !RELAY_ID_PATTERN.test(id))
    throw invalidField('id', "the relay's id of the notification (r_ and 24 hex digits)");
  const kind = options.kind ?? body.kind;
  if (typeof kind !== 'string' || !(RECEIPT_KINDS as readonly string[]).includes(kind)) {
    throw invalidField('kind', `one of ${RECEIPT_KINDS.join(', ')}`);
  }
  const receipt: ReceiptInput = { id, kind: kind as ReceiptKind };
  const text = replyText(body.text, 'text');
  const transcript = replyText(body.transcript, 'transcript');
  if (text !== undefined) receipt.text = text;
  if (transcript !== undefined) receipt.transcript = transcript;
  if (body.durationSeconds !== undefined && body.durationSeconds !== null) {
    const seconds = body.durationSeconds;
    if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0 || seconds > MAX_REPLY_SECONDS) {
      throw invalidField('durationSeconds', `a number from 0 to ${MAX_REPLY_SECONDS}`);
    }
    receipt.durationSeconds = seconds;
  }
  if (receipt.kind === 'suppressed') {
    receipt.reason = typeof body.reason === 'string' && SUPPRESS_REASON_PATTERN.test(body.reason) ? body.reason : DEFAULT_SUPPRESS_REASON;
    receipt.scope = suppressScope(body.scope);
  }
  return receipt;
}

function replyText(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidField(field, 'must be a string');
  const trimmed = value.trim();
  if (trimmed.length > MAX_REPLY_CHARS) throw invalidField(field, `at most ${MAX_REPLY_CHARS} characters`);
  return trimmed === '' ? undefined : trimmed;
}

function suppressScope(value: unknown): SuppressScope {
  if (value === undefined || value === null) return 'all';
  if (typeof value === 'string' && (SUPPRESS_SCOPES as readonly string[]).includes(value)) return value as SuppressScope;
  throw invalidField('scope', `one of ${SUPPRESS_SCOPES.join(', ')}`);
}

/** What an agent reads about a reply (RA46); present only once the person replied. */
export interface ReplyFields {
  repliedAt: string;
  /** The typed text, else the transcript. */
  reply?: string;
  text?: string;
  transcript?: string;
  transcriptNote?: string;
  audioUrl?: string;
  audioUrlExpiresInSeconds?: number;
  durationSeconds?: number;
}

/** The receipt an agent reads (RA46): from notify, `GET /v1/receipts/{id}` and the `get_receipt` tool. */
export interface Receipt extends Partial<ReplyFields> {
  notificationId: string;
  received: true;
  receivedAt: string;
  /** Neither acknowledged by the computer nor suppressed. */
  queued: boolean;
  displayed: boolean;
  displayedAt?: string;
  spoken: boolean;
  spokenAt?: string;
  replied: boolean;
  expectReply: boolean;
  suppressed: boolean;
  reason?: string;
  suppressedScope?: SuppressScope;
}

/** The answer of `GET /v1/replies/{id}` and `wait_for_reply` (RA47). */
export interface ReplyAnswer extends Partial<ReplyFields> {
  notificationId: string;
  replied: boolean;
  /** Only when a wait longer than 0 ran out. */
  timedOut?: true;
  suppressed: boolean;
  reason?: string;
}

/** The note agents read with a voice reply's transcript. */
export const TRANSCRIPT_NOTE = "transcribed on the user's computer; may be imperfect";
