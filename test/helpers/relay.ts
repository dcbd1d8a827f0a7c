// The relay as a real process for black-box tests: the built dist/relay/main.js on a free port, with a temporary
// data folder and, for PostgreSQL, a fresh database on the run's private server. Every process is stopped by
// PID and every folder removed after the test file, also when a test fails.

import { afterAll, beforeAll } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { ROOT, tempFolder } from './daemon.js';
import { request, type Reply } from './http.js';
import { createDatabase } from './postgres.js';

export const RELAY_MAIN = path.join(ROOT, 'dist', 'relay', 'main.js');

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
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
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
  const env: Record<string, string> = { ...(process.env as Record<string, string>), RELAY_PORT: '0', RELAY_DATA_DIR: dataDir, ...ROOMY_PAIRING, ...options.env };
  delete env.DATABASE_URL;
  delete env.RELAY_SECRET;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  if (secret) env.RELAY_SECRET = secret;
  const child = spawn(process.execPath, [RELAY_MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const port = await new Promise<number>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`the relay did not start within 20 s:\n${stderr}`)), 20_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on http:\/\/[^:]+:(\d+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the relay exited (${code}) before listening:\n${stderr}`));
    });
  });
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
    call: (method, route, call = {}) => request(port, method, route, { token: call.token ?? null, body: call.body, headers: call.headers, timeoutMs: call.timeoutMs }),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** A relay for a test file (started before its tests, stopped after). */
export function useRelay(options: RelayOptions): () => RelayProcess {
  let relay: RelayProcess | undefined;
  beforeAll(async () => {
    relay = await startRelay(options);
  });
  afterAll(async () => {
    await relay?.stop();
  });
  return () => relay!;
}

export interface PairedDevice {
  deviceId: string;
  token: string;
}

/** Pairs a computer (start + pair) and returns its id and device token. */
export async function pairDevice(relay: RelayProcess, deviceName?: string, headers: Record<string, string> = {}): Promise<PairedDevice> {
  const body = deviceName === undefined ? {} : { deviceName };
  const started = await relay.call('POST', '/v1/pair/start', { body, headers });
  if (started.status !== 201) throw new Error(`pair/start answered ${started.status}: ${started.text}`);
  const paired = await relay.call('POST', '/v1/pair', { body: { code: started.json.code, ...body } });
  if (paired.status !== 200) throw new Error(`pair answered ${paired.status}: ${paired.text}`);
  return { deviceId: paired.json.deviceId, token: paired.json.deviceToken };
}

/** Makes an agent key with the device token and returns it. */
export async function makeKey(relay: RelayProcess, deviceToken: string, name = `agent-${randomBytes(3).toString('hex')}`): Promise<string> {
  const made = await relay.call('POST', '/v1/device/keys', { token: deviceToken, body: { name } });
  if (made.status !== 201) throw new Error(`key creation answered ${made.status}: ${made.text}`);
  return made.json.key as string;
}

/** A paired computer with one agent key. */
export async function pairWithKey(relay: RelayProcess, deviceName?: string): Promise<PairedDevice & { key: string }> {
  const device = await pairDevice(relay, deviceName);
  return { ...device, key: await makeKey(relay, device.token) };
}
