// The small parsers of the `notifier` command line: numbers and ranges, KEY=VALUE words, buttons, reminders,
// follow-ups and JSON input. Each problem is a UsageError (exit 1, `notifier: <message>` and a usage hint).
// Only light modules are imported here: the command must start fast (see docs/cli.md, docs/performance.md).

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { InvalidArgumentError } from 'commander';
import { parseDuration } from '../protocol/notification-rules.js';
import { FOLLOW_UP_AFTER_SECONDS } from '../protocol/limits.js';

/** A mistake on the command line: the tool prints `notifier: <message>` and a hint, and exits 1. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// ---------------------------------------------------------------------------------------------------------------
// Option value parsers for commander (`.argParser`): InvalidArgumentError becomes commander's own
// "option '--x <n>' argument 'v' is invalid. <why>" message, exit 1.

/** `--port`: a whole number from 1 to 65535 (docs/cli.md#global-options). */
export function parsePort(text: string): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) < 1 || Number(text) > 65535) throw new InvalidArgumentError('a port number from 1 to 65535');
  return Number(text);
}

/** A number written plainly (`5`, `0.5`, `-1`); `''`, `0x10`, `1e3` and `Infinity` are not. */
function plainNumber(text: string): number | null {
  return /^-?\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : null;
}

/** A number in a range; `min` itself is allowed unless `minExclusive`. */
export function numberIn(min: number, max: number, { minExclusive = false, what = '' } = {}) {
  return (text: string): number => {
    const value = plainNumber(text);
    if (value === null || (minExclusive ? value <= min : value < min) || value > max) {
      throw new InvalidArgumentError(
        `${what || 'a number'} ${minExclusive ? 'greater than' : 'from'} ${min} ${minExclusive ? 'and at most' : 'to'} ${max}`,
      );
    }
    return value;
  };
}

/** A number of 0 or more (`--timeout`: `0` sends the integer 0). */
export function nonNegativeNumber(text: string): number {
  const value = plainNumber(text);
  if (value === null || value < 0) throw new InvalidArgumentError('a number of seconds, 0 or more');
  return value;
}

/** A number greater than 0. */
export function positiveNumber(text: string): number {
  const value = plainNumber(text);
  if (value === null || value <= 0) throw new InvalidArgumentError('a number greater than 0');
  return value;
}

/** A whole number of 0 or more (`--limit`, `--offset`). */
export function wholeNumber(text: string): number {
  if (!/^\d+$/.test(text.trim())) throw new InvalidArgumentError('a whole number, 0 or more');
  return Number(text);
}

/** A whole number of 1 or more (`--max-body-lines`). */
export function positiveInteger(text: string): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1) throw new InvalidArgumentError('a whole number, 1 or more');
  return Number(text);
}

/** `HH:MM`, 00:00 to 23:59 (`quiet --until`; `7pm` is refused). */
export function clockTime(text: string): string {
  if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(text)) throw new InvalidArgumentError('a time as HH:MM, 00:00 to 23:59');
  return text;
}

/** Seconds or `90s`, `10m`, `2h`, within `min`..`max` seconds; `range` words the bounds for the message. */
function durationIn(text: string, min: number, max: number, range: string): number {
  const seconds = parseDuration(text);
  if (seconds === null || seconds < min || seconds > max) {
    throw new InvalidArgumentError(`seconds or a duration such as 90s, 10m, 2h, from ${range}`);
  }
  return seconds;
}

/** A follow-up's `after`: seconds or `90s`, `10m`, `2h`, from 5 seconds to 7 days; sent as seconds. */
export function followUpAfter(text: string): number {
  const { min, max } = FOLLOW_UP_AFTER_SECONDS;
  return durationIn(text, min, max, `${min} seconds to ${max / 86_400} days`);
}

/**
 * How long `notify --wait` and `replies --wait` wait for the person: seconds or `90s`, `10m`, `2h`, from 1 second
 * to a day (docs/cli.md#waiting-for-the-person). Beyond the API's 300 s per request the tool waits again.
 */
export const ANSWER_WAIT_SECONDS = { min: 1, max: 86_400, default: 60 } as const;

