// What an agent may send through the relay (docs/relay-api.md#ra41 to #ra44): a whitelist of fields, each with
// its rule, and the cleaned payload that reaches the computer. Pure functions, no I/O: the relay applies them
// to what agents send, and the desktop client can apply them again to what it receives.

import { forbiddenFields, invalidRequest, notAnObject, tooLarge } from './errors.js';
import {
  ICON_ALLOWANCE_BYTES,
  LANG_PATTERN,
  MAX_DURATION_CHARS,
  MAX_ICON_BYTES,
  MAX_SPEAK_CHARS,
  MAX_STATUS_CHARS,
  MAX_TAG_CHARS,
  MAX_TAGS,
  MAX_URL_CHARS,
  NOTIFICATION_ID_PATTERN,
  NOTIFY_TEXT_LIMITS,
  SHOW_AT_MAX_AHEAD_MS,
  SOUND_PATTERN,
  SPEED_RANGE,
  TIMEOUT_SECONDS_RANGE,
  VOICE_PATTERN,
} from './limits.js';

export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export const PRESENTATIONS = ['banner', 'voice', 'both'] as const;
/** RA44c: what taking back a notification does on the computer (ntfy's clear and delete). */
export const WITHDRAWALS = ['clear', 'delete'] as const;

export interface SpeakObject {
  text?: string;
  voice?: string;
  speed?: number;
  lang?: string;
}

/** The cleaned notification the computer receives: only fields that were present, plus `expectReply`. */
export interface NotifyPayload {
  title: string;
  subtitle?: string;
  body?: string;
  project?: string;
  session?: string;
  task?: string;
  tool?: string;
  group?: string;
  status?: string;
  duration?: string;
  link?: string;
  priority?: (typeof PRIORITIES)[number];
  notificationId?: string;
  /** RA44a: notifications of one key with the same collapseId are one notification on the computer. */
  collapseId?: string;
  /** RA44b: when the computer shows it (ISO, UTC); the computer keeps it until then. */
  showAt?: string;
  /** RA44c: instead of a notification, takes back the one with this collapseId (its title is then empty). */
  withdraw?: (typeof WITHDRAWALS)[number];
  expectReply: boolean;
  allowVoiceReply?: boolean;
  persistent?: boolean;
  timeoutSeconds?: number;
  sound?: string;
  presentation?: (typeof PRESENTATIONS)[number];
  icon?: string;
  imageURL?: string;
  tags?: string[];
  /** `true`, an object, or `false` when the sender turned speech off explicitly (RA43). */
  speak?: true | false | SpeakObject;
}

/** Every key an agent may send (RA41); anything else is refused with `forbidden_fields`. */
export const NOTIFY_FIELDS = [
  'title',
  'subtitle',
  'body',
  'project',
  'session',
  'task',
  'tool',
  'group',
  'status',
  'duration',
  'link',
  'priority',
  'notificationId',
  'collapseId',
  'showAt',
  'withdraw',
  'expectReply',
  'allowVoiceReply',
  'persistent',
  'timeoutSeconds',
  'sound',
  'presentation',
  'icon',
  'imageURL',
  'tags',
  'speak',
  'voice',
  'speed',
] as const;

const SPEAK_KEYS = ['text', 'voice', 'speed', 'lang'] as const;

/**
 * Keys a relayed notification must never carry, named in the refusal (RA41): they would run something on the
 * computer, add buttons or callbacks, or change how Notifier presents things. They are refused like any other
 * unknown key; the message only says why these in particular.
 */
const DANGEROUS_FIELDS = new Set([
  'command',
  'script',
  'shortcut',
  'callback',
  'webhook',
  'buttons',
  'actions',
  'actionIds',
  'audio',
  'template',
  'templateName',
  'layout',
  'app',
  'appId',
  'metadata',
  'accentColor',
  'snooze',
  'reminder',
  'path',
  'exec',
  'run',
  'open',
  'openApp',
]);

/**
 * Keys of the local API that a relayed notification takes under another name (RA41): the refusal says what to send
 * instead. A picture or a link travels as an https address, never as a path on the computer.
 */
const FIELDS_SENT_INSTEAD: Readonly<Record<string, string>> = {
  image: 'send imageURL instead, the https address of the picture',
  url: 'send link instead, an https address',
};

const ALLOWED = new Set<string>(NOTIFY_FIELDS);
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const DATA_ICON = /^data:image\/(png|jpeg|gif|webp);base64,([A-Za-z0-9+/]*={0,2})$/;

/**
 * RA40: the body may exceed `maxBodyBytes` only by a data-URL icon: without the icon's text it must still fit.
 * `bodyBytes` is the size of the body as received; `parsed` is that body parsed.
 */
