// The relay's configuration, all from environment variables (docs/relay.md, "Configuration"). Every problem is
// found at start and reported together, so a deployment never runs with a value it did not mean.

import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_MAX_NOTIFY_BODY_BYTES } from '../protocol/relay/limits.js';
import { outboundSettingsFromEnv, publicHostProblem, type OutboundSettings } from './host-rules.js';
import { DEFAULT_DRAIN_S, DEFAULTS, MAX_DRAIN_S, type Limits } from './limits.js';
import { DEFAULT_LOG_SETTINGS, LOG_FORMATS, LOG_LEVELS, type LogSettings } from './log.js';

export interface RelayConfig {
  port: number;
  host: string;
  /** RELAY_SECRET, or undefined: then main.ts keeps one in the data folder (resolveSecret). */
  secret: string | undefined;
  dataDir: string;
  /** A postgres:// URL: PostgreSQL holds the state; otherwise the embedded database in dataDir. */
  databaseUrl: string | undefined;
  /** How many proxies in front of the relay set X-Forwarded-For/-Proto/-Host (0: none is trusted). */
  trustProxy: number;
  pairingSecret: string | undefined;
  limits: Limits;
  /** EVENT_CALLBACK_HOSTS: the only hosts webhooks may go to (empty: any public host). */
  eventCallbackHosts: string[];
  /** HTTPS_PROXY and NO_PROXY: how the relay's own requests go out. */
  outbound: OutboundSettings;
  /** RELAY_LOG_LEVEL and RELAY_LOG_FORMAT (docs/relay.md, "Logs"). */
  log: LogSettings;
  /** RELAY_METRICS_PORT / _HOST / _TOKEN: where GET /metrics is served (docs/relay.md, "Metrics"). */
  metrics: MetricsSettings;
  /** RELAY_DRAIN_S: seconds between SIGTERM (/ready turns 503) and closing the connections (docs/relay.md). */
  drainSeconds: number;
}

export interface MetricsSettings {
  /** A second listener for /metrics only; undefined: none. */
  port: number | undefined;
  host: string;
  /** A bearer token that opens /metrics on the main port; undefined: /metrics is not there. */
  token: string | undefined;
}

