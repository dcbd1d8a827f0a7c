// ntfy's publishing dialect (docs/api/ntfy.md), read as the body of Notifier's own `POST /v1/notify`,
// so that whatever already publishes to an ntfy server (`curl -d "Backup done" host/backups`, ntfy's CLI, the many
// monitoring tools with an ntfy option) can publish to Notifier instead, unchanged.
//
// This module only translates. The body it makes is checked by the daemon exactly as a `/v1/notify` body would be
// (lengths, links, buttons: docs/api/notifications.md), so nothing here repeats those checks. What it refuses itself
// is what ntfy would refuse (a bad topic, priority or action), what has no meaning for notifications shown on one
// computer's screen (e-mail, phone calls, Android intents, uploaded files), and what Notifier does not do yet
// (delayed delivery). Every refusal carries ntfy's own error code and wire shape, so an ntfy client reads it as it
// would read ntfy's. Pure: no I/O, and the emoji table is given by the caller (the daemon has it from a package,
// which protocol/ may not import).

import { TextDecoder } from 'node:util';
import { actionsFromJSON, actionsFromText, checkActions, isAbsent, isObject, type NtfyAction } from './ntfy-actions.js';
import { escapeMarkdown } from '../markdown.js';
import { deliveryTime } from './delivery-time.js';
import { decodeEncodedWords } from './encoded-words.js';
import { ntfyErrors } from './ntfy-errors.js';

export { NtfyError, ntfyErrorBody, ntfyErrorOf, ntfyErrors, type NtfyErrorBody } from './ntfy-errors.js';

// ---------------------------------------------------------------------------------------------------------------
// The request and what it becomes

export interface NtfyRequest {
  method: 'GET' | 'PUT' | 'POST';
  /** The topic from the path (`/mytopic`, `/mytopic/publish`), or undefined for `POST /` whose JSON body names it. */
  topic: string | undefined;
  /** Header values by lower-case name, read as UTF-8 (a repeated header: its values joined by `, `, as Node does). */
  headers: Readonly<Record<string, string | undefined>>;
  /** The query string's parameters. */
  query: URLSearchParams;
  /** The raw body bytes (empty Buffer when none). */
  body: Buffer;
}

export interface NtfyTranslation {
  topic: string;
  /** When a delayed publish is to show (`delay`, `at`, `in`: docs/api/ntfy.md#nt9); absent: now. */
  deliverAt?: Date;
  /** The `/v1/notify` body: app = topic, and the fields below. */
  notify: Record<string, unknown>;
  /**
   * The fields of ntfy's message JSON answer that came from the request (title, message, priority, tags, click,
   * icon, actions, attachment, content_type, sequence_id), already in ntfy's wire form.
   */
  echo: Record<string, unknown>;
}

/** Gives the emoji of a GitHub-style shortcode (`warning` -> ⚠️), or undefined when the tag is not one. */
export type EmojiLookup = (shortcode: string) => string | undefined;

/** The look-up of a table of short codes (the daemon and the relay load one from a package). */
export const emojiLookup =
  (table: Readonly<Record<string, string>>): EmojiLookup =>
  (name) =>
    Object.hasOwn(table, name) ? table[name] : undefined;

/**
 * Header values by lower-case name, as the dialect reads them (a repeated header: its values joined, as Node does).
 * Node reads a header's bytes as Latin-1; clients send UTF-8 (`curl -H "Title: Grüße"`), so a value with bytes
 * above ASCII is read again as UTF-8.
 */
export function utf8Headers(raw: Readonly<Record<string, string | string[] | undefined>>): Readonly<Record<string, string | undefined>> {
  let headers: Record<string, string | undefined> | undefined;
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined || (typeof value === 'string' && !NOT_ASCII.test(value))) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    (headers ??= { ...(raw as Record<string, string | undefined>) })[name] = NOT_ASCII.test(text)
      ? Buffer.from(text, 'latin1').toString('utf8')
      : text;
  }
  // Most requests are ASCII throughout: then the headers are read as they are, without a copy.
  return headers ?? (raw as Readonly<Record<string, string | undefined>>);
}

