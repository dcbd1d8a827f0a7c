// The device stream (docs/relay-api.md#ra30 to #ra33): the one WebSocket a paired computer keeps open to the
// relay, `GET /v1/device/stream`. Frames are JSON text, one object each, told apart by `type`; the text
// `ping` is answered with the text `pong`.

import { invalidField, notAnObject } from './errors.js';
import { MAX_FRAME_BYTES } from './limits.js';
import type { NotifyPayload } from './notify.js';

/** RA33: a newer socket of the same computer replaced this one. */
export const CLOSE_REPLACED = 4000;
/** RA33: the computer was unpaired (or removed by another computer). */
export const CLOSE_UNPAIRED = 4001;

export const PING = 'ping';
export const PONG = 'pong';

/** Who sent a notification, as the computer sees it (RA31). */
export interface SenderKey {
  id: string;
  name: string;
  client: string;
}

// --- Relay to computer (RA31) ---

export interface WelcomeFrame {
  type: 'welcome';
  /** How long an unacknowledged notification waits before the relay gives up on it. */
  ttlSeconds: number;
}

export interface NotifyFrame {
  type: 'notify';
  /** The relay's id (`r_...`): what receipts, acks and audio uploads name. */
  id: string;
  /** The sender's id for it (or one the relay made: `n_...`). */
  notificationId: string;
  createdAt: string;
  key: SenderKey;
  payload: NotifyPayload;
}

// Connector approvals (docs/relay-api.md#ra111) are in consent.ts.

// --- Computer to relay (RA32) ---

/** The computer's quiet-hours and mute state. */
export interface DeviceStatus {
  quietActive?: boolean;
  quietUntil?: string;
  muted?: boolean;
}

export interface HelloFrame extends DeviceStatus {
  type: 'hello';
}

export interface StatusFrame extends DeviceStatus {
  type: 'status';
}

export interface AckFrame {
  type: 'ack';
  id: string;
}

/** The fields are checked with readReceipt (receipts.ts) when the relay applies it. */
export interface ReceiptFrame {
  type: 'receipt';
  [field: string]: unknown;
}

export type DeviceFrame = HelloFrame | StatusFrame | AckFrame | ReceiptFrame;

const DEVICE_FRAME_TYPES = new Set(['hello', 'status', 'ack', 'receipt']);

/**
 * RA30: a frame from the computer, or undefined for one the relay ignores: larger than 16 KiB, not JSON, not an
 * object, or of an unknown type. (`ping` is answered before this is called.)
 */
export function parseDeviceFrame(text: string): DeviceFrame | undefined {
  if (text.length > MAX_FRAME_BYTES || Buffer.byteLength(text) > MAX_FRAME_BYTES) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const type = (value as { type?: unknown }).type;
  return typeof type === 'string' && DEVICE_FRAME_TYPES.has(type) ? (value as DeviceFrame) : undefined;
}

/** RA32: at most this many characters in `quietUntil`. */
const MAX_QUIET_UNTIL_CHARS = 40;

/** Checks a status (`hello`, `status` frames and `POST /v1/device/status`): only the three fields, each typed. */
export function readDeviceStatus(input: unknown): DeviceStatus {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw notAnObject();
  const body = input as Record<string, unknown>;
  const status: DeviceStatus = {};
  for (const field of ['quietActive', 'muted'] as const) {
    const value = body[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'boolean') throw invalidField(field, 'must be true or false');
    status[field] = value;
  }
  const until = body.quietUntil;
  if (until !== undefined && until !== null && until !== '') {
    if (typeof until !== 'string' || until.length > MAX_QUIET_UNTIL_CHARS) {
      throw invalidField('quietUntil', `a time of at most ${MAX_QUIET_UNTIL_CHARS} characters`);
    }
    status.quietUntil = until;
  }
  return status;
}