export function answerWait(text: string): number {
  const { min, max } = ANSWER_WAIT_SECONDS;
  return durationIn(text, min, max, `${min} second to ${max / 3600} hours`);
}

/** `--metadata`: a JSON object. */
export function jsonObjectOption(text: string): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InvalidArgumentError('a JSON object such as {"key":"value"}');
  }
  if (!isPlainObject(value)) throw new InvalidArgumentError('a JSON object such as {"key":"value"}');
  return value as JsonObject;
}

/** A repeatable option: every value, in order. */
export const collect =
  <T>(parse: (text: string) => T) =>
  (text: string, previous: T[] | undefined): T[] => [...(previous ?? []), parse(text)];

// ---------------------------------------------------------------------------------------------------------------
// Words

/** A KEY=VALUE value: JSON when it parses (`5`, `true`, `null`, `"5"`, `[1]`), else the text itself. */
export function wordValue(text: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return text;
  }
}

/** `KEY=VALUE` words as an object; a word without `=` or with an empty key is refused. */
export function keyValues(words: string[]): JsonObject {
  const result: JsonObject = {};
  for (const word of words) {
    const at = word.indexOf('=');
    if (at < 0) throw new UsageError(`'${word}' is not KEY=VALUE`);
    if (at === 0) throw new UsageError(`'${word}' has no key before =`);
    result[word.slice(0, at)] = wordValue(word.slice(at + 1));
  }
  return result;
}

/**
 * `--button Label=target` (docs/cli.md#notify): the label ends at the first `=`. Targets: `cmd:<shell command>`,
 * `script:<file>`, `shortcut:<name>`, `cb:<JSON payload>` (`cb:` alone: a callback without a payload),
 * `reply:<placeholder>` (`reply:` alone: a reply field without one), else a link such as `https://...` or
 * `mailto:...`. A bare label (`--button Later`) is a plain button that just closes the banner
 * (docs/api/notifications.md#n18).
 */
export function parseButton(text: string): JsonObject {
  const at = text.indexOf('=');
  if (at < 0) {
    if (text.trim() === '') throw new InvalidArgumentError('the label is empty');
    return { label: text };
  }
  const label = text.slice(0, at);
  const target = text.slice(at + 1);
  if (label === '') throw new InvalidArgumentError('the label before = is empty');
  if (target === '')
    throw new InvalidArgumentError(
      `nothing after =: give a target, or just the label (--button "${label}") for a button that closes the banner`,
    );
  const rest = (prefix: string): string | null => (target.startsWith(prefix) ? target.slice(prefix.length) : null);
  const placeholder = rest('reply:');
  if (placeholder !== null) return { label, reply: placeholder.trim() === '' ? {} : { placeholder } };
  const command = rest('cmd:');
  if (command !== null) return { label, command };
  const script = rest('script:');
  if (script !== null) return { label, script };
  const shortcut = rest('shortcut:');
  if (shortcut !== null) return { label, shortcut };
  const payload = rest('cb:');
  if (payload !== null) {
    if (payload.trim() === '') return { label, callback: {} };
    try {
      return { label, callback: { payload: JSON.parse(payload) as Json } };
    } catch {
      throw new InvalidArgumentError(`the cb: payload is not JSON: ${payload}`);
    }
  }
  if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) {
    throw new InvalidArgumentError(
      'the target is a link (https://...), cmd:<command>, script:<file>, shortcut:<name>, cb:<JSON> or reply:<placeholder>',
    );
  }
  return { label, url: target };
}

/** `--reminder Title|ISO8601`: split on the last `|`; a bare text is the title only. */
export function parseReminder(text: string): JsonObject {
  const at = text.lastIndexOf('|');
  const [title, due] = at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + 1)];
  return { ...(title ? { title } : {}), ...(due ? { due } : {}) };
}

// ---------------------------------------------------------------------------------------------------------------
// Follow-ups: `notify --follow-up-*` and `template follow-up`

export interface FollowUpFlags {
  after?: number;
  shortcut?: string;
  script?: string;
  command?: string;
  ref?: string;
  input?: string;
}

/**
 * docs/cli.md#notify and docs/cli.md#template: `after` together with exactly one of shortcut, script, command or
 * a reference; `input` only with a shortcut or a script. The flag names come from `names` so each command's
 * message names its own flags.
 */