const NOT_ASCII = /[^\x00-\x7f]/;

// ---------------------------------------------------------------------------------------------------------------
// ntfy's limits and names

/** ntfy's topic names: 1 to 64 ASCII letters, digits, `-` and `_`. */
const TOPIC_PATTERN = /^[-_A-Za-z0-9]{1,64}$/;

/** ntfy's sequence ids (the id that makes a later message replace an earlier one): the same alphabet and length. */
const SEQUENCE_ID_PATTERN = /^[-_A-Za-z0-9]{1,64}$/;

/**
 * First path segments a topic may not take: ntfy's own (its web app, docs, files, accounts, metrics and API all live
 * beside the topics, so ntfy refuses these names) and the paths at the same level of the daemon (Gotify's, `/app`)
 * and of the cloud relay (its health, readiness, MCP and OAuth routes), so a topic works the same on both.
 */
export const NTFY_RESERVED_TOPICS = [
  ...['v1', 'app', 'docs', 'static', 'file', 'account', 'settings', 'login', 'signup', 'metrics'],
  ...['message', 'version', 'health', 'healthz', 'ready', 'readyz', 'mcp', 'register', 'token', 'revoke', 'authorize', 'activate'],
  'device_authorization',
] as const;

/** ntfy keeps a message for 12 hours by default (its `cache-duration`); its answer says when that ends. */
const CACHE_SECONDS = 12 * 60 * 60;

/** What ntfy makes the message of a publish that has none, so a bare `curl -X POST host/topic` still shows. */
const EMPTY_MESSAGE = 'triggered';

/** The label of the button that opens an attachment Notifier cannot show as its picture. */
const ATTACHMENT_BUTTON_LABEL = 'Open attachment';

/** The name ntfy gives an attachment whose URL names no file. */
const DEFAULT_ATTACHMENT_NAME = 'attachment';

/** File names a banner can show as its picture (docs/api/notifications.md#n9 reads these formats). */
const IMAGE_NAME = /\.(png|jpe?g|gif|webp)$/i;

/**
 * Where each parameter is read, in ntfy's order of preference: headers first (any of these names), then the query
 * string (the same names). ntfy also accepts `x-cache`/`cache`, `x-firebase`/`firebase`,
 * `x-unifiedpush`/`unifiedpush`/`up` and `x-poll-id`/`poll-id`; they steer ntfy's storage and its push to phones,
 * which mean nothing here, so they are read by nobody and ignored.
 */
const PARAMETERS = {
  title: ['x-title', 'title', 't'],
  message: ['x-message', 'message', 'm'],
  priority: ['x-priority', 'priority', 'prio', 'p'],
  tags: ['x-tags', 'tags', 'tag', 'ta'],
  click: ['x-click', 'click'],
  icon: ['x-icon', 'icon'],
  attach: ['x-attach', 'attach', 'a'],
  filename: ['x-filename', 'filename', 'file', 'f'],
  markdown: ['x-markdown', 'markdown', 'md'],
  contentType: ['content-type', 'content_type'],
  actions: ['x-actions', 'actions', 'action'],
  delay: ['x-delay', 'delay', 'x-at', 'at', 'x-in', 'in'],
  sequenceId: ['x-sequence-id', 'sequence-id', 'sid'],
  email: ['x-email', 'x-e-mail', 'email', 'e-mail', 'mail', 'e'],
  call: ['x-call', 'call'],
} as const satisfies Record<string, readonly string[]>;

// ---------------------------------------------------------------------------------------------------------------
// One publish, whichever way it came

/** What a publish request asks, read from headers and query or from JSON; empty texts are absent. */
interface Publish {
  topic: string;
  title?: string;
  message?: string;
  /** 1 to 5; absent is ntfy's default, 3. */
  priority?: number;
  tags: string[];
  click?: string;
  icon?: string;
  attach?: string;
  filename?: string;
  markdown: boolean;
  actions: NtfyAction[];
  delay?: string;
  email?: string;
  call?: string;
  sequenceId?: string;
}

