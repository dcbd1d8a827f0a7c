// ntfy's action buttons (docs/senders.md, "Actions"), in both of its forms: a JSON array, and the short form of a
// header (`view, Open portal, https://example.com, clear=true; http, Close door, https://api.example.com/door,
// method=PUT`). `view` and `http` are read; `broadcast`, an Android intent, is refused.

import { ntfyErrors } from './ntfy-errors.js';

/** An action button in ntfy's JSON form (the form of its answer), after ntfy's case rules. */
export interface NtfyAction {
  action: string;
  label: string;
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  clear: boolean;
}

/** ntfy shows at most 3 action buttons on a message (Android's limit for a notification). */
const MAX_ACTIONS = 3;

/** The only action types ntfy knows; `broadcast` sends an Android intent (refused below). */
const ACTION_TYPES = ['view', 'http', 'broadcast'] as const;

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const isAbsent = (value: unknown): value is null | undefined => value === undefined || value === null;

/** The `actions` parameter: a JSON array when it starts with `[`, else ntfy's short form. */
export function actionsFromText(text: string): NtfyAction[] {
  if (!text.startsWith('[')) return checkActions(shortActions(text));
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw ntfyErrors.actionsInvalid('the actions start with [ but are not a JSON array');
  }
  return checkActions(actionsFromJSON(parsed));
}

export function actionsFromJSON(value: unknown): NtfyAction[] {
  if (!Array.isArray(value)) throw ntfyErrors.actionsInvalid('actions must be an array of objects');
  return value.map((item, index) => actionFromJSON(item, `action ${index + 1}`));
}

function actionFromJSON(item: unknown, name: string): NtfyAction {
  if (!isObject(item)) throw ntfyErrors.actionsInvalid(`${name} must be an object`);
  const text = (key: string): string | undefined => {
    const value = item[key];
    if (isAbsent(value)) return undefined;
    if (typeof value !== 'string') throw ntfyErrors.actionsInvalid(`${name}: ${key} must be a string`);
    return value;
  };
  const clear = item['clear'];
  if (!isAbsent(clear) && typeof clear !== 'boolean') throw ntfyErrors.actionsInvalid(`${name}: clear must be true or false`);
  return withCaseRules({
    action: text('action') ?? '',
    label: text('label') ?? '',
    url: text('url') ?? '',
    method: text('method'),
    headers: headersFromJSON(item['headers'], name),
    body: text('body'),
    clear: clear === true,
  });
}

function headersFromJSON(value: unknown, name: string): Record<string, string> | undefined {
  if (isAbsent(value)) return undefined;
  if (!isObject(value) || !Object.values(value).every((header) => typeof header === 'string')) {
    throw ntfyErrors.actionsInvalid(`${name}: headers must be an object of strings`);
  }
  return value as Record<string, string>;
}

/** ntfy reads the action type in any case and sends the method in upper case; empty texts are absent. */
function withCaseRules({ action, label, url, method, headers, body, clear }: NtfyAction): NtfyAction {
  return {
    action: action.toLowerCase(),
    label,
    url,
    ...(method ? { method: method.toUpperCase() } : {}),
    ...(headers && Object.keys(headers).length > 0 ? { headers } : {}),
    ...(body ? { body } : {}),
    clear,
  };
}

/**
 * At most three actions, each a `view` or an `http` action with its label and URL. `broadcast` is an Android
 * intent, which a desktop has nothing to send to.
 */
export function checkActions(actions: NtfyAction[]): NtfyAction[] {
  if (actions.length > MAX_ACTIONS) throw ntfyErrors.tooManyActions(actions.length, MAX_ACTIONS);
  actions.forEach((action, index) => {
    const name = `action ${index + 1}`;
    if (action.action === 'broadcast') throw ntfyErrors.broadcastUnsupported();
    if (!(ACTION_TYPES as readonly string[]).includes(action.action)) {
      throw ntfyErrors.actionsInvalid(`${name}: ${JSON.stringify(action.action)} is not an action type (view or http)`);
    }
    if (!action.label) throw ntfyErrors.actionsInvalid(`${name} needs a label`);
    if (!action.url) throw ntfyErrors.actionsInvalid(`${name} (${action.action}) needs a URL`);
    if (action.action === 'http' && (action.method === 'GET' || action.method === 'HEAD') && action.body !== undefined) {
      throw ntfyErrors.actionsInvalid(`${name}: a ${action.method} request cannot have a body`);
    }
  });
  return actions;
}

/** Where the short form stands in its text while it is read. */
interface Cursor {
  text: string;
  at: number;
}

/** What ends a field of the short form: `,` (the next field), `;` (the next action) or the end of the text. */
type FieldEnd = ',' | ';' | '';

/** `key=` at the start of a field (a key is letters, digits, `_`, `-` and `.`, as in `headers.Authorization`). */
const FIELD_KEY = /([-.\w]+)\s*=\s*/y;

