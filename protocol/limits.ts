// The defaults and limits of the API's wire contract, each with the rule of docs/api/ that states it. A limit that is
// an implementation detail of one module (how long a request may take to arrive, how many banners a restart
// restores, the sizes of a bundle, the variables a program receives, the ranges of the template model) is kept in
// that module. docs/api/limits.md lists both kinds, with the file that holds each.

/** docs/api/README.md#g2: when the port file is missing the default port is 48617. */
export const DEFAULT_PORT = 48617;

/** docs/api/README.md#g12: body over 1 MiB (1,048,576) gives 413. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** docs/api/README.md#g14: a request head over 64 KiB is refused. */
export const MAX_HEADER_BYTES = 64 * 1024;

/** docs/api/README.md#g3: 64 lowercase hex characters (32 random bytes). */
export const TOKEN_BYTES = 32;

/** docs/api/apps.md#a1: at most 200 registered apps. */
export const MAX_APPS = 200;

/** docs/api/keys.md#k2: at most 200 sending keys, one app each (as many as there may be apps). */
export const MAX_SEND_KEYS = 200;

/** docs/api/scheduled.md#sc1: at most 1000 notifications wait for their time at once. */
export const MAX_SCHEDULED = 1000;

/** docs/api/keys.md#k1: a sending key's name, at most 128 bytes (an app id's length). */
export const MAX_SEND_KEY_NAME_BYTES = 128;

/** docs/api/notifications.md#n18: at most 8 buttons per notification. */
export const MAX_BUTTONS = 8;

/** docs/api/notifications.md#n9: an image is up to 10 MB, of the listed formats only. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** How long an https image may take to arrive before the notification goes on without it (our choice, docs/api-choices.md). */
export const IMAGE_DOWNLOAD_TIMEOUT_MS = 5_000;

/** docs/api/history.md#h9: History keeps 1000 records per app by default (setting historyCapPerApp). */
export const DEFAULT_HISTORY_CAP_PER_APP = 1000;

/** docs/api/history.md#h9: `historyCapPerApp` 1-100000. */
export const HISTORY_CAP_RANGE = { min: 1, max: 100_000 } as const;

/** docs/api/history.md#get-v1-history: `limit` (integer, optional), default 50. */
export const DEFAULT_HISTORY_LIMIT = 50;

/** docs/api/history.md#get-v1-history-search: `limit` (integer, optional), up to 1000, default 50. */
export const MAX_SEARCH_LIMIT = 1000;

/** docs/api/notifications.md#n19: a follow-up's `after` is 5 to 604800 seconds. */
export const FOLLOW_UP_AFTER_SECONDS = { min: 5, max: 604_800 } as const;

/** docs/api/voice.md#v3: speech speed 0.5 to 2.0 (default 1.0, #v4). */
export const SPEECH_SPEED = { min: 0.5, max: 2.0 } as const;

/** docs/api/voice.md#v3: a voice id is 1-64 ASCII letters, digits, `_`, `-`, `.`. */
export const VOICE_ID_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/** docs/api/voice.md#v3: a language code is 1-16 ASCII letters, `-`, `_`. */
export const LANG_PATTERN = /^[A-Za-z_-]{1,16}$/;

/** docs/api/notifications.md#the-notification-object: `maxBodyLines` 1-30. */
export const MAX_BODY_LINES_RANGE = { min: 1, max: 30 } as const;

/**
 * docs/api/notifications.md#n33: UTF-8 bytes per field of a notification; over one is 413, and the message names
 * the field.
 */
export const NOTIFY_FIELD_BYTES = {
  app: 128,
  id: 256,
  title: 1024,
  subtitle: 1024,
  body: 16_384,
  image: 262_144,
  url: 2048,
  sound: 2048,
  priority: 2048,
  template: 2048,
  accentColor: 2048,
  group: 2048,
  audio: 262_144,
  'reminder.title': 1024,
  'reminder.due': 2048,
  metadata: 65_536,
  buttons: 65_536,
} as const;

/** docs/api/apps.md#post-v1-register: registration limits (app 128 B, names and URLs 2048 B, icon 256 KB). */
export const REGISTER_FIELD_BYTES = {
  app: 128,
  appName: 2048,
  bundleId: 2048,
  callbackURL: 2048,
  icon: 262_144,
  'defaults.sound': 1024,
} as const;

/** docs/api/apps.md#post-v1-register: a registered default timeout is 0 (never) to 86400 seconds. */
export const REGISTER_TIMEOUT_RANGE = { min: 0, max: 86_400 } as const;

/** docs/api/replies.md#r3: the reply queue per app keeps the 200 most recent replies. */
export const MAX_REPLIES_PER_APP = 200;

/** docs/api/replies.md#r1: a reply is trimmed and cut at 4000 UTF-8 bytes, at a character boundary. */
export const MAX_REPLY_BYTES = 4000;

/** docs/api/notifications.md#post-v1-snooze: snooze `minutes` greater than 0, at most 43200. */
export const SNOOZE_MAX_MINUTES = 43_200;