/**
 * Reads one ntfy publish request: `PUT`/`POST`/`GET` on `/<topic>` (parameters in headers, query and body), or
 * `POST /` with ntfy's message JSON. Throws an NtfyError for what ntfy or Notifier refuses.
 */
export function readNtfyPublish(request: NtfyRequest, emoji: EmojiLookup, now = new Date()): NtfyTranslation {
  const publish =
    request.topic === undefined ? besideJSON(publishFromJSON(request.body), request) : publishFromParameters(request, request.topic);
  checkAttachment(publish);
  checkIcon(publish.icon);
  checkSequenceId(publish.sequenceId);
  refuseOtherChannels(publish);
  const translation = translate(publish, emoji);
  return publish.delay === undefined ? translation : { ...translation, deliverAt: deliveryTime(publish.delay, now) };
}

/** What ntfy's clear and delete of a sequence id name (docs/api/ntfy.md#nt10): a topic and a sequence id, checked. */
export function readSequenceTarget(topic: string, sequenceId: string): { topic: string; sequenceId: string } {
  checkTopic(topic);
  checkSequenceId(sequenceId);
  return { topic, sequenceId };
}

/** ntfy's answer to a clear or a delete: the event that says what became of the sequence id's notification. */
export function ntfyEvent(
  target: { topic: string; sequenceId: string },
  event: 'message_clear' | 'message_delete',
  timeSeconds: number,
): Record<string, unknown> {
  return { id: target.sequenceId, time: timeSeconds, event, topic: target.topic, sequence_id: target.sequenceId };
}

