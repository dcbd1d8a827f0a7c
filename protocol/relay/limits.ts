// The relay's limits that both sides of the wire apply: the relay refuses what breaks them, and the desktop
// client (daemon/core/relay/) checks the same numbers before it sends. Each says which rule of docs/relay-api.md it is.
// The relay's own limits (pairing, budgets, lifetimes) are in relay/limits.ts.

const KiB = 1024;
const MiB = 1024 * KiB;

// --- The device stream (docs/relay-api.md#ra30) ---

/** A text frame larger than this, from the computer, is ignored (RA30). */
export const MAX_FRAME_BYTES = 16 * KiB;

/** The computer's keep-alive: the text `ping` every this many seconds (RA30; the desktop's default). */
export const PING_INTERVAL_SECONDS = 300;

// --- Receipts and replies (docs/relay-api.md#ra20) ---

/** Reply text and transcript: at most this many characters after trimming (RA20). */
export const MAX_REPLY_CHARS = 4000;

/** `durationSeconds` of a voice reply: 0 to this (RA20). */
export const MAX_REPLY_SECONDS = 600;

/** A `suppressed` receipt's reason; anything else is stored as `suppressed` (RA20). */
export const SUPPRESS_REASON_PATTERN = /^[a-z0-9-]{1,40}$/;

// --- Voice-reply audio (docs/relay-api.md#ra21) ---

/** One recording: at most 1 MiB (RA21). */
export const MAX_AUDIO_BYTES = 1 * MiB;

/** The Content-Types an upload may have; the relay serves the file as `audio/mp4` (RA21). */
export const AUDIO_CONTENT_TYPES = ['audio/mp4', 'audio/x-m4a', 'audio/aac'] as const;

// --- Pairing (docs/relay-api.md#ra10) ---

/** A computer's name: longer names are cut to this many characters (RA10). */
export const MAX_DEVICE_NAME_CHARS = 60;

// --- An agent's notification (docs/relay-api.md#ra40 to #ra44) ---

/** Default of `MAX_BODY_BYTES`: a notify body's size without a data-URL icon (RA40). */
export const DEFAULT_MAX_NOTIFY_BODY_BYTES = 32 * KiB;

/** A `data:image/...` icon: at most this many bytes once decoded (RA42). */
export const MAX_ICON_BYTES = 256 * KiB;

/** What a body may carry on top of MAX_BODY_BYTES for a data-URL icon: its base64 text plus the prefix (RA40). */
export const ICON_ALLOWANCE_BYTES = Math.ceil((MAX_ICON_BYTES * 4) / 3) + 64;

/** Character limits of the notification's text fields (RA42). */
export const NOTIFY_TEXT_LIMITS = {
  title: 200,
  subtitle: 200,
  body: 8000,
  project: 100,
  session: 100,
  task: 100,
  tool: 100,
  group: 100,
} as const;

/** RA42: `status` is a short word. */
export const MAX_STATUS_CHARS = 32;
/** RA42: `duration` as text. */
export const MAX_DURATION_CHARS = 40;
/** RA42: `link`, `imageURL` and an https `icon`. */
export const MAX_URL_CHARS = 2048;
/** RA42: the sender's own id for a notification. */
export const NOTIFICATION_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
/** RA44b: how far ahead `showAt` may be: 3 days, as far as ntfy's delayed publishing goes by default. */
export const SHOW_AT_MAX_AHEAD_MS = 3 * 24 * 60 * 60_000;
/** RA42: `timeoutSeconds`. */
export const TIMEOUT_SECONDS_RANGE = { min: 1, max: 3600 } as const;
/** RA42: a sound is a name, never a path. */
export const SOUND_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,39}$/;
/** RA42: `tags`. */
export const MAX_TAGS = 10;
export const MAX_TAG_CHARS = 32;
/** RA43: spoken text. */
export const MAX_SPEAK_CHARS = 2000;
/** RA43: a voice name. */
export const VOICE_PATTERN = /^[A-Za-z0-9_]{1,40}$/;
/** RA43: speech speed. */
export const SPEED_RANGE = { min: 0.5, max: 2 } as const;
/** RA43: a language tag such as `en` or `pt-BR`. */
export const LANG_PATTERN = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})?$/;
