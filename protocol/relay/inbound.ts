// What the computer takes from the relay (docs/api/relay-connection.md#rl20 to #rl22): every frame read again as untrusted
// input, whatever relay sent it. A frame of an unknown type, not JSON, or without the fields its type needs is
// dropped; a notification's payload is read once more with the relay's own whitelist and field rules
// (notify.ts), so the relay and the desktop apply one definition of what may arrive.

import type { ConsentFlow, ConsentFrame, ConsentResolvedFrame, ConsentStatus } from './consent.js';
import { RelayError } from './errors.js';
import type { NotifyFrame, SenderKey, WelcomeFrame } from './frames.js';
import { NOTIFY_TEXT_LIMITS } from './limits.js';
import { cleanNotification, NOTIFY_FIELDS, type NotifyPayload } from './notify.js';
import { RELAY_ID_PATTERN } from './receipts.js';

/**
 * RL20: the largest message the computer reads from the relay. A notification with a data-URL icon of 256 KiB is
 * the largest frame a relay sends (about 360 KB); anything larger closes the socket (WebSocket code 1009).
 */
export const MAX_RELAY_MESSAGE_BYTES = 1024 * 1024;

/** RL21: a sender's key name and client as the computer keeps them: at most this many characters. */
const MAX_KEY_TEXT_CHARS = 64;

/** RL22: the connector approval's texts as the computer shows them. */
const CONSENT_TEXT_LIMITS = { clientName: 60, redirectHost: 255, scope: 64, id: 128 } as const;

/** RL22: the 6 digits the person may type on the relay's page. */
const APPROVAL_CODE_PATTERN = /^\d{6}$/;
/** RL22: the device flow's user code, `XXXX-XXXX`. */
const USER_CODE_PATTERN = /^[A-Z0-9]{4}-[A-Z0-9]{4}$/;

const CONSENT_STATUSES: readonly ConsentStatus[] = ['pending', 'approved', 'denied', 'superseded', 'expired'];
const CONSENT_FLOWS: readonly ConsentFlow[] = ['code', 'device'];
const SPEAK_KEYS = ['text', 'voice', 'speed', 'lang'];

/** A notify frame whose payload could not be read (no usable title): acknowledged and reported, never shown. */
interface UnreadableNotifyFrame {
  type: 'notify';
  id: string;
  unreadable: true;
}

type InboundFrame = WelcomeFrame | NotifyFrame | UnreadableNotifyFrame | ConsentFrame | ConsentResolvedFrame;

/** RL20: one text message from the relay, or undefined for one the computer ignores. `pong` is told apart before. */
export function readRelayFrame(text: string): InboundFrame | undefined {
  if (Buffer.byteLength(text) > MAX_RELAY_MESSAGE_BYTES) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(value)) return undefined;
  switch (value.type) {
    case 'welcome':
      return { type: 'welcome', ttlSeconds: typeof value.ttlSeconds === 'number' ? value.ttlSeconds : 0 };
    case 'notify':
      return readNotify(value);
    case 'consent':
      return readConsent(value);
    case 'consent_resolved': {
      const id = shortText(value.id, CONSENT_TEXT_LIMITS.id);
      const status = CONSENT_STATUSES.find((known) => known === value.status && known !== 'pending');
      return id && status ? { type: 'consent_resolved', id, status: status as ConsentResolvedFrame['status'] } : undefined;
    }
    default:
      return undefined;
  }
}

/** RL21: the relay id must be one (receipts name it); the key is read as text; the payload as an agent's notification. */
function readNotify(value: Record<string, unknown>): NotifyFrame | UnreadableNotifyFrame | undefined {
  const id = value.id;
  if (typeof id !== 'string' || !RELAY_ID_PATTERN.test(id)) return undefined;
  const key = isObject(value.key) ? value.key : {};
  const sender: SenderKey = {
    id: shortText(key.id, MAX_KEY_TEXT_CHARS) ?? '',
    name: shortText(key.name, MAX_KEY_TEXT_CHARS) ?? '',
    client: shortText(key.client, MAX_KEY_TEXT_CHARS) ?? 'other',
  };
  const payload = readRelayedPayload(value.payload);
  if (!payload) return { type: 'notify', id, unreadable: true };
  return {
    type: 'notify',
    id,
    notificationId: shortText(value.notificationId, 128) ?? id,
    createdAt: shortText(value.createdAt, 40) ?? '',
    key: sender,
    payload,
  };
}