/** docs/api/replies.md#get-v1-replies-wait: the wait `timeout` is 1 to 300 seconds, default 60. */
export const WAIT_TIMEOUT_SECONDS = { min: 1, max: 300, default: 60 } as const;

/** docs/api/replies.md#r12: a callback attempt may take 5 seconds, with one retry. */
export const CALLBACK_ATTEMPT_MS = 5_000;

/** docs/api/replies.md#r12: the retry follows 0.75 s after the first attempt failed. */
export const CALLBACK_RETRY_DELAY_MS = 750;

/** docs/api/actions.md#x7: a command or script may run 30 s; then SIGTERM, and SIGKILL 2 s later. */
export const ACTION_TIME_LIMIT_MS = 30_000;
export const ACTION_KILL_GRACE_MS = 2_000;

/** docs/api/actions.md#x7: at most 64 KB of an action's output go to actions.log; the log keeps one backup. */
export const ACTION_OUTPUT_BYTES = 64 * 1024;
export const ACTION_LOG_BYTES = 1024 * 1024;

/**
 * docs/api/voice.md#v2: the first 2000 characters are spoken; docs/api/notifications.md#n38: a speak record's title is
 * the first 80.
 */
export const SPOKEN_TEXT_CHARS = 2000;
export const SPEAK_TITLE_CHARS = 80;

/** docs/api/notifications.md#n32: an audio message is at most 20 MB. */
export const MAX_AUDIO_BYTES = 20 * 1024 * 1024;

/** docs/api/voice.md#v5: speech never overlaps; at most 20 wait; the newest 300 audio files are kept. */
export const MAX_SPEECH_QUEUE = 20;
export const SPEECH_FILES_KEPT = 300;

/** docs/api/templates.md#t21, #t22: sizes and counts of a manifest (all reported as 400 `invalid manifest: ...`). */
export const MANIFEST_LIMITS = {
  appBytes: 128,
  appNameBytes: 2048,
  iconBytes: 256 * 1024,
  defaultTemplateBytes: 2048,
  fields: 200,
  actions: 32,
  assets: 32,
  fieldKeyBytes: 128,
  sampleBytes: 16 * 1024,
  sampleItems: 100,
  assetPathBytes: 2048,
} as const;

/** docs/api/templates.md#t22: manifests and apps, 200 each; a new app beyond that gets 429. */
export const MAX_MANIFESTS = 200;

/** docs/api/templates.md#t5: a template file over 2 MB is skipped when the templates are loaded; saving does not check it. */
export const TEMPLATE_FILE_BYTES = 2 * 1024 * 1024;

/** docs/api/templates.md#t28: an app's asset folder holds files of at most 10 MB, 32 Rive files and 100 images. */
export const ASSET_LIMITS = { bytes: 10 * 1024 * 1024, riveFiles: 32, images: 100 } as const;

/** How long `shortcuts list` may take before GET /v1/shortcuts answers 504. */
export const SHORTCUTS_TIMEOUT_MS = 10_000;

/** docs/api/settings.md#s1: the `port` setting is an integer from 1024 to 65535. */
export const PORT_SETTING_RANGE = { min: 1024, max: 65_535 } as const;

/** docs/api/settings.md#get-v1-settings: the History cap choices offered (GET /v1/settings `options`). */
export const HISTORY_CAP_CHOICES = [100, 250, 500, 1000, 2500, 5000] as const;

/** docs/api/settings.md#s1: `voiceDefault` is at most 64 bytes, `voiceLang` at most 16. */
export const VOICE_DEFAULT_BYTES = 64;
export const VOICE_LANG_BYTES = 16;

/** docs/api/voice.md#v4: speech is spoken in `en-us` at speed 1.0 unless told otherwise. */
export const DEFAULT_VOICE_LANG = 'en-us';
export const DEFAULT_VOICE_SPEED = 1.0;

/** docs/api/settings.md#s8: at most 24 quiet-hour windows. */
export const MAX_QUIET_WINDOWS = 24;

/** docs/api/settings.md#s9: an ad hoc quiet period lasts more than 0 and at most 10080 minutes (a week). */
export const QUIET_AD_HOC_MAX_MINUTES = 10_080;

/** docs/api/settings.md#s15: the end-of-window summary names the first 4 titles ("A, B, C, D, and 2 more"). */
export const QUIET_SUMMARY_TITLES = 4;

/** A quiet-hour window's `id` is at most 128 bytes (our choice, docs/settings.md; docs/api/settings.md#s8). */
export const QUIET_WINDOW_ID_BYTES = 128;

/** docs/api/voice.md#get-v1-voice: the installation's log shows its last 8 lines. */
export const VOICE_INSTALL_LOG_LINES = 8;

/** Previews (POST and GET /v1/preview): the picture's scale, and how many cards a stack shows. */
export const SCALE_RANGE = { min: 1, max: 3, default: 2 } as const;
export const STACK_COUNT_RANGE = { min: 1, max: 99, default: 1 } as const;
