// The relay as a real process for black-box tests: the built dist/relay/main.js on a free port, with a temporary
// data folder and, for PostgreSQL, a fresh database on the run's private server. Every process is stopped by
// PID and every folder removed after the test file, also when a test fails.

import { afterAll, beforeAll } from '@jest/globals';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import {
  listeningPort,
  makeKey as makeKeyWith,
  pairDevice as pairDeviceWith,
  relayMain,
  type PairedDevice,
  type RelayCall,
} from '../../rigs/relay.js';
import { ROOT, tempFolder } from './daemon.js';
import { request, type Reply } from './http.js';
import { createDatabase } from './postgres.js';
import { keepTrackOf } from './keeper.js';

export const RELAY_MAIN = relayMain(ROOT);
export type { PairedDevice };

export type RelayBackend = 'sqlite' | 'postgres';
/** Every black-box suite runs on both. */
export const BACKENDS: RelayBackend[] = ['sqlite', 'postgres'];

/**
 * Pairing limits roomy enough for a test file that pairs a computer per test from one address; a test of those
 * limits sets its own values.
 */
export const ROOMY_PAIRING = { MAX_DEVICES: '1000', PAIR_STARTS_PER_HOUR: '1000', PAIR_STARTS_GLOBAL_PER_HOUR: '10000' };

export interface RelayOptions {
  backend: RelayBackend;
  /** More environment (limits...), over ROOMY_PAIRING. */
  env?: Record<string, string>;
  /** Share a database (scale-out): default a new one per relay. */
  databaseUrl?: string;
  /** Default: a new random one (several nodes of one relay need the same). */
  secret?: string | null;
  dataDir?: string;
  /** The `notifier-relay` to run, as a program of its own (an installed package's); default: this checkout's build. */
  program?: string;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string | string[]>;
  timeoutMs?: number;
}

export interface RelayProcess {
  readonly backend: RelayBackend;
  readonly port: number;
  readonly baseUrl: string;
  readonly pid: number;
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  readonly secret: string | undefined;
  /** What the relay printed on stderr so far. */
  log(): string;
  call(method: string, route: string, options?: CallOptions): Promise<Reply>;
  /** SIGTERM, and the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL: no clean-up at all (a crash). */
  kill(): Promise<void>;
}

const running = new Set<ChildProcess>();
const folders = new Set<string>();
afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  await Promise.all([...folders].map((folder) => rm(folder, { recursive: true, force: true })));
  folders.clear();
});

/** Spawns the relay and waits for its "listening" line and a healthy /health. */
export async function startRelay(options: RelayOptions): Promise<RelayProcess> {
  const dataDir = options.dataDir ?? (await tempFolder('notifier-relay-test-'));
  folders.add(dataDir);
  const databaseUrl = options.backend === 'postgres' ? (options.databaseUrl ?? (await createDatabase())) : undefined;
  const secret = options.secret === null ? undefined : (options.secret ?? randomBytes(32).toString('hex'));
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    RELAY_PORT: '0',
    RELAY_DATA_DIR: dataDir,
    RELAY_DRAIN_S: '0', // stop() closes at once; a test of draining sets its own
    ...ROOMY_PAIRING,
    ...options.env,
  };
  delete env.DATABASE_URL;
  delete env.RELAY_SECRET;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  if (secret) env.RELAY_SECRET = secret;
  const [command, args] = options.program ? [options.program, []] : [process.execPath, [RELAY_MAIN]];
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  keepTrackOf(child, options.program ?? RELAY_MAIN, options.dataDir === undefined ? dataDir : undefined);
  child.once('exit', () => running.delete(child));
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const port = await listeningPort(child, () => stderr);
  const health = await request(port, 'GET', '/health');
  if (health.status !== 200) throw new Error(`the relay is not healthy: ${health.status} ${health.text}`);

  return {
    backend: options.backend,
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    dataDir,
    databaseUrl,
    secret,
    log: () => stderr,
    call: (method, route, call = {}) =>
      request(port, method, route, { token: call.token ?? null, body: call.body, headers: call.headers, timeoutMs: call.timeoutMs }),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** One line of the relay's log (docs/relay.md, "Logs"). */
export type LogLine = Record<string, unknown> & { level: string; msg: string };

/**
 * The relay's JSON log lines in `text`, complete ones only (the pipe may have delivered half of the last); a line
 * that is not a JSON object fails the test that reads it.
 */
export function parseLogLines(text: string): LogLine[] {
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as LogLine;
      } catch {
        throw new Error(`a log line is not JSON: ${line}`);
      }
    });
}