/** ntfy's answer to a publish: the message as ntfy would have stored it. */
export function ntfyMessage(translation: NtfyTranslation, id: string, timeSeconds: number): Record<string, unknown> {
  return {
    id,
    time: timeSeconds,
    expires: timeSeconds + CACHE_SECONDS,
    event: 'message',
    topic: translation.topic,
    ...translation.echo,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Reading headers, query and body

function publishFromParameters(request: NtfyRequest, topic: string): Publish {
  checkTopic(topic);
  const read = (names: readonly string[]): string | undefined => parameter(request, names) || undefined;
  const actions = read(PARAMETERS.actions);
  return {
    topic,
    title: read(PARAMETERS.title),
    message: messageOf(request),
    priority: priorityFromText(read(PARAMETERS.priority)),
    tags: splitTags(read(PARAMETERS.tags) ?? ''),
    click: read(PARAMETERS.click),
    icon: read(PARAMETERS.icon),
    attach: read(PARAMETERS.attach),
    filename: read(PARAMETERS.filename),
    markdown: isTrue(read(PARAMETERS.markdown)) || isMarkdownType(read(PARAMETERS.contentType)),
    actions: actions ? actionsFromText(actions) : [],
    delay: read(PARAMETERS.delay),
    email: read(PARAMETERS.email),
    call: read(PARAMETERS.call),
    sequenceId: read(PARAMETERS.sequenceId),
  };
}

/**
 * A parameter's value: the first of its names sent as a non-blank header, else the first sent as a non-blank query
 * parameter; trimmed, '' when none.
 */
function parameter(request: NtfyRequest, names: readonly string[]): string {
  for (const name of names) {
    const value = headerValue(name, request.headers[name]);
    if (value) return value;
  }
  for (const name of names) {
    const value = request.query.get(name)?.trim();
    if (value) return value;
  }
  return '';
}

/**
 * A header's value as ntfy reads it: encoded-words decoded (a header carries only ASCII safely, so some clients
 * send a title such as `=?UTF-8?B?...?=`), and the `Priority` header that browsers and proxies now add by themselves
 * (RFC 9218: `u=1, i`) taken as none, so it neither refuses the request nor hides a `p` in the query.
 */
function headerValue(name: string, raw: string | undefined): string {
  if (raw === undefined) return '';
  const value = decodeEncodedWords(raw).trim();
  return name === 'priority' && HTTP_PRIORITY.test(value) ? '' : value;
}

/** RFC 9218's Priority header: `u=<urgency>` and/or `i`, comma separated. */
const HTTP_PRIORITY = /^(?:u=\d|i)(?:\s*,\s*(?:u=\d|i))*$/i;

/**
 * The message: a non-blank body of PUT or POST wins (that is how `curl -d "text"` publishes); else the `message`
 * parameter, where a written `\n` stands for a new line (a header cannot hold one).
 */
function messageOf(request: NtfyRequest): string | undefined {
  if (request.method !== 'GET' && request.body.length > 0) {
    const body = utf8Text(request.body).trim();
    if (body) return body;
  }
  return parameter(request, PARAMETERS.message).replaceAll('\\n', '\n') || undefined;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** ntfy would store a body that is not UTF-8 as an uploaded file; Notifier keeps no files, so it is refused. */
function utf8Text(bytes: Buffer): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw ntfyErrors.messageNotUTF8();
  }
}

/** ntfy's priority words and numbers, in any case. */
const PRIORITY_WORDS = new Map<string, number>([
  ['1', 1],
  ['min', 1],
  ['2', 2],
  ['low', 2],
  ['3', 3],
  ['default', 3],
  ['4', 4],
  ['high', 4],
  ['5', 5],
  ['max', 5],
  ['urgent', 5],
]);

function priorityFromText(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const priority = PRIORITY_WORDS.get(text.toLowerCase());
  if (priority === undefined) throw ntfyErrors.priorityInvalid(text);
  return priority;
}

const splitTags = (text: string): string[] =>
  text
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');

/** ntfy's booleans: `1`, `yes` and `true` are true, anything else false. */
const isTrue = (text: string | undefined): boolean => ['1', 'yes', 'true'].includes(text?.toLowerCase() ?? '');

/** `text/markdown`, its parameters (`; charset=utf-8`) aside. */
const isMarkdownType = (text: string | undefined): boolean => text?.split(';')[0]!.trim().toLowerCase() === 'text/markdown';

// ---------------------------------------------------------------------------------------------------------------
// ntfy's message JSON (`POST /`)

/**
 * `POST /` with `{"topic": "backups", "message": "...", ...}`. Keys ntfy does not know are ignored, as ntfy ignores
 * them; `null` is absent.
 */
function publishFromJSON(body: Buffer): Publish {
  const json = jsonObject(body);
  const topic = json['topic'];
  if (typeof topic !== 'string') throw ntfyErrors.topicInvalid();
  checkTopic(topic);
  const text = (key: string): string | undefined => jsonText(json, key);
  return {
    topic,
    title: text('title'),
    message: text('message'),
    priority: priorityFromJSON(json['priority']),
    tags: tagsFromJSON(json['tags']),
    click: text('click'),
    icon: text('icon'),
    attach: text('attach'),
    filename: text('filename'),
    markdown: booleanFromJSON(json, 'markdown'),
    actions: isAbsent(json['actions']) ? [] : checkActions(actionsFromJSON(json['actions'])),
    delay: givenFromJSON(json['delay']),
    email: givenFromJSON(json['email']),
    call: givenFromJSON(json['call']),
    sequenceId: text('sequence_id'),
  };
}

/**
 * ntfy reads the headers and query beside a JSON publish for what the JSON does not say, and so do its publishers:
 * Apprise sends the message and title as JSON and the priority, tags and click as `X-Priority`, `X-Tags` and
 * `X-Click`. What the JSON says wins.
 */
function besideJSON(fromJSON: Publish, request: NtfyRequest): Publish {
  const beside = publishFromParameters({ ...request, body: Buffer.alloc(0) }, fromJSON.topic);
  const merged: Record<string, unknown> = { ...beside };
  for (const [key, value] of Object.entries(fromJSON)) {
    const said = Array.isArray(value) ? value.length > 0 : value !== undefined && value !== false;
    if (said || merged[key] === undefined) merged[key] = value;
  }
  return merged as unknown as Publish;
}

function jsonObject(body: Buffer): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(UTF8.decode(body));
  } catch {
    throw ntfyErrors.messageJSONInvalid();
  }
  if (!isObject(parsed)) throw ntfyErrors.messageJSONInvalid();
  return parsed;
}

