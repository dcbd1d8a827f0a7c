// Gotify's dialect (docs/api/gotify.md; Gotify is a self-hosted push server): a program written for Gotify sends its
// `POST /message` here unchanged, and this module turns it into the body of Notifier's own `POST /v1/notify`
// (docs/api/notifications.md#the-notification-object) and writes the answers a Gotify client reads. It is pure: the
// caller has read the body (bounded), checked the key and chosen the app; the daemon then checks the translated body
// exactly as any `/v1/notify` body, so lengths and link schemes are not checked twice here.
//
// What Gotify accepts, as its server reads it: `message`
// (required, not empty), `title`, `priority` (a whole number) and, in JSON bodies only, `extras`, an object keyed by
// namespaces such as `client::display`. Its answer is the stored message; its errors are
// `{"error": <reason phrase>, "errorCode": <status>, "errorDescription": <why>}`.

import { STATUS_CODES } from 'node:http';
import { MAX_BODY_BYTES } from '../limits.js';
import { escapeMarkdown } from '../markdown.js';

export interface GotifyRequest {
  /** The Content-Type header, or undefined. */
  contentType: string | undefined;
  /** The raw body bytes. */
  body: Buffer;
}

/** A Gotify message read and translated: the `/v1/notify` body, and what the Gotify answer echoes. */
export interface GotifyTranslation {
  /** The body for `POST /v1/notify`, checked by the daemon as if a program had sent it there. */
  notify: Record<string, unknown>;
  /** The title as Gotify stores it: the one sent, or the app's name when none was. */
  title: string;
  /** The message as sent (not escaped: a Gotify client gets back what it sent). */
  message: string;
  /** The priority as Gotify stores it: the one sent, or the default. */
  priority: number;
  /** The extras as sent, when there were any. */
  extras?: Record<string, unknown>;
}

/** Gotify's error body (its server's error handler writes this shape for every refusal). */
export interface GotifyErrorBody {
  /** The status's reason phrase (`Bad Request`). */
  error: string;
  errorCode: number;
  errorDescription: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Errors

export class GotifyError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'GotifyError';
  }
}

/** How much of a refused value an error message repeats: a form field may be as long as the whole body. */
const SHOWN_VALUE_CHARS = 40;

/** A refused value as an error message shows it: JSON, cut short. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > SHOWN_VALUE_CHARS ? `${text.slice(0, SHOWN_VALUE_CHARS)}…` : text;
}

/** Every refusal of the Gotify routes, made in one place so the statuses and words stay the same everywhere. */
export const gotifyErrors = {
  messageMissing: () => new GotifyError(400, 'the message field is required and must not be empty'),
  priorityInvalid: (value: unknown) =>
    new GotifyError(400, `priority must be a whole number from ${PRIORITY.min} to ${PRIORITY.max} (got ${shown(value)})`),
  bodyInvalid: (why: string) => new GotifyError(400, `the body cannot be read: ${why}`),
  // Gotify's own words for a missing or wrong key, which a client may show as they are.
  unauthorized: () => new GotifyError(401, 'you need to provide a valid access token or user credentials to access this api'),
  forbidden: () => new GotifyError(403, 'this key is not allowed to send messages'),
  notFound: () => new GotifyError(404, 'no such page'),
  tooLarge: (maxBytes: number = MAX_BODY_BYTES) => new GotifyError(413, `the body is too large (at most ${maxBytes} bytes)`),
  tooManyRequests: (why = 'too many requests; try again later') => new GotifyError(429, why),
};

/** An error as Gotify writes it: the reason phrase is the standard one for the status. */
export function gotifyErrorBody(status: number, description: string): GotifyErrorBody {
  return { error: STATUS_CODES[status] ?? 'Unknown Status', errorCode: status, errorDescription: description };
}

// ---------------------------------------------------------------------------------------------------------------
// Reading the body

/**
 * Gotify's priorities are whole numbers; its clients rank 0 to 10, so that is what is taken (Gotify itself stores any
 * number, but a value outside its clients' range has no meaning to map). Gotify gives a message without a priority its
 * application's default priority; a Notifier app has none of those, so the default is 5, the middle of the band
 * Gotify's clients show as an ordinary notification.
 */