export function checkNotifyBodySize(bodyBytes: number, parsed: unknown, maxBodyBytes: number): void {
  if (bodyBytes <= maxBodyBytes) return;
  const icon = isObject(parsed) && typeof parsed.icon === 'string' ? Buffer.byteLength(parsed.icon) : 0;
  if (bodyBytes - icon > maxBodyBytes) throw tooLarge('the notification without its icon', maxBodyBytes);
}

/** RA40: the most a notify body may weigh before it is parsed (the limit plus the icon allowance). */
export const maxNotifyRequestBytes = (maxBodyBytes: number): number => maxBodyBytes + ICON_ALLOWANCE_BYTES;

/**
 * RA44b: a `showAt` at most SHOW_AT_MAX_AHEAD_MS after `now` (one already past shows at once). Checked by the relay
 * against its clock when an agent sends; not by the computer, for which the time has moved on.
 */
export function checkShowAt(payload: NotifyPayload, now: number): void {
  if (payload.showAt !== undefined && Date.parse(payload.showAt) - now > SHOW_AT_MAX_AHEAD_MS) {
    throw invalidRequest(`showAt: at most ${SHOW_AT_MAX_AHEAD_MS / 86_400_000} days ahead`, ['showAt']);
  }
}

/** Checks an agent's notification against the whitelist and the field rules; returns the cleaned payload. */
export function cleanNotification(input: unknown): NotifyPayload {
  if (!isObject(input)) throw notAnObject();
  refuseUnknownKeys(input);
  const problems: Problem[] = [];
  const payload = readFields(input, problems);
  if (problems.length > 0) {
    throw invalidRequest(
      problems.map((p) => `${p.field}: ${p.rule}`).join('; '),
      problems.map((p) => p.field),
    );
  }
  return payload;
}

interface Problem {
  field: string;
  rule: string;
}

function refuseUnknownKeys(input: Record<string, unknown>): void {
  const refused = Object.keys(input).filter((key) => !ALLOWED.has(key));
  if (isObject(input.speak))
    refused.push(
      ...Object.keys(input.speak)
        .filter((key) => !(SPEAK_KEYS as readonly string[]).includes(key))
        .map((key) => `speak.${key}`),
    );
  if (refused.length === 0) return;
  const reasons = refused.filter((key) => Object.hasOwn(FIELDS_SENT_INSTEAD, key)).map((key) => `${key}: ${FIELDS_SENT_INSTEAD[key]}`);
  const dangerous = refused.filter((key) => DANGEROUS_FIELDS.has(key));
  if (dangerous.length > 0)
    reasons.push(
      `${dangerous.join(', ')}: a relayed notification can never run anything, call back, carry buttons or change how the computer shows things`,
    );
  const why = reasons.length > 0 ? ` (${reasons.join('; ')})` : '';
  throw forbiddenFields(refused, `fields not accepted: ${refused.join(', ')}${why}. Accepted: ${NOTIFY_FIELDS.join(', ')}`);
}

/** RA44c: what a withdrawal carries besides `withdraw`: what it takes back, and its own id. */
const WITHDRAWAL_FIELDS = new Set(['withdraw', 'collapseId', 'notificationId']);

function readFields(input: Record<string, unknown>, problems: Problem[]): NotifyPayload {
  const reader = new FieldReader(input, problems);
  if (input.withdraw !== undefined && input.withdraw !== null) return readWithdrawal(input, reader, problems);
  const title = reader.text('title', NOTIFY_TEXT_LIMITS.title);
  if (title === undefined && !problems.some((p) => p.field === 'title')) problems.push({ field: 'title', rule: 'required' });
  const payload: NotifyPayload = { title: title ?? '', expectReply: false };
  const put = <K extends keyof NotifyPayload>(key: K, value: NotifyPayload[K] | undefined): void => {
    if (value !== undefined) payload[key] = value;
  };
  put('subtitle', reader.text('subtitle', NOTIFY_TEXT_LIMITS.subtitle));
  put('body', reader.text('body', NOTIFY_TEXT_LIMITS.body));
  for (const field of ['project', 'session', 'task', 'tool', 'group'] as const) put(field, reader.text(field, NOTIFY_TEXT_LIMITS[field]));
  put('status', reader.status());
  put('duration', reader.duration());
  put('link', reader.httpsURL('link'));
  put('priority', reader.oneOf('priority', PRIORITIES));
  put('notificationId', reader.pattern('notificationId', NOTIFICATION_ID_PATTERN, 'letters, digits and ._:- only, 1 to 128 characters'));
  put('collapseId', reader.pattern('collapseId', NOTIFICATION_ID_PATTERN, 'letters, digits and ._:- only, 1 to 128 characters'));
  put('showAt', reader.time('showAt'));
  payload.expectReply = reader.boolean('expectReply') ?? false;
  put('allowVoiceReply', reader.boolean('allowVoiceReply'));
  put('persistent', reader.boolean('persistent'));
  put('timeoutSeconds', reader.number('timeoutSeconds', TIMEOUT_SECONDS_RANGE));
  put('sound', reader.pattern('sound', SOUND_PATTERN, 'a sound name (letters, digits, space and ._-, up to 40 characters), never a path'));
  put('presentation', reader.oneOf('presentation', PRESENTATIONS));
  put('icon', reader.icon());
  put('imageURL', reader.httpsURL('imageURL'));
  put('tags', reader.tags());
  put('speak', reader.speech(payload.presentation));
  return payload;
}