/**
 * A relay for a test file (started before its tests, stopped after). Options given as a function are read when it
 * starts: what another helper's `beforeAll` makes (a webhook rig's environment) is there by then.
 */
export function useRelay(options: RelayOptions | (() => RelayOptions)): () => RelayProcess {
  let relay: RelayProcess | undefined;
  beforeAll(async () => {
    relay = await startRelay(typeof options === 'function' ? options() : options);
  });
  afterAll(async () => {
    await relay?.stop();
  });
  return () => relay!;
}

const caller =
  (relay: RelayProcess): RelayCall =>
  (method, route, options) =>
    relay.call(method, route, options);

/** Pairs a computer (start + pair) and returns its id and device token. */
export const pairDevice = (relay: RelayProcess, deviceName?: string, headers: Record<string, string> = {}): Promise<PairedDevice> =>
  pairDeviceWith(caller(relay), deviceName, headers);

/** Makes an agent key with the device token and returns it. */
export const makeKey = (relay: RelayProcess, deviceToken: string, name?: string): Promise<string> =>
  makeKeyWith(caller(relay), deviceToken, name);

/** The same credential with its last hex digit changed: well-shaped, and wrong. */
export const tampered = (credential: string): string => credential.slice(0, -1) + (credential.endsWith('0') ? '1' : '0');

/** A paired computer with one agent key. */
export async function pairWithKey(relay: RelayProcess, deviceName?: string): Promise<PairedDevice & { key: string }> {
  const device = await pairDevice(relay, deviceName);
  return { ...device, key: await makeKey(relay, device.token) };
}

/** Per-computer tables a test may count rows of (storedRows). */
type CountedTable = 'event_subs' | 'event_outbox' | 'oauth_tokens';

/**
 * How many rows of a computer a relay keeps in `table`, read from its database: for what no route shows, such as
 * waiting deliveries a rule says are dropped. The embedded database is read by a child process (read-only, so the
 * relay's own connection is undisturbed; and no better-sqlite3 object lives in the test process).
 */
export async function storedRows(relay: RelayProcess, table: CountedTable, deviceId: string): Promise<number> {
  const query = `select count(*) as n from ${table} where device_id = $1`;
  if (relay.databaseUrl) {
    const client = new pg.Client({ connectionString: relay.databaseUrl });
    await client.connect();
    try {
      return Number((await client.query<{ n: string }>(query, [deviceId])).rows[0]!.n);
    } finally {
      await client.end();
    }
  }
  const script =
    "const db = new (require('better-sqlite3'))(process.argv[1], { readonly: true, fileMustExist: true });" +
    'process.stdout.write(String(db.prepare(process.argv[2]).get(process.argv[3]).n));';
  const file = path.join(relay.dataDir, 'relay.sqlite');
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', script, file, query.replace('$1', '?'), deviceId], { cwd: ROOT });
  return Number(stdout);
}

/** The migration a newer relay would have run, written into a stopped embedded relay's database. */
export const FUTURE_MIGRATION = '999_from_the_future';

/**
 * Records FUTURE_MIGRATION in the embedded database of `dataDir`, as if a newer relay had run it there (in a child
 * process: no better-sqlite3 object in the test process).
 */
export async function addFutureMigration(dataDir: string): Promise<void> {
  const script =
    "const db = new (require('better-sqlite3'))(process.argv[1], { fileMustExist: true });" +
    "db.prepare('insert into relay_migrations (name, timestamp) values (?, ?)').run(process.argv[2], new Date().toISOString());";
  await promisify(execFile)(process.execPath, ['-e', script, path.join(dataDir, 'relay.sqlite'), FUTURE_MIGRATION], { cwd: ROOT });
}