function jsonText(json: Record<string, unknown>, key: string): string | undefined {
  const value = json[key];
  if (isAbsent(value)) return undefined;
  if (typeof value !== 'string') throw ntfyErrors.messageJSONInvalid(`${key} must be a string`);
  return value.trim() || undefined;
}

function booleanFromJSON(json: Record<string, unknown>, key: string): boolean {
  const value = json[key];
  if (isAbsent(value)) return false;
  if (typeof value !== 'boolean') throw ntfyErrors.messageJSONInvalid(`${key} must be true or false`);
  return value;
}

/** A whole number; 0 is ntfy's "not given", 1 to 5 a priority, another number the priority error. */
function priorityFromJSON(value: unknown): number | undefined {
  if (isAbsent(value) || value === 0) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw ntfyErrors.messageJSONInvalid('priority must be a whole number from 1 to 5');
  if (value < 1 || value > 5) throw ntfyErrors.priorityInvalid(String(value));
  return value;
}

function tagsFromJSON(value: unknown): string[] {
  if (isAbsent(value)) return [];
  if (!Array.isArray(value) || !value.every((tag) => typeof tag === 'string')) {
    throw ntfyErrors.messageJSONInvalid('tags must be an array of strings');
  }
  return value.map((tag) => tag.trim()).filter((tag) => tag !== '');
}