export function checkFollowUpFlags(
  flags: FollowUpFlags,
  names: Record<keyof FollowUpFlags, string>,
): 'shortcut' | 'script' | 'command' | 'ref' {
  const given = (['shortcut', 'script', 'command', 'ref'] as const).filter((key) => flags[key] !== undefined);
  const actions = `${names.shortcut}, ${names.script}, ${names.command} or ${names.ref}`;
  if (given.length > 1) throw new UsageError(`give one follow-up action, not ${given.map((key) => names[key]).join(' and ')}`);
  if (given.length === 0) throw new UsageError(`${names.after} needs an action: one of ${actions}`);
  if (flags.after === undefined) throw new UsageError(`${names[given[0]!]} needs ${names.after} (seconds, or 90s, 10m, 2h)`);
  if (flags.input !== undefined && (given[0] === 'command' || given[0] === 'ref')) {
    throw new UsageError(`${names.input} goes with ${names.shortcut} or ${names.script}, not ${names[given[0]]}`);
  }
  return given[0]!;
}

const NOTIFY_FOLLOW_UP_NAMES = {
  after: '--follow-up-after',
  shortcut: '--follow-up-shortcut',
  script: '--follow-up-script',
  command: '--follow-up-command',
  ref: '--follow-up-ref',
  input: '--follow-up-input',
};

/** The notification's `followUp` from the `--follow-up-*` flags; undefined when none is given. */
export function notifyFollowUp(flags: FollowUpFlags): JsonObject | undefined {
  if (Object.values(flags).every((value) => value === undefined)) return undefined;
  const kind = checkFollowUpFlags(flags, NOTIFY_FOLLOW_UP_NAMES);
  if (kind === 'ref') return { after: flags.after!, actionRef: flags.ref! };
  const value = flags[kind]!;
  // The label a template follow-up gets too (daemon/core/templates/library.ts): the shortcut's or script's name.
  const label = kind === 'command' ? 'Follow-up' : value;
  return { after: flags.after!, action: { label, kind, [kind]: value, ...(flags.input !== undefined ? { input: flags.input } : {}) } };
}

// ---------------------------------------------------------------------------------------------------------------
// Files and JSON

/** Reads a file, or standard input for `-`. */
export async function readInput(file: string): Promise<Buffer> {
  if (file === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }
  try {
    return await readFile(file);
  } catch (error) {
    throw new UsageError(
      `cannot read ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`,
    );
  }
}

/** A JSON object from a file or standard input (`--json FILE|-`, `template put FILE`). */
export async function readJsonObject(file: string): Promise<JsonObject> {
  const text = (await readInput(file)).toString('utf8');
  const where = file === '-' ? 'standard input' : file;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${where} is not JSON: ${(error as Error).message}`);
  }
  if (!isPlainObject(value)) throw new UsageError(`${where} must hold a JSON object`);
  return value as JsonObject;
}

/** The flags on top of a `--json` body; an object both give (metadata, defaults, speak) is merged one level. */
export function mergeOnTop(base: JsonObject, flags: JsonObject): JsonObject {
  const merged: JsonObject = { ...base };
  for (const [key, value] of Object.entries(flags)) {
    const below = merged[key];
    merged[key] = isPlainObject(below) && isPlainObject(value) ? { ...below, ...value } : value;
  }
  return merged;
}

/**
 * A file path the service will open (an image, an icon, an asset): a relative path is resolved against the
 * current folder, since the service runs elsewhere. URLs (`https:`, `data:`, `file:`), `~/...` and absolute paths
 * are sent as given.
 */
export function localPathArgument(given: string): string {
  if (path.isAbsolute(given) || given === '~' || given.startsWith('~/') || /^[a-z][a-z0-9+.-]+:/i.test(given)) return given;
  return path.resolve(given);
}

/** Drops the keys whose value is undefined (optional flags that were not given). */
export function defined(object: Record<string, Json | undefined>): JsonObject {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as JsonObject;
}

/** JSON with the keys of every object sorted, two-space indented (the tool's output). */
export function sortedJson(value: unknown): string {
  return JSON.stringify(sortKeys(value), null, 2);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys(value[key])]),
  );
}
