// The relay's log (docs/relay.md, "Logs"): one JSON object per line on stderr, written by pino, so a journal or a
// log shipper reads fields rather than parsing sentences. stdout carries only the start-up lines that say where
// the relay listens. `RELAY_LOG_FORMAT=pretty` turns each object into a readable line for a terminal.
//
// No secret may reach it: the fields that can hold one are redacted by name wherever they appear, and every
// message is scrubbed of the relay's own credential shapes (`hr?_...`), in case an error's text quotes one.

import pino, { type Logger } from 'pino';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface LogSettings {
  level: LogLevel;
  format: LogFormat;
}

/** Without RELAY_LOG_LEVEL/RELAY_LOG_FORMAT (and before main.ts has read them): what an operator expects. */
export const DEFAULT_LOG_SETTINGS: LogSettings = { level: 'info', format: 'json' };

/** Extra fields of a line: numbers, names and ids, never a credential (those are redacted anyway). */
export type LogFields = Record<string, string | number | boolean | undefined>;

/** Field names whose value is a secret wherever they appear: credentials, codes, and the headers carrying them. */
const SECRET_FIELDS = [
  'authorization',
  'cookie',
  'token',
  'access_token',
  'refresh_token',
  'code',
  'device_code',
  'secret',
  'client_secret',
  'pairingSecret',
  'password',
  'key',
];
/** The same names at the top of a line and one or two objects down (pino's redaction takes explicit paths). */
const REDACT_PATHS = SECRET_FIELDS.flatMap((name) => [name, `*.${name}`, `*.*.${name}`]).concat([
  '["set-cookie"]',
  '*["set-cookie"]',
  '*["x-pairing-secret"]',
]);
export const REDACTED = '[redacted]';

/** Every credential the relay issues starts with `hr` and a kind letter (relay/core/credentials.ts, relay/oauth). */
const CREDENTIAL_SHAPE = /\b(hr[a-z])_[0-9a-f_]{8,}/g;

/** `message` with any of the relay's credentials in it replaced by its kind. */
export function scrub(message: string): string {
  return message.replace(CREDENTIAL_SHAPE, `$1_${REDACTED}`);
}

/** The fields every line has, which the pretty line shows in its own places rather than as `name=value`. */
const LINE_FIELDS = new Set(['time', 'level', 'msg', 'pid']);

/** One JSON line as `HH:MM:SS.mmm LEVEL message name=value ...` (the date is left out: a terminal is now). */
export function prettyLine(json: string): string {
  const entry = JSON.parse(json) as Record<string, unknown>;
  const time = typeof entry.time === 'string' ? entry.time.slice(11, 23) : '';
  const level = String(entry.level).toUpperCase().padEnd(5);
  const fields = Object.entries(entry)
    .filter(([name]) => !LINE_FIELDS.has(name))
    .map(([name, value]) => `${name}=${typeof value === 'string' && !/\s/.test(value) ? value : JSON.stringify(value)}`);
  return `${time} ${level} ${String(entry.msg ?? '')}${fields.length > 0 ? ` ${fields.join(' ')}` : ''}\n`;
}

/**
 * The relay's logger, and `requests`: the same without redaction, for the request lines alone, whose fields are a
 * fixed set of names, numbers and ids (RequestLine) — checking 39 paths on each of them cost several per cent of
 * the relay's CPU under load (docs/performance.md, "On PostgreSQL (issue 21)").
 */
function createLoggers(settings: LogSettings): { logger: Logger; requests: Logger } {
  const options: pino.LoggerOptions = {
    level: settings.level,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    // The level by name (`"level":"warn"`): what people filter on, without knowing pino's numbers.
    formatters: { level: (label) => ({ level: label }) },
  };
  // Synchronous writes: a line written just before the process exits (a failed start, a signal) is not lost.
  const destination =
    settings.format === 'json'
      ? pino.destination({ dest: 2, sync: true })
      : { write: (line: string) => void process.stderr.write(prettyLine(line)) };
  return {
    logger: pino({ ...options, redact: { paths: REDACT_PATHS, censor: REDACTED } }, destination),
    requests: pino(options, destination),
  };
}

let loggers = createLoggers(DEFAULT_LOG_SETTINGS);

/** main.ts: the level and format of RELAY_LOG_LEVEL and RELAY_LOG_FORMAT (config.ts checked them). */
export function configureLog(settings: LogSettings): void {
  loggers = createLoggers(settings);
}

/**
 * A request's line (relay/http/request-log.ts). Only these fields, each a name, number or id the relay made or
 * checked — never a credential (the request id a client sends is refused when it looks like one) — so the line
 * needs no redaction.
 */
export interface RequestLine {
  requestId: string;
  method: string;
  route: string;
  status: number;
  durationMs: number;
  deviceId?: string;
  keyId?: string;
  aborted?: true;
}

/** CREDENTIAL_SHAPE for a test (without the global flag, which would carry state from one test to the next). */
const CREDENTIAL_TEST = new RegExp(CREDENTIAL_SHAPE.source);

/** Whether a text holds something shaped like one of the relay's credentials. */
export const hasCredential = (text: string): boolean => CREDENTIAL_TEST.test(text);

export const log = {
  info: (message: string, fields: LogFields = {}): void => loggers.logger.info(fields, scrub(message)),
  warn: (message: string, fields: LogFields = {}): void => loggers.logger.warn(fields, scrub(message)),
  error: (message: string, fields: LogFields = {}): void => loggers.logger.error(fields, scrub(message)),
  /** A request's line: an error when the relay failed (5xx), else information. */
  request: (line: RequestLine): void => {
    if (line.status >= 500) loggers.requests.error(line, 'request');
    else loggers.requests.info(line, 'request');
  },
};
