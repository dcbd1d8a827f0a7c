// The OAuth server's limits and lifetimes (docs/relay-api.md#ra100 to #ra113). REGISTER_PER_HOUR is a deployment
// variable (relay/config.ts); the rest are fixed.

import { TIME } from '../limits.js';

/** RA101: clients kept; an older one registers again. */
export const MAX_CLIENTS = 200;
/** RA101: the window of REGISTER_PER_HOUR. */
export const REGISTER_WINDOW_MS = TIME.HOUR;
/** RA101: redirect addresses per client, and the length of each. */
export const MAX_REDIRECT_URIS = 10;
export const MAX_REDIRECT_URI_CHARS = 500;
/** RA101: the length of a client's name, and the name of one that gives none. */
export const MAX_CLIENT_NAME_CHARS = 60;
export const DEFAULT_CLIENT_NAME = 'An app';

/** RA103: a client metadata document: its size, the time to fetch it, how long it is kept (bounds of max-age). */
export const CLIENT_DOCUMENT_MAX_BYTES = 5 * 1024;
export const CLIENT_DOCUMENT_TIMEOUT_MS = 5 * TIME.SECOND;
export const CLIENT_DOCUMENT_CACHE_MS = { default: TIME.HOUR, min: 5 * TIME.MINUTE, max: TIME.DAY } as const;
/** RA103: the longest client id URL. */
export const MAX_CLIENT_ID_URL_CHARS = 500;

/** RA104: an approval request (either flow) waits this long for the person. */
export const REQUEST_TTL_MS = 10 * TIME.MINUTE;
/** RA104: approval requests waiting on one computer at once, and begun per hour. */
export const MAX_PENDING_REQUESTS = 3;
export const MAX_REQUESTS_PER_HOUR = 12;
/** RA104: `state` is returned as sent; longer than this is refused. */
export const MAX_STATE_CHARS = 1024;
/** RA105: the consent page asks for the request's status this often (twice as long after a failed look). */
export const CONSENT_POLL_MS = 2 * TIME.SECOND;
/** RA106: an approved code must be exchanged within this window (once exchanged, it may be again). */
export const CODE_EXCHANGE_MS = 5 * TIME.MINUTE;
/** RA106: the PKCE verifier (unreserved characters). */
export const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** RA104: the PKCE challenge: a base64url SHA-256. */
export const CODE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
/** RA106: what `expires_in` says; tokens never expire. */
export const EXPIRES_IN_SECONDS = 315_360_000;
/** RA106: tokens of each kind kept per connector; older ones are dropped. */
export const MAX_TOKENS_PER_CONNECTOR = 50;
/** RA108: the device flow's polling interval, and what each `slow_down` adds to it. */
export const DEVICE_POLL_INTERVAL_SECONDS = 5;
/** RA108: the wait named when too many device-flow requests are waiting or were begun. */
export const DEVICE_LIMIT_RETRY_SECONDS = 60;
/** RA108: user codes: 8 consonants without look-alikes, shown XXXX-XXXX. */
export const USER_CODE_ALPHABET = 'BCDFGHJKMNPQRTWXZ';
export const USER_CODE_LENGTH = 8;
/** RA111: what `GET /v1/device/consents` lists: the last day's requests, newest first, at most 20. */
export const CONSENT_LIST_WINDOW_MS = TIME.DAY;
export const CONSENT_LIST_MAX = 20;