const PRIORITY = { min: 0, max: 10, default: 5 } as const;

/** The fields of a Gotify message, as sent, before they are checked. */
interface GotifyFields {
  message: unknown;
  title: unknown;
  /** A number (JSON) or the text of a form field. */
  priority: unknown;
  extras: unknown;
}

/** Reads a Gotify `POST /message` body and translates it; refuses with a GotifyError. `app`: the Notifier app it goes to. */
export async function readGotifyMessage(request: GotifyRequest, app: string): Promise<GotifyTranslation> {
  const fields = await readFields(request);
  const message = messageOf(fields.message);
  const title = titleOf(fields.title, app);
  const priority = priorityOf(fields.priority);
  const extras = extrasOf(fields.extras);
  return {
    notify: notifyBody(app, title, message, priority, extras),
    title,
    message,
    priority,
    ...(extras !== undefined && { extras }),
  };
}

/** The body's fields, by its media type. Gotify reads JSON, URL-encoded forms and multipart forms. */
async function readFields(request: GotifyRequest): Promise<GotifyFields> {
  const type = mediaType(request.contentType);
  if (type === 'application/json') return jsonFields(request.body);
  if (type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data') return formFields(request);
  if (type === undefined) {
    // Without a Content-Type, a body that looks like a JSON object is taken as one (a script that posts JSON and
    // never sets the header); anything else is read as a URL-encoded form, so an empty body is refused for its
    // missing message.
    return request.body.toString('utf8').trimStart().startsWith('{')
      ? jsonFields(request.body)
      : formFields({ contentType: 'application/x-www-form-urlencoded', body: request.body });
  }
  throw gotifyErrors.bodyInvalid(
    `unsupported Content-Type ${shown(type)}: send application/json, application/x-www-form-urlencoded or multipart/form-data`,
  );
}

/** `application/json; charset=utf-8` -> `application/json`; undefined when there is no header or it is blank. */
function mediaType(contentType: string | undefined): string | undefined {
  const type = contentType?.split(';', 1)[0]!.trim().toLowerCase();
  return type ? type : undefined;
}

function jsonFields(body: Buffer): GotifyFields {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    throw gotifyErrors.bodyInvalid('invalid JSON');
  }
  if (!isObject(value)) throw gotifyErrors.bodyInvalid('the JSON body must be an object');
  return { message: own(value, 'message'), title: own(value, 'title'), priority: own(value, 'priority'), extras: own(value, 'extras') };
}

/**
 * A form's fields, read by the web platform's own form parser. Only text fields count: a file part named `message` is
 * not a message. `extras` is not read from a form, as Gotify does not read it there either.
 */
async function formFields(request: GotifyRequest): Promise<GotifyFields> {
  let form: FormData;
  try {
    form = await new Response(request.body, { headers: { 'content-type': request.contentType ?? '' } }).formData();
  } catch {
    throw gotifyErrors.bodyInvalid('the form could not be read');
  }
  const text = (name: string): string | undefined => {
    const value = form.get(name);
    return typeof value === 'string' ? value : undefined;
  };
  return { message: text('message'), title: text('title'), priority: formPriority(text('priority')), extras: undefined };
}

/**
 * A form's priority is decimal text. An empty field counts as absent (a script's unset variable), and the text is
 * otherwise read strictly: `5` but not ` 5`, `5.0` or `high`, which are refused as they stand.
 */
function formPriority(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  return /^-?\d{1,6}$/.test(text) ? Number(text) : text;
}

// ---------------------------------------------------------------------------------------------------------------
// Checking the fields (only what Gotify itself requires; the rest is the daemon's check of `/v1/notify`)

function messageOf(value: unknown): string {
  // Go reads a JSON null into an empty string, so Gotify answers null as a missing message too.
  if (value === undefined || value === null || value === '') throw gotifyErrors.messageMissing();
  if (typeof value !== 'string') throw gotifyErrors.bodyInvalid('message must be a string');
  return value;
}