/**
 * ntfy's short form: actions separated by `;`, their fields by `,`. The first three fields may go without a key:
 * the type, the label, then the URL (of a view or http action); every other field is `key=value`. A value in `"`
 * or `'` may hold commas and semicolons, and its own quote after a backslash.
 */
function shortActions(text: string): NtfyAction[] {
  const cursor: Cursor = { text, at: 0 };
  const actions: NtfyAction[] = [];
  skipBlanks(cursor);
  while (cursor.at < text.length) {
    actions.push(shortAction(cursor));
    skipBlanks(cursor);
  }
  return actions;
}

function shortAction(cursor: Cursor): NtfyAction {
  const action: NtfyAction = { action: '', label: '', url: '', clear: false };
  for (let position = 0; ; position++) {
    const field = shortField(cursor);
    setShortField(action, position, field.key, field.value);
    if (field.end !== ',') return withCaseRules(action);
  }
}

function shortField(cursor: Cursor): { key: string | undefined; value: string; end: FieldEnd } {
  skipBlanks(cursor);
  FIELD_KEY.lastIndex = cursor.at;
  const key = FIELD_KEY.exec(cursor.text);
  if (key) cursor.at = FIELD_KEY.lastIndex;
  const quote = cursor.text[cursor.at];
  const value = quote === '"' || quote === "'" ? quotedValue(cursor, quote) : plainValue(cursor);
  const end = (cursor.text[cursor.at] ?? '') as FieldEnd;
  cursor.at++;
  return { key: key?.[1], value, end };
}

/** Up to the next `,` or `;`, blanks around it dropped. */
function plainValue(cursor: Cursor): string {
  const start = cursor.at;
  while (cursor.at < cursor.text.length && !isFieldEnd(cursor.text[cursor.at]!)) cursor.at++;
  return cursor.text.slice(start, cursor.at).trim();
}

/** From the opening quote to its closing one; only blanks may follow before the field ends. */
function quotedValue(cursor: Cursor, quote: string): string {
  const open = cursor.at;
  let value = '';
  for (cursor.at = open + 1; cursor.at < cursor.text.length; cursor.at++) {
    const char = cursor.text[cursor.at]!;
    if (char === '\\' && cursor.text[cursor.at + 1] === quote) {
      value += quote;
      cursor.at++;
    } else if (char === quote) {
      cursor.at++;
      skipBlanks(cursor);
      const next = cursor.text[cursor.at];
      if (next !== undefined && !isFieldEnd(next)) {
        throw ntfyErrors.actionsInvalid(`${JSON.stringify(next)} after the quoted value ${quote}${value}${quote}: end a field with , or ;`);
      }
      return value;
    } else value += char;
  }
  throw ntfyErrors.actionsInvalid(`the quote ${quote} opened at character ${open + 1} is never closed`);
}

const isFieldEnd = (char: string): boolean => char === ',' || char === ';';

function skipBlanks(cursor: Cursor): void {
  while (cursor.at < cursor.text.length && /\s/.test(cursor.text[cursor.at]!)) cursor.at++;
}

/** The keys of the short form; `intent` and `extras.<name>` belong to broadcast actions, which are refused later. */
function setShortField(action: NtfyAction, position: number, key: string | undefined, value: string): void {
  const name = key ?? positionalKey(position);
  if (name === undefined) {
    throw ntfyErrors.actionsInvalid(`${JSON.stringify(value)} is not a field: write key=value (url, method, headers.<name>, body, clear)`);
  }
  const lower = name.toLowerCase();
  if (lower.startsWith('headers.')) {
    const header = name.slice('headers.'.length);
    if (!header) throw ntfyErrors.actionsInvalid('headers. needs a header name: headers.<name>=<value>');
    action.headers = { ...action.headers, [header]: value };
    return;
  }
  if (lower.startsWith('extras.') || lower === 'intent') return;
  switch (lower) {
    case 'action':
    case 'label':
    case 'url':
    case 'method':
    case 'body':
      action[lower] = value;
      return;
    case 'clear':
      action.clear = clearValue(value);
      return;
    default:
      throw ntfyErrors.actionsInvalid(`key ${JSON.stringify(name)} is unknown (action, label, url, method, headers.<name>, body, clear)`);
  }
}

/**
 * A field without a key is, by its place: the type, the label, then the URL. (ntfy reads a third field as the URL
 * only of a view or http action; any other type is refused anyway, and this way the refusal names the type.)
 */
function positionalKey(position: number): string | undefined {
  return ['action', 'label', 'url'][position];
}

function clearValue(value: string): boolean {
  const lower = value.toLowerCase();
  if (['true', 'yes', '1'].includes(lower)) return true;
  if (['false', 'no', '0'].includes(lower)) return false;
  throw ntfyErrors.actionsInvalid(`clear=${value} is not allowed (true or false)`);
}
