// What the relay benchmarks share: a relay process pinned to the server CPU, calls to it, and the computer's
// side of the device stream (a `ws` client that acknowledges what it receives, as the desktop does).

import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import WebSocket from 'ws';
import type { Outbound } from '../../relay/core/outbound.js';
import { eventBody, eventId } from '../../relay/core/reply-events.js';
import { sendWebhook } from '../../relay/core/webhooks.js';
import { listeningPort, makeKey, pairDevice, relayMain, type RelayCall } from '../../rigs/relay.js';
import { request } from './http.js';
import { option } from './options.js';
import { makeTempFolder, ROOT, SERVER_CPU, spawnPinned, stopChild } from './processes.js';

/** Limits out of the way: a benchmark measures the relay's work, not its refusals. */
export const UNLIMITED: Record<string, string> = {
  RATE_LIMIT_PER_KEY: '1000000000',
  DEVICE_NOTIFICATIONS_PER_DAY: '1000000000',
  DEVICE_QUEUE_MAX: '1000000000',
  DEVICE_REQUESTS_PER_DAY: '1000000000',
  DEVICE_POLL_SECONDS_PER_DAY: '1000000000',
  MAX_DEVICES: '1000000',
  PAIR_STARTS_PER_HOUR: '1000000',
  PAIR_STARTS_GLOBAL_PER_HOUR: '1000000',
};

export interface RelayNode {
  child: ChildProcess;
  pid: number;
  port: number;
  baseUrl: string;
  call: RelayCall;
  log(): string;
  /** SIGTERM, and wait until it has exited (it closes its database, and writes a CPU profile it was asked for). */
  stop(): Promise<void>;
}