/** Delay, e-mail and call are refused whatever they hold, so any value but none (`null`, `""`, `false`) counts. */
function givenFromJSON(value: unknown): string | undefined {
  if (isAbsent(value) || value === '' || value === false) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

// ---------------------------------------------------------------------------------------------------------------
// Checks both forms share

function checkTopic(topic: string): void {
  if (!TOPIC_PATTERN.test(topic)) throw ntfyErrors.topicInvalid();
  if ((NTFY_RESERVED_TOPICS as readonly string[]).includes(topic)) throw ntfyErrors.topicDisallowed();
}

/** ntfy takes an attachment by its http(s) address; a file name alone means the body is the file, which is refused. */
function checkAttachment(publish: Publish): void {
  if (publish.attach !== undefined && !isWebURL(publish.attach)) throw ntfyErrors.attachmentURLInvalid();
  if (publish.attach === undefined && publish.filename !== undefined) throw ntfyErrors.uploadUnsupported();
}

function checkIcon(icon: string | undefined): void {
  if (icon !== undefined && !isWebURL(icon)) throw ntfyErrors.iconURLInvalid();
}

function checkSequenceId(sequenceId: string | undefined): void {
  if (sequenceId !== undefined && !SEQUENCE_ID_PATTERN.test(sequenceId)) throw ntfyErrors.sequenceIdInvalid(sequenceId);
}

/** ntfy can also send a message as an e-mail or read it out in a phone call; Notifier has neither. */
function refuseOtherChannels(publish: Publish): void {
  if (publish.email !== undefined) throw ntfyErrors.emailUnsupported();
  if (publish.call !== undefined) throw ntfyErrors.phoneCallsUnsupported();
}

/** An absolute http or https URL, as ntfy wants attachment and icon addresses. */
function isWebURL(text: string): boolean {
  if (!/^https?:\/\//i.test(text)) return false;
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The translation

function translate(publish: Publish, emoji: EmojiLookup): NtfyTranslation {
  const emojis: string[] = [];
  const plainTags: string[] = [];
  for (const tag of publish.tags) {
    const found = emoji(tag);
    if (found) emojis.push(found);
    else plainTags.push(tag);
  }
  const attachment = publish.attach === undefined ? undefined : attachmentOf(publish.attach, publish.filename);
  const attachedImage = attachment && isPicture(attachment) ? attachment.url : undefined;
  const image = attachedImage ?? (publish.icon?.toLowerCase().startsWith('https:') ? publish.icon : undefined);
  const buttons = [
    ...publish.actions.map(buttonOf),
    ...(attachment && !attachedImage ? [{ label: ATTACHMENT_BUTTON_LABEL, url: attachment.url }] : []),
  ];
  const { title, body } = headline(publish.title, publish.message);
  const notify: Record<string, unknown> = {
    app: publish.topic,
    ...(publish.sequenceId ? { id: publish.sequenceId } : {}),
    title: emojis.length > 0 ? `${emojis.join(' ')} ${title}` : title,
    ...(body ? { body: publish.markdown ? body : escapeMarkdown(body) } : {}),
    ...priorityFields(publish.priority),
    ...(publish.click ? { url: publish.click } : {}),
    ...(image ? { image } : {}),
    ...(buttons.length > 0 ? { buttons } : {}),
    ...(plainTags.length > 0 ? { metadata: { tags: plainTags } } : {}),
  };
  return { topic: publish.topic, notify, echo: echoOf(publish, attachment) };
}

/** The fields of ntfy's answer that repeat the request, in ntfy's order. */
function echoOf(publish: Publish, attachment: Attachment | undefined): Record<string, unknown> {
  return {
    ...(publish.title ? { title: publish.title } : {}),
    message: publish.message ?? EMPTY_MESSAGE,
    ...(publish.priority !== undefined && publish.priority !== 3 ? { priority: publish.priority } : {}),
    ...(publish.tags.length > 0 ? { tags: publish.tags } : {}),
    ...(publish.click ? { click: publish.click } : {}),
    ...(publish.icon ? { icon: publish.icon } : {}),
    ...(publish.actions.length > 0 ? { actions: publish.actions } : {}),
    ...(attachment ? { attachment } : {}),
    ...(publish.markdown ? { content_type: 'text/markdown' } : {}),
    ...(publish.sequenceId ? { sequence_id: publish.sequenceId } : {}),
  };
}

/**
 * The banner's title and body. ntfy's title is optional, Notifier's is not: without one, the message's first line
 * becomes the title and the rest the body, which reads as the phone shows it (a short message is all headline).
 */
function headline(title: string | undefined, message: string | undefined): { title: string; body?: string } {
  if (title) return message ? { title, body: message } : { title };
  if (!message) return { title: EMPTY_MESSAGE };
  const newline = message.indexOf('\n');
  if (newline < 0) return { title: message };
  const rest = message.slice(newline + 1).trim();
  return { title: message.slice(0, newline).trim(), ...(rest ? { body: rest } : {}) };
}

/** ntfy's five levels on Notifier's four; ntfy's highest also keeps the banner until it is closed, as on a phone. */
function priorityFields(priority: number | undefined): Record<string, unknown> {
  switch (priority) {
    case 1:
    case 2:
      return { priority: 'low' };
    case 4:
      return { priority: 'high' };
    case 5:
      return { priority: 'urgent', persistent: true };
    default:
      return {};
  }
}

/** A view action opens its link; an http action sends its request, as given, when pressed. */
function buttonOf(action: NtfyAction): Record<string, unknown> {
  if (action.action === 'view') return { label: action.label, url: action.url };
  return {
    label: action.label,
    callback: {
      url: action.url,
      method: action.method ?? 'POST',
      ...(action.headers ? { headers: action.headers } : {}),
      ...(action.body !== undefined ? { body: action.body } : {}),
    },
  };
}

interface Attachment {
  name: string;
  url: string;
}

/** The attachment's name: the given file name, else the last segment of the URL's path, else `attachment`. */
function attachmentOf(url: string, filename: string | undefined): Attachment {
  return { name: filename ?? lastPathSegment(url) ?? DEFAULT_ATTACHMENT_NAME, url };
}

function lastPathSegment(url: string): string | undefined {
  const segment = new URL(url).pathname.split('/').at(-1);
  if (!segment) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A picture the banner can show: an image by its name, fetched over https (the only remote pictures, #n9). */
const isPicture = (attachment: Attachment): boolean =>
  IMAGE_NAME.test(attachment.name) && attachment.url.toLowerCase().startsWith('https:');