/** RA44c: a withdrawal names what it takes back, by its collapseId, and carries nothing of a notification. */
function readWithdrawal(input: Record<string, unknown>, reader: FieldReader, problems: Problem[]): NotifyPayload {
  const withdraw = reader.oneOf('withdraw', WITHDRAWALS);
  const collapseId = reader.pattern('collapseId', NOTIFICATION_ID_PATTERN, 'letters, digits and ._:- only, 1 to 128 characters');
  const notificationId = reader.pattern('notificationId', NOTIFICATION_ID_PATTERN, 'letters, digits and ._:- only, 1 to 128 characters');
  if (collapseId === undefined && !problems.some((p) => p.field === 'collapseId')) {
    problems.push({ field: 'collapseId', rule: 'required with withdraw: the collapseId of the notification to take back' });
  }
  for (const [field, value] of Object.entries(input)) {
    if (!WITHDRAWAL_FIELDS.has(field) && !isEmpty(value)) {
      problems.push({ field, rule: 'not sent with withdraw, which takes a notification back and shows nothing' });
    }
  }
  return {
    title: '',
    expectReply: false,
    ...(withdraw !== undefined ? { withdraw } : {}),
    ...(collapseId !== undefined ? { collapseId } : {}),
    ...(notificationId !== undefined ? { notificationId } : {}),
  };
}

/** A field left empty: absent, an empty text (RA42), or `false` (a withdrawal asks for no reply either). */
const isEmpty = (value: unknown): boolean =>
  value === undefined || value === null || value === false || (typeof value === 'string' && value.trim() === '');

/** Reads one field at a time; a field that breaks its rule is noted as a problem and left out. */
class FieldReader {
  constructor(
    private readonly input: Record<string, unknown>,
    private readonly problems: Problem[],
  ) {}

  private fail(field: string, rule: string): undefined {
    this.problems.push({ field, rule });
    return undefined;
  }

