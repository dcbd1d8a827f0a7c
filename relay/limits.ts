// The relay's own limits and lifetimes, each with the rule of docs/relay-api.md it implements. Those a
// deployment may change are defaults of relay/config.ts (environment variables); the rest are fixed. The
// limits the desktop also applies are in protocol/relay/limits.ts.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// --- Defaults of the environment variables (docs/relay.md, "Configuration") ---

/** RELAY_DRAIN_S (docs/relay.md, "Health, readiness and draining"): a load balancer checking every few seconds sees /ready fail well within it. */
export const DEFAULT_DRAIN_S = 10;
/** The longest drain: under Kubernetes' default 30 s before SIGKILL, with room to close. */
export const MAX_DRAIN_S = 25;
/** Retry-After of a 503 while the relay is starting, draining or without its database. */
export const UNAVAILABLE_RETRY_AFTER_S = 5;
/** How long /ready waits for the database's answer before it says 503 (a hung database is not a ready one). */
export const READY_QUERY_TIMEOUT_MS = 2 * SECOND;

/** The per-computer and per-key limits a deployment may change (relay/config.ts reads them; DEFAULTS below). */
export interface Limits {
  maxDevices: number;
  pairStartsPerHour: number;
  pairStartsGlobalPerHour: number;
  rateLimitPerKey: number;
  deviceNotificationsPerDay: number;
  deviceQueueMax: number;
  deviceRequestsPerDay: number;
  deviceAudioUploadsPerDay: number;
  deviceAudioBytesPerDay: number;
  devicePollSecondsPerDay: number;
  queueTtlHours: number;
  maxBodyBytes: number;
  /** RA101: client registrations per hour on the whole relay. */
  registerPerHour: number;
}

export const DEFAULTS = {
  port: 8787,
  host: '127.0.0.1',
  /** RA12: paired computers per relay. */
  maxDevices: 5,
  /** RA12: pairing starts per client address per hour. */
  pairStartsPerHour: 6,
  /** RA12: pairing starts per hour from everyone. */
  pairStartsGlobalPerHour: 300,
  /** RA50: notifications per key per 10 minutes. */
  rateLimitPerKey: 60,
  /** RA50: notifications per computer per UTC day. */
  deviceNotificationsPerDay: 500,
  /** RA50: notifications waiting (not yet acknowledged) per computer. */
  deviceQueueMax: 100,
  /** RA51: requests per computer per UTC day. */
  deviceRequestsPerDay: 5000,
  /** RA21: voice-reply uploads per computer per UTC day. */
  deviceAudioUploadsPerDay: 40,
  /** RA21: voice-reply bytes per computer per UTC day. */
  deviceAudioBytesPerDay: 20 * 1024 * 1024,
  /** RA47: long-poll seconds per computer per UTC day. */
  devicePollSecondsPerDay: 3000,
  /** RA45: hours a notification waits for the computer. */
  queueTtlHours: 24,
  /** RA101: OAuth client registrations per hour on the whole relay. */
  registerPerHour: 30,
} as const;

// --- Pairing (docs/relay-api.md#ra10 to #ra12) ---

/** RA10: a pairing code works once, for 10 minutes. */
export const PAIR_CODE_TTL_MS = 10 * MINUTE;
/** RA10: 8 characters without look-alikes (no I, L, O, 0, 1), shown as XXXX-XXXX. */
export const PAIR_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const PAIR_CODE_LENGTH = 8;
/** RA12: the window of the hourly pairing limits. */
export const PAIR_WINDOW_MS = HOUR;
/** RA12: codes waiting at once, per client address and in all. */
export const MAX_WAITING_CODES_PER_ADDRESS = 3;
export const MAX_WAITING_CODES = 60;
/** RA12: wrong codes per client address in 10 minutes before pairing from there pauses. */
export const MAX_WRONG_CODES = 10;
export const WRONG_CODE_WINDOW_MS = 10 * MINUTE;
/** RA12: the wait named when too many codes wait or too many were wrong. */
export const PAIR_RETRY_SECONDS = 600;

/** RA2: the largest JSON body of a pairing or device route (a receipt with 4000-character texts fits). */
export const JSON_BODY_MAX_BYTES = 64 * 1024;

// --- Computers (docs/relay-api.md#ra13, #ra24) ---