/** The metrics listener stays private unless told otherwise: a scraper runs next to the relay. */
const DEFAULT_METRICS_HOST = '127.0.0.1';
/** As for RELAY_SECRET: a token a scraper sends must not be guessable. */
const MIN_METRICS_TOKEN_CHARS = 16;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`the relay's configuration is not valid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Environment variable -> limit, with whether fractions are allowed. */
const LIMIT_VARIABLES: [string, keyof Limits, 'whole' | 'fraction'][] = [
  ['MAX_DEVICES', 'maxDevices', 'whole'],
  ['PAIR_STARTS_PER_HOUR', 'pairStartsPerHour', 'whole'],
  ['PAIR_STARTS_GLOBAL_PER_HOUR', 'pairStartsGlobalPerHour', 'whole'],
  ['RATE_LIMIT_PER_KEY', 'rateLimitPerKey', 'whole'],
  ['DEVICE_NOTIFICATIONS_PER_DAY', 'deviceNotificationsPerDay', 'whole'],
  ['DEVICE_QUEUE_MAX', 'deviceQueueMax', 'whole'],
  ['DEVICE_REQUESTS_PER_DAY', 'deviceRequestsPerDay', 'whole'],
  ['DEVICE_AUDIO_UPLOADS_PER_DAY', 'deviceAudioUploadsPerDay', 'whole'],
  ['DEVICE_AUDIO_BYTES_PER_DAY', 'deviceAudioBytesPerDay', 'whole'],
  ['DEVICE_POLL_SECONDS_PER_DAY', 'devicePollSecondsPerDay', 'whole'],
  ['QUEUE_TTL_HOURS', 'queueTtlHours', 'fraction'],
  ['MAX_BODY_BYTES', 'maxBodyBytes', 'whole'],
  ['REGISTER_PER_HOUR', 'registerPerHour', 'whole'],
];

/** The shortest RELAY_SECRET accepted: it signs every device id, so it must not be guessable. */
const MIN_SECRET_CHARS = 16;

/** Reads the configuration from `env`; throws a ConfigError naming every variable that does not parse. */
export function loadConfig(env: NodeJS.ProcessEnv): RelayConfig {
  const problems: string[] = [];
  const given = (name: string): string | undefined => (env[name] === undefined || env[name] === '' ? undefined : env[name]);

  const limits: Limits = { ...DEFAULTS, maxBodyBytes: DEFAULT_MAX_NOTIFY_BODY_BYTES };
  for (const [name, key, kind] of LIMIT_VARIABLES) {
    const text = given(name);
    if (text === undefined) continue;
    const value = Number(text);
    if (!/^\s*[0-9.eE+]+\s*$/.test(text) || !Number.isFinite(value) || value <= 0)
      problems.push(`${name} must be a positive number (got ${JSON.stringify(text)})`);
    else if (kind === 'whole' && !Number.isSafeInteger(value))
      problems.push(`${name} must be a positive whole number (got ${JSON.stringify(text)})`);
    else limits[key] = value;
  }

  const port = parsePort('RELAY_PORT', given('RELAY_PORT'), DEFAULTS.port, problems);
  const secret = given('RELAY_SECRET');
  if (secret !== undefined && secret.length < MIN_SECRET_CHARS)
    problems.push(`RELAY_SECRET must have at least ${MIN_SECRET_CHARS} characters`);
  const databaseUrl = given('DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must be a postgres:// (or postgresql://) URL; leave it unset for the embedded database');
  }
  const trustProxy = parseTrustProxy(given('RELAY_TRUST_PROXY'), problems);
  const drainSeconds = parseDrainSeconds(given('RELAY_DRAIN_S'), problems);
  const eventCallbackHosts = parseCallbackHosts(given('EVENT_CALLBACK_HOSTS'), problems);
  const outbound = outboundSettingsFromEnv(env);
  problems.push(...outbound.problems);
  const log = parseLogSettings(given('RELAY_LOG_LEVEL'), given('RELAY_LOG_FORMAT'), problems);
  const metrics = parseMetrics(given, problems);

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    port,
    host: given('RELAY_HOST') ?? DEFAULTS.host,
    secret,
    dataDir: path.resolve(given('RELAY_DATA_DIR') ?? defaultDataDir(env)),
    databaseUrl,
    trustProxy,
    pairingSecret: given('PAIRING_SECRET'),
    limits,
    eventCallbackHosts,
    outbound: outbound.settings,
    log,
    metrics,
    drainSeconds,
  };
}

/** RELAY_LOG_LEVEL: one of pino's level names; RELAY_LOG_FORMAT: `json` (a log shipper) or `pretty` (a terminal). */
function parseLogSettings(level: string | undefined, format: string | undefined, problems: string[]): LogSettings {
  const settings = { ...DEFAULT_LOG_SETTINGS };
  const levelWord = level?.trim().toLowerCase();
  if (levelWord !== undefined) {
    if ((LOG_LEVELS as readonly string[]).includes(levelWord)) settings.level = levelWord as LogSettings['level'];
    else problems.push(`RELAY_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got ${JSON.stringify(level)})`);
  }
  const formatWord = format?.trim().toLowerCase();
  if (formatWord !== undefined) {
    if ((LOG_FORMATS as readonly string[]).includes(formatWord)) settings.format = formatWord as LogSettings['format'];
    else problems.push(`RELAY_LOG_FORMAT must be ${LOG_FORMATS.join(' or ')} (got ${JSON.stringify(format)})`);
  }
  return settings;
}

function parseMetrics(given: (name: string) => string | undefined, problems: string[]): MetricsSettings {
  const port = parsePort('RELAY_METRICS_PORT', given('RELAY_METRICS_PORT'), undefined, problems);
  const token = given('RELAY_METRICS_TOKEN');
  if (token !== undefined && token.length < MIN_METRICS_TOKEN_CHARS)
    problems.push(`RELAY_METRICS_TOKEN must have at least ${MIN_METRICS_TOKEN_CHARS} characters`);
  return { port, host: given('RELAY_METRICS_HOST') ?? DEFAULT_METRICS_HOST, token };
}

/** docs/relay-api.md#ra203: a comma-separated list of public host names, each lower-cased, a final dot dropped. */
function parseCallbackHosts(text: string | undefined, problems: string[]): string[] {
  const hosts = (text ?? '')
    .split(',')
    .map((host) => host.trim().toLowerCase().replace(/\.$/, ''))
    .filter((host) => host !== '');
  for (const host of hosts) {
    if (!/^[a-z0-9.-]+$/.test(host) || publicHostProblem(host) !== undefined)
      problems.push(`EVENT_CALLBACK_HOSTS must list public host names (such as hooks.example.org); ${JSON.stringify(host)} is not one`);
  }
  return [...new Set(hosts)];
}

/** The largest port number there is. */
const MAX_PORT = 65535;

/**
 * A whole number from 0 to `max`, in digits: `fallback` when the variable is unset, and when it is not such a number
 * (then `${name} must be ${what}` is a problem).
 */
function wholeUpTo<T>(name: string, text: string | undefined, max: number, fallback: T, what: string, problems: string[]): number | T {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value > max) {
    problems.push(`${name} must be ${what} (got ${JSON.stringify(text)})`);
    return fallback;
  }
  return value;
}

/** 1 to 65535; 0 asks the system for a free port (the relay prints the one it got). */
const parsePort = <T>(name: string, text: string | undefined, fallback: T, problems: string[]): number | T =>
  wholeUpTo(name, text, MAX_PORT, fallback, `a port number from 1 to ${MAX_PORT}, or 0 for any free port`, problems);

/**
 * Whole seconds, 0 to MAX_DRAIN_S: long enough for a load balancer to see /ready fail and stop sending, shorter than
 * what a supervisor waits before SIGKILL (Kubernetes' default terminationGracePeriodSeconds is 30).
 */
const parseDrainSeconds = (text: string | undefined, problems: string[]): number =>
  wholeUpTo('RELAY_DRAIN_S', text, MAX_DRAIN_S, DEFAULT_DRAIN_S, `a whole number of seconds from 0 to ${MAX_DRAIN_S}`, problems);

/** `true`/`yes`/`1`: one proxy in front; a larger number: that many; `false`/`no`/`0`/unset: none. */
function parseTrustProxy(text: string | undefined, problems: string[]): number {
  if (text === undefined) return 0;
  const word = text.trim().toLowerCase();
  if (['true', 'yes', 'on'].includes(word)) return 1;
  if (['false', 'no', 'off'].includes(word)) return 0;
  if (/^\d+$/.test(word)) return Number(word);
  problems.push(`RELAY_TRUST_PROXY must be true, false or the number of proxies in front of the relay (got ${JSON.stringify(text)})`);
  return 0;
}

/** The XDG data folder: `$XDG_DATA_HOME/notifier-relay`, else `~/.local/share/notifier-relay`. */
function defaultDataDir(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_DATA_HOME && path.isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : path.join(os.homedir(), '.local', 'share');
  return path.join(base, 'notifier-relay');
}

export const SECRET_FILE = 'relay-secret';

/**
 * RELAY_SECRET when set; otherwise the secret kept in the data folder, made on first start (32 random bytes,
 * file mode 0600). `made` says whether it was made now, so main.ts can say so.
 */
export function resolveSecret(config: RelayConfig): { secret: string; source: 'environment' | 'file'; file?: string; made: boolean } {
  if (config.secret !== undefined) return { secret: config.secret, source: 'environment', made: false };
  const file = path.join(config.dataDir, SECRET_FILE);
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    return { secret: readSecretFile(file), source: 'file', file, made: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { secret: readSecretFile(file), source: 'file', file, made: false };
  }
}

function readSecretFile(file: string): string {
  const secret = readFileSync(file, 'utf8').trim();
  if (secret.length < MIN_SECRET_CHARS)
    throw new ConfigError([`${file} holds no usable secret: delete it to make a new one (every computer must then pair again)`]);
  return secret;
}