/**
 * RL21: a relayed notification's payload, rebuilt from the whitelist: keys outside it are dropped (never refused:
 * the computer cannot ask the relay again), text fields are cut to their limits, and a field that breaks its
 * rule is dropped. Undefined when there is no usable title.
 */
function readRelayedPayload(input: unknown): NotifyPayload | undefined {
  if (!isObject(input)) return undefined;
  const kept: Record<string, unknown> = {};
  for (const field of NOTIFY_FIELDS) {
    const value = input[field];
    if (value === undefined) continue;
    kept[field] = typeof value === 'string' && field in NOTIFY_TEXT_LIMITS ? cut(value, field as keyof typeof NOTIFY_TEXT_LIMITS) : value;
  }
  if (isObject(kept.speak)) {
    const speak = kept.speak;
    kept.speak = Object.fromEntries(SPEAK_KEYS.filter((key) => speak[key] !== undefined).map((key) => [key, speak[key]]));
  }
  // Each pass drops the fields the rules refused; at most one pass per field.
  for (let pass = 0; pass <= NOTIFY_FIELDS.length; pass++) {
    try {
      return cleanNotification(kept);
    } catch (error) {
      if (!(error instanceof RelayError) || !error.details.fields?.length) return undefined;
      for (const field of error.details.fields) {
        const top = field.split('.')[0]!;
        // Without a title there is nothing to show; a withdrawal without its collapse id takes nothing back.
        if (top === 'title' || (top === 'collapseId' && kept.withdraw !== undefined)) return undefined;
        delete kept[top];
      }
    }
  }
  return undefined;
}

/** RL22: a connector approval request; one without a readable id, client, 6-digit code, flow or expiry is dropped. */
function readConsent(value: Record<string, unknown>): ConsentFrame | undefined {
  const id = shortText(value.id, CONSENT_TEXT_LIMITS.id);
  const clientName = shortText(value.clientName, CONSENT_TEXT_LIMITS.clientName);
  const flow = CONSENT_FLOWS.find((known) => known === value.flow);
  const status = CONSENT_STATUSES.find((known) => known === value.status) ?? 'pending';
  const code = typeof value.code === 'string' && APPROVAL_CODE_PATTERN.test(value.code) ? value.code : undefined;
  const expiresAt = typeof value.expiresAt === 'string' && !Number.isNaN(Date.parse(value.expiresAt)) ? value.expiresAt : undefined;
  if (!id || !clientName || !flow || !code || !expiresAt) return undefined;
  const userCode = typeof value.userCode === 'string' && USER_CODE_PATTERN.test(value.userCode) ? value.userCode : undefined;
  if (flow === 'device' && !userCode) return undefined;
  return {
    type: 'consent',
    id,
    clientId: shortText(value.clientId, CONSENT_TEXT_LIMITS.id) ?? '',
    clientName,
    redirectHost: flow === 'code' ? (shortText(value.redirectHost, CONSENT_TEXT_LIMITS.redirectHost) ?? '') : '',
    scope: shortText(value.scope, CONSENT_TEXT_LIMITS.scope) ?? 'notify',
    code,
    status,
    createdAt: shortText(value.createdAt, 40) ?? '',
    expiresAt,
    flow,
    ...(userCode ? { userCode } : {}),
    ...(value.redelivered === true ? { redelivered: true as const } : {}),
  };
}

/** A one-line text: control characters removed, trimmed, cut; undefined when nothing is left. */
function shortText(value: unknown, maxChars: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  // eslint-disable-next-line no-control-regex
  const clean = value.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim();
  return clean === '' ? undefined : clean.slice(0, maxChars);
}

function cut(value: string, field: keyof typeof NOTIFY_TEXT_LIMITS): string {
  const trimmed = value.trim();
  return trimmed.length > NOTIFY_TEXT_LIMITS[field] ? trimmed.slice(0, NOTIFY_TEXT_LIMITS[field]) : trimmed;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