/** Calls through kit/http.ts's request (one keep-alive connection), JSON in and out. */
export function relayCall(baseUrl: string): RelayCall {
  return async (method, route, options) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const answer = await request(`${baseUrl}${route}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    let json: unknown;
    try {
      json = JSON.parse(answer.body);
    } catch {
      json = undefined;
    }
    return { status: answer.status, json, text: answer.body };
  };
}

/**
 * The relay the benchmarks start: this build's, or `--relay <dist/relay/main.js>` of another build (an earlier
 * commit built elsewhere), to measure before and after in one session.
 */
const RELAY_MAIN = path.resolve(option('relay') ?? relayMain(ROOT));

export interface RelayOptions {
  /** Its environment over this process's, a fresh data folder, a random secret and UNLIMITED. */
  env?: Record<string, string>;
  /** Node's own flags (`--cpu-prof`, say). */
  nodeArgs?: string[];
  /** The server CPU unless given. */
  cpu?: number;
}

/** A relay process on a CPU of its own, its limits out of the way (UNLIMITED). */
export async function startRelayNode({ env = {}, nodeArgs = [], cpu = SERVER_CPU }: RelayOptions = {}): Promise<RelayNode> {
  const dataDir = await makeTempFolder('notifier-bench-relay-');
  const child = spawnPinned(cpu, process.execPath, [...nodeArgs, RELAY_MAIN], ['ignore', 'pipe', 'pipe'], {
    ...process.env,
    RELAY_PORT: '0',
    RELAY_DATA_DIR: dataDir,
    RELAY_SECRET: randomBytes(32).toString('hex'),
    RELAY_DRAIN_S: '0', // stopped at once when a measurement ends: nothing is in flight then
    ...UNLIMITED,
    ...env,
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const port = await listeningPort(child, () => stderr);
  const baseUrl = `http://127.0.0.1:${port}`;
  return { child, pid: child.pid!, port, baseUrl, call: relayCall(baseUrl), log: () => stderr, stop: () => stopChild(child) };
}

/** What a benchmark's run gives to start relay nodes (bench/lib.ts, Run). */
interface RelayStarter {
  startRelay(need?: { env?: Record<string, string>; database?: 'postgres' }): Promise<RelayNode>;
  newDatabase(): Promise<string>;
}

/** How a latency benchmark runs its relay set-ups: their environment, and what the second of two nodes does. */
interface SetupOptions {
  env?: Record<string, string>;
  /** What node B does while the computer's socket is on A: "agent" (it takes the notifications), "subscribed"... */
  onB: string;
  /** The two single nodes stay up and are handed back (the caller stops them); else each stops after its step. */
  keep?: boolean;
}

/** The latencies of each set-up, as rows for printLatencies (kit/print.ts) after the benchmark's baseline. */
interface SetupLatencies {
  oneNode: number[];
  onePg: number[];
  crossNode: number[];
  rows: Array<[string, number[]]>;
}

/**
 * Steps 2 to 4 of 4 of a relay latency benchmark, one after another: `measure(socketNode, otherNode)` on one
 * relay node on the embedded database, on one on PostgreSQL, then on two nodes sharing one PostgreSQL (the
 * computer's socket on A), stopped after.
 */
export async function measureRelaySetups(
  run: RelayStarter,
  setup: SetupOptions & { keep: true },
  measure: (socketNode: RelayNode, otherNode: RelayNode) => Promise<number[]>,
): Promise<SetupLatencies & { embedded: RelayNode; single: RelayNode }>;
export async function measureRelaySetups(
  run: RelayStarter,
  setup: SetupOptions,
  measure: (socketNode: RelayNode, otherNode: RelayNode) => Promise<number[]>,
): Promise<SetupLatencies>;
export async function measureRelaySetups(
  run: RelayStarter,
  { env = {}, onB, keep = false }: SetupOptions,
  measure: (socketNode: RelayNode, otherNode: RelayNode) => Promise<number[]>,
): Promise<SetupLatencies & { embedded: RelayNode; single: RelayNode }> {
  console.log('2/4 one relay node, embedded database ...');
  const embedded = await run.startRelay({ env });
  const oneNode = await measure(embedded, embedded);
  if (!keep) await embedded.stop();
  console.log('3/4 one relay node, PostgreSQL ...');
  const single = await run.startRelay({ env, database: 'postgres' });
  const onePg = await measure(single, single);
  if (!keep) await single.stop();
  console.log(`4/4 two relay nodes on one PostgreSQL: socket on A, ${onB} on B ...`);
  const shared = { ...env, DATABASE_URL: await run.newDatabase(), RELAY_SECRET: randomBytes(32).toString('hex') };
  const a = await run.startRelay({ env: shared });
  const b = await run.startRelay({ env: shared });
  const crossNode = await measure(a, b);
  await Promise.all([a.stop(), b.stop()]);
  const rows: Array<[string, number[]]> = [
    ['relay, 1 node, embedded (durable)', oneNode],
    ['relay, 1 node, PostgreSQL', onePg],
    [`relay, 2 nodes, PostgreSQL (A socket, B ${onB})`, crossNode],
  ];
  return { oneNode, onePg, crossNode, rows, embedded, single };
}

/** A paired computer with one agent key. */
export async function pairWithKey(node: RelayNode): Promise<{ deviceId: string; token: string; key: string }> {
  const device = await pairDevice(node.call);
  return { ...device, key: await makeKey(node.call, device.token) };
}

/** A frame from the relay, as the computer reads it. */
export type Frame = { type: string; id?: string; notificationId?: string; [field: string]: unknown };

/**
 * The computer's socket: calls `onFrame` for every JSON frame and, like the desktop, acknowledges every
 * notification. Resolves once the welcome arrived.
 */
export function connectDevice(
  port: number,
  token: string,
  onFrame: (frame: Frame) => void = () => undefined,
  options: { ack?: boolean } = {},
): Promise<WebSocket> {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/v1/device/stream`, { headers: { authorization: `Bearer ${token}` } });
  return new Promise((resolve, reject) => {
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Frame;
      if (frame.type === 'welcome') resolve(socket);
      if (frame.type === 'notify' && options.ack !== false) socket.send(JSON.stringify({ type: 'ack', id: frame.id }));
      onFrame(frame);
    });
    socket.once('error', reject);
    socket.once('unexpected-response', (_req, res) => reject(new Error(`the relay refused the socket: ${res.statusCode}`)));
  });
}

/** Notification bodies agents typically send (each connection of a load cycles through them). */
export const NOTIFY_BODIES = [
  { title: 'Build 1742 passed', body: 'main @ 3f2a1c · 412 tests in 3m 12s', project: 'notifier', status: 'done' },
  { title: 'Tests failed', body: 'feature/search @ 9b07de · 2 failing tests in history.test.ts', status: 'failed', priority: 'high' },
  { title: 'Deploy to staging?', body: 'Release 2026.11.3 is ready. Reply yes to deploy.', expectReply: true, tags: ['deploy', 'staging'] },
  { title: 'Backup finished', body: 'Home folder: 18,204 files, 2.3 GB copied to nas-01 in 4m 51s', task: 'backup', duration: 291 },
];

/**
 * The baseline of bench:relay-events: the least a relay could do to send an event — the event `n` signed and
 * posted with the relay's own webhook and outbound code, with no database, no queue and no claim.
 */
export async function sendBaselineEvent(outbound: Outbound, hook: { url: string; secret: string }, n: number): Promise<void> {
  const subscriptionId = `sub_${'0'.repeat(20)}`;
  const body = eventBody({ seq: n, rid: `r_${'0'.repeat(24)}`, nid: `b${n}`, kind: 'text', at: Date.now() }, subscriptionId);
  const message = { id: eventId(n, subscriptionId), subscriptionId, secret: hook.secret, body };
  const answer = await sendWebhook({ clock: Date.now, outbound }, hook.url, message);
  if (answer.status !== 200) throw new Error(`the receiver answered ${answer.status}`);
}