/** Gotify shows its application's name when a message has no title (or one of white space only): here, the app. */
function titleOf(value: unknown, app: string): string {
  if (value === undefined || value === null) return app;
  if (typeof value !== 'string') throw gotifyErrors.bodyInvalid('title must be a string');
  return value.trim() === '' ? app : value;
}

function priorityOf(value: unknown): number {
  if (value === undefined || value === null) return PRIORITY.default;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < PRIORITY.min || value > PRIORITY.max) {
    throw gotifyErrors.priorityInvalid(value);
  }
  return value;
}

/**
 * Extras must be an object; what each namespace holds is the sender's affair (Gotify stores it as it is, and its
 * clients ignore what they do not understand), so only the two namespaces read below are looked into. An empty
 * object counts as none: Gotify's answer leaves it out.
 */
function extrasOf(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw gotifyErrors.bodyInvalid('extras must be an object keyed by namespace, such as {"client::display": {...}}');
  return Object.keys(value).length > 0 ? value : undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Translating

/** Notifier's priority for Gotify's: 0-3 quiet, 4-7 ordinary, 8-9 high; 10 is urgent and stays until closed. */
function priorityFields(priority: number): Record<string, unknown> {
  if (priority <= 3) return { priority: 'low' };
  if (priority <= 7) return {}; // normal is Notifier's default
  if (priority <= 9) return { priority: 'high' };
  return { priority: 'urgent', persistent: true };
}

function notifyBody(
  app: string,
  title: string,
  message: string,
  priority: number,
  extras: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const url = clickUrl(extras);
  const image = bigImage(extras);
  return {
    app,
    title,
    body: isMarkdown(extras) ? message : escapeMarkdown(message),
    ...priorityFields(priority),
    ...(url !== undefined && { url }),
    ...(image !== undefined && { image }),
  };
}

/** Gotify's clients draw a message as Markdown only when `client::display.contentType` says `text/markdown`. */
function isMarkdown(extras: Record<string, unknown> | undefined): boolean {
  return own(namespace(extras, 'client::display'), 'contentType') === 'text/markdown';
}

/** `client::notification.click.url`: the page a click on the notification opens. */
function clickUrl(extras: Record<string, unknown> | undefined): string | undefined {
  const click = own(namespace(extras, 'client::notification'), 'click');
  const url = isObject(click) ? own(click, 'url') : undefined;
  return typeof url === 'string' && url !== '' ? url : undefined;
}

/**
 * `client::notification.bigImageUrl`, the picture Gotify's clients show large. Only an https URL is passed on: a
 * Notifier `image` may also name a file on this computer, and a Gotify key must not let its sender choose one
 * (Notifier downloads https pictures only, so nothing a Gotify client would show is lost).
 */
function bigImage(extras: Record<string, unknown> | undefined): string | undefined {
  const url = own(namespace(extras, 'client::notification'), 'bigImageUrl');
  return typeof url === 'string' && /^https:\/\//i.test(url) ? url : undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Answers

/** Gotify's answer to `POST /message`: the stored message. `date`: when it was stored, ISO 8601, from the caller. */
export function gotifyMessage(t: GotifyTranslation, id: number, appid: number, date: string): Record<string, unknown> {
  return {
    id,
    appid,
    message: t.message,
    title: t.title,
    priority: t.priority,
    ...(t.extras !== undefined && { extras: t.extras }),
    date,
  };
}

/**
 * What `GET /version` answers. Clients call it only to see that a Gotify server is there (gotify-cli's `init`, apps'
 * "test connection"), so the version is a recent Gotify release and the rest fixed, not this build's.
 */
export const GOTIFY_VERSION: { readonly version: string; readonly commit: string; readonly buildDate: string } = Object.freeze({
  version: '2.6.1',
  commit: 'notifier',
  buildDate: '2025-01-01T00:00:00Z',
});

// ---------------------------------------------------------------------------------------------------------------
// Small helpers

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A key of a parsed object, never one it inherits (`constructor`, `__proto__`). */
function own(value: unknown, key: string): unknown {
  return isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

/** One namespace of the extras, when it is an object. */
function namespace(extras: Record<string, unknown> | undefined, name: string): Record<string, unknown> | undefined {
  const value = own(extras, name);
  return isObject(value) ? value : undefined;
}