/** RA24: "online" needs a sign of life within this window as well as an open socket. */
export const ONLINE_WINDOW_MS = 11 * MINUTE;
/** RA30: the last-seen time is written at most this often per socket (pings arrive every 5 minutes). */
export const LAST_SEEN_WRITE_MS = MINUTE;
/** RA13: a computer idle this long is removed from the relay. */
export const IDLE_DEVICE_MS = 30 * DAY;
/** RA25: another computer may remove one that has not connected for this long. */
export const REMOVABLE_AFTER_MS = 7 * DAY;

// --- Agent keys (docs/relay-api.md#ra22) ---

/** RA22: active keys per computer. */
export const MAX_ACTIVE_KEYS = 20;
/** RA22: a key's `lastUsedAt` is written at most this often. */
export const KEY_LAST_USED_WRITE_MS = 10 * MINUTE;

// --- Agents' limits (docs/relay-api.md#ra50, #ra51) ---

/** RA50: the window of the per-key notification limit. */
export const RATE_WINDOW_MS = 10 * MINUTE;
/** RA51: receipt and reply reads per key per 10 minutes. */
export const READS_PER_WINDOW = 600;
/** RA51: the wait named when the read limit is hit. */
export const READ_RETRY_SECONDS = 60;

// --- Notifications (docs/relay-api.md#ra44 to #ra47) ---

/** RA44: a sender's notificationId identifies one notification for 24 hours; receipts are readable as long. */
export const NOTIFICATION_ID_WINDOW_MS = DAY;
/** RA45: a notification is deleted this long after its queue lifetime ran out. */
export const NOTE_DELETE_GRACE_MS = HOUR;
/** RA47: the longest wait of `GET /v1/replies/{id}?wait=`. */
export const MAX_REPLY_WAIT_SECONDS = 60;

// --- Voice replies (docs/relay-api.md#ra21, #ra48) ---

/** RA48: a download link works this long. */
export const AUDIO_LINK_SECONDS = 3600;
/** RA21: a recording is kept 7 days. */
export const AUDIO_KEEP_MS = 7 * DAY;

// --- Reply events and webhooks (docs/relay-api.md#ra200 to #ra212) ---

/** RA205: subscriptions per connector (agent key or OAuth connection). */
export const MAX_SUBSCRIPTIONS_PER_KEY = 5;
/** RA203: a callback URL's length. */
export const MAX_CALLBACK_URL_CHARS = 2048;
/** RA204: the bytes a webhook secret's base64 stands for. */
export const WEBHOOK_SECRET_BYTES = { min: 24, max: 64 } as const;
/** RA205: `refreshBefore` is this far ahead: a subscription never needs renewing. */
export const SUBSCRIPTION_REFRESH_MS = 3650 * DAY;
/** RA208: a subscribe's `cursor` replays at most this many events. */
export const MAX_REPLAY_EVENTS = 100;
/** RA208: reply events are kept this long (what a cursor can replay). */
export const EVENT_KEEP_MS = 30 * DAY;
/** RA206, RA209: a webhook request (challenge or delivery) gets this long for everything. */
export const WEBHOOK_TIMEOUT_MS = 10 * SECOND;
/** RA209: how much of a callback's answer is read (a challenge's echo is far smaller). */
export const WEBHOOK_ANSWER_MAX_BYTES = 64 * 1024;
/** RA210: retries wait this long after the first failure, doubling up to the maximum. */
export const RETRY_WAIT_MS = { first: MINUTE, max: HOUR } as const;
/** RA210: an event is given up after this many attempts, or this long after it was queued. */
export const MAX_DELIVERY_ATTEMPTS = 8;
export const MAX_DELIVERY_AGE_MS = DAY;
/**
 * How long a relay process's claim on an event it is delivering holds: three times what a delivery can take (its
 * 10-second deadline, with room for the outcome's transaction), so no other process sends it meanwhile; the
 * events of a process that died are sent by another this long after (kept short: the webhook waits for them).
 */
export const DELIVERY_CLAIM_MS = 3 * WEBHOOK_TIMEOUT_MS;
/** Deliveries one relay process makes at once (each to a different subscription). */
export const DELIVERIES_IN_FLIGHT = 32;

// --- Housekeeping (docs/relay.md, "Several nodes": background work) ---

/** Daily usage counters are kept a week. */
export const USAGE_KEEP_DAYS = 7;
/** How often each background task runs (each runs on one node at a time). */
export const TASK_INTERVALS_MS = {
  expireNotes: 5 * MINUTE,
  deleteOld: HOUR,
  pruneDevices: DAY,
  /** docs/relay-api.md#ra112: connector approvals past their 10 minutes expire within this. */
  oauthSweep: 30 * SECOND,
} as const;

export const TIME = { SECOND, MINUTE, HOUR, DAY } as const;