  /** A trimmed string; empty counts as absent. */
  text(field: string, maxChars: number, value: unknown = this.input[field]): string | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') return this.fail(field, 'must be a string');
    const trimmed = value.trim();
    if (trimmed === '') return undefined;
    if (trimmed.length > maxChars) return this.fail(field, `at most ${maxChars} characters`);
    return trimmed;
  }

  pattern(field: string, pattern: RegExp, rule: string, value: unknown = this.input[field]): string | undefined {
    const text = this.text(field, Number.MAX_SAFE_INTEGER, value);
    if (text === undefined) return undefined;
    return pattern.test(text) ? text : this.fail(field, rule);
  }

  oneOf<T extends string>(field: string, values: readonly T[]): T | undefined {
    const text = this.text(field, Number.MAX_SAFE_INTEGER);
    if (text === undefined) return undefined;
    return (values as readonly string[]).includes(text) ? (text as T) : this.fail(field, `one of ${values.join(', ')}`);
  }

  boolean(field: string): boolean | undefined {
    const value = this.input[field];
    if (value === undefined || value === null) return undefined;
    return typeof value === 'boolean' ? value : this.fail(field, 'must be true or false');
  }

  number(field: string, range: { min: number; max: number }, value: unknown = this.input[field]): number | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < range.min || value > range.max) {
      return this.fail(field, `a number from ${range.min} to ${range.max}`);
    }
    return value;
  }

  /** A moment written as ISO 8601 with its zone (`2026-12-07T09:00:00Z`, `...+01:00`); kept in UTC. */
  time(field: string): string | undefined {
    const text = this.text(field, Number.MAX_SAFE_INTEGER);
    if (text === undefined) return undefined;
    const at = ISO_TIME.test(text) ? Date.parse(text) : Number.NaN;
    return Number.isNaN(at) ? this.fail(field, 'a time such as 2026-12-07T09:00:00Z (with its zone)') : new Date(at).toISOString();
  }

  status(): string | undefined {
    const text = this.pattern('status', /^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only');
    if (text === undefined) return undefined;
    return text.length > MAX_STATUS_CHARS ? this.fail('status', `at most ${MAX_STATUS_CHARS} characters`) : text.toLowerCase();
  }

  duration(): string | undefined {
    const value = this.input.duration;
    if (typeof value === 'number') return Number.isFinite(value) ? String(value) : this.fail('duration', 'a finite number or a short text');
    return this.text('duration', MAX_DURATION_CHARS);
  }

  /** An absolute https address with a host, at most 2048 characters; returned normalised. */
  httpsURL(field: string, value: unknown = this.input[field]): string | undefined {
    const text = this.text(field, MAX_URL_CHARS, value);
    if (text === undefined) return undefined;
    const parsed = parseURL(text);
    if (!parsed || parsed.protocol !== 'https:' || parsed.hostname === '') return this.fail(field, 'an absolute https URL');
    return parsed.href.length > MAX_URL_CHARS ? this.fail(field, `at most ${MAX_URL_CHARS} characters`) : parsed.href;
  }

  /** RA42: a PNG, JPEG, GIF or WebP as a base64 data URL of at most 256 KiB, or an https URL. */
  icon(): string | undefined {
    const value = this.input.icon;
    if (typeof value === 'string' && value.trim().startsWith('data:')) {
      const match = DATA_ICON.exec(value.trim());
      if (!match) return this.fail('icon', 'data:image/png, jpeg, gif or webp;base64,...');
      if (Buffer.byteLength(match[2]!, 'base64') > MAX_ICON_BYTES) return this.fail('icon', `at most ${MAX_ICON_BYTES} bytes once decoded`);
      return value.trim();
    }
    return this.httpsURL('icon');
  }

  tags(): string[] | undefined {
    const value = this.input.tags;
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value) || value.length > MAX_TAGS) return this.fail('tags', `a list of at most ${MAX_TAGS} strings`);
    const tags: string[] = [];
    for (const tag of value) {
      if (typeof tag !== 'string' || tag.trim() === '' || tag.trim().length > MAX_TAG_CHARS || tag.includes(',')) {
        return this.fail('tags', `each tag a string of 1 to ${MAX_TAG_CHARS} characters without commas`);
      }
      if (!tags.includes(tag.trim())) tags.push(tag.trim());
    }
    return tags.length > 0 ? tags : undefined;
  }

  /**
   * RA43: `speak` is `true`, a text, or an object; top-level `voice` and `speed` merge into it (values inside
   * `speak` win) and, like `presentation` voice or both, turn speech on unless `speak: false` was sent.
   */
  speech(presentation: NotifyPayload['presentation']): NotifyPayload['speak'] {
    const raw = this.input.speak;
    if (raw === false) return false;
    let speak: true | SpeakObject | undefined;
    if (raw === true) speak = true;
    else if (typeof raw === 'string') {
      const text = this.text('speak', MAX_SPEAK_CHARS);
      speak = text === undefined ? true : { text };
    } else if (isObject(raw)) speak = this.speakObject(raw);
    else if (raw !== undefined && raw !== null) return this.fail('speak', 'true, false, a text or an object with text, voice, speed, lang');
    const voice = this.pattern('voice', VOICE_PATTERN, 'letters, digits and _ only, up to 40 characters');
    const speed = this.number('speed', SPEED_RANGE);
    if (voice !== undefined || speed !== undefined) {
      const inner = typeof speak === 'object' ? speak : {};
      speak = { ...(voice !== undefined && { voice }), ...(speed !== undefined && { speed }), ...inner };
    }
    if (speak === undefined && (presentation === 'voice' || presentation === 'both')) speak = true;
    return speak;
  }

  private speakObject(raw: Record<string, unknown>): SpeakObject | true {
    const speak: SpeakObject = {};
    const text = this.text('speak.text', MAX_SPEAK_CHARS, raw.text);
    const voice = this.pattern('speak.voice', VOICE_PATTERN, 'letters, digits and _ only, up to 40 characters', raw.voice);
    const speed = this.number('speak.speed', SPEED_RANGE, raw.speed);
    const lang = this.pattern('speak.lang', LANG_PATTERN, 'a language tag such as en or pt-BR', raw.lang);
    if (text !== undefined) speak.text = text;
    if (voice !== undefined) speak.voice = voice;
    if (speed !== undefined) speak.speed = speed;
    if (lang !== undefined) speak.lang = lang;
    return Object.keys(speak).length > 0 ? speak : true;
  }
}

function parseURL(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
