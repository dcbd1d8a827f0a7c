// Reply events: how soon an agent's webhook hears of a reply, and how many events a second the outbox delivers.
//   npm run bench:relay-events [-- --rounds 300 --warmup 30 --replies 100 --idle 10]
// Measured in one run, webhooks going over real TLS through a CONNECT proxy (HTTPS_PROXY) to a receiver that
// verifies each request with `standardwebhooks` (both in this process, on CPU 1; relay nodes on CPU 0):
//   - latency, one reply at a time: the computer's reply on its socket -> the webhook request received.
//     Baseline: this process sends the same signed request itself, through the same proxy, to the same receiver.
//     Scenarios: one node (embedded database), one node (PostgreSQL), two nodes on one PostgreSQL (the socket
//     on A; whichever node claims the event delivers it).
//   - throughput: 4 connectors x 5 subscriptions, each replaying `--replies` events at once (a cursor), delivered
//     to a receiver that answers 200: events per second until the last arrives. Baseline: a process pinned where
//     the relay runs signing and sending as many with the relay's outbound module, 32 at a time, with no
//     database (bench/webhook-send-baseline.ts). Then the same load against a receiver that answers 503: the first
//     attempts, then the relay's CPU over `--idle` seconds while every event waits for its retry.

import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type WebSocket from 'ws';
import { Outbound } from '../relay/core/outbound.js';
import { makeKey } from '../rigs/relay.js';
import { ConnectProxy, makeCertificates, modernRequest, newWebhookSecret, WebhookReceiver, type Certificates } from '../rigs/webhooks.js';
import { defineBenchmark } from './lib.js';
import { int, ms, percentile, printLatencies, printTable, ratio, verdict } from './kit/print.js';
import { cpuMs } from './kit/proc.js';
import { BENCH_DIST, firstLine, SERVER_CPU, sleep, spawnPinned, stopChild } from './kit/processes.js';
import { connectDevice, measureRelaySetups, pairWithKey, sendBaselineEvent, type Frame, type RelayNode } from './kit/relay.js';

const CONNECTORS = 4;
const SUBSCRIPTIONS_EACH = 5;
const TARGET_P50_MS = 100;
const HOSTS = ['hooks.example.com', 'agent.example.org', 'elsewhere.example.net'];

/** The options: replies latency rounds (after `warmup`), events per connector in the throughput runs, seconds of waiting measured. */
interface Counts {
  rounds: number;
  warmup: number;
  replies: number;
  idle: number;
}

interface Rig {
  counts: Counts;
  certificates: Certificates;
  receiver: WebhookReceiver;
  proxy: ConnectProxy;
  env: Record<string, string>;
}

let hooks = 0;
/** A new callback path on the receiver, verified with its own secret. */
function newHook(rig: Rig, host = HOSTS[hooks % HOSTS.length]!): { url: string; secret: string; path: string } {
  const path = `/bench/${++hooks}`;
  const secret = newWebhookSecret();
  rig.receiver.secrets.set(path, secret);
  return { url: `https://${host}${path}`, secret, path };
}

async function subscribe(node: RelayNode, key: string, hook: { url: string; secret: string }, cursor?: string): Promise<void> {
  const params = {
    name: 'notification.reply',
    delivery: { mode: 'webhook', url: hook.url, secret: hook.secret },
    ...(cursor && { cursor }),
  };
  const { body, headers } = modernRequest('events/subscribe', params);
  const answer = await node.call('POST', '/mcp', { token: key, body, headers });
  if (!answer.json?.result?.id) throw new Error(`events/subscribe failed: ${answer.text}`);
}

/** The computer's socket, keeping each notification's relay id by its notificationId. */
async function computer(node: RelayNode, token: string): Promise<{ socket: WebSocket; rid: (nid: string) => Promise<string> }> {
  const rids = new Map<string, string>();
  const waiting = new Map<string, (rid: string) => void>();
  const onFrame = (frame: Frame): void => {
    if (frame.type !== 'notify') return;
    rids.set(frame.notificationId!, frame.id!);
    waiting.get(frame.notificationId!)?.(frame.id!);
  };
  const socket = await connectDevice(node.port, token, onFrame);
  const rid = (nid: string): Promise<string> =>
    rids.has(nid) ? Promise.resolve(rids.get(nid)!) : new Promise((resolve) => waiting.set(nid, resolve));
  return { socket, rid };
}

const reply = (socket: WebSocket, rid: string): void =>
  socket.send(JSON.stringify({ type: 'receipt', id: rid, kind: 'replied', text: 'yes' }));

// --- Latency ------------------------------------------------------------------------------------------------------

/** Reply on `socketNode`'s socket -> webhook received; the subscription made through `agentNode`. */
async function measureLatency(rig: Rig, socketNode: RelayNode, agentNode: RelayNode): Promise<number[]> {
  const device = await pairWithKey(socketNode);
  const hook = newHook(rig, HOSTS[0]);
  await subscribe(agentNode, device.key, hook);
  const { socket, rid } = await computer(socketNode, device.token);
  const { rounds, warmup } = rig.counts;
  const samples: number[] = [];
  for (let i = 0; i < warmup + rounds; i++) {
    const nid = `lat-${i}`;
    const sent = await agentNode.call('POST', '/v1/notify', {
      token: device.key,
      body: { title: 'Deploy?', notificationId: nid, expectReply: true },
    });
    if (sent.status !== 202) throw new Error(`notify answered ${sent.status}`);
    const id = await rid(nid);
    const arrived = rig.receiver.waitFor((request) => request.path === hook.path && request.json?.data?.notificationId === nid, nid);
    const started = performance.now();
    reply(socket, id);
    const request = await arrived;
    if (request.verified !== true) throw new Error(`a webhook did not verify: ${request.verified}`);
    if (i >= warmup) samples.push(request.at - started);
  }
  socket.close();
  return samples;
}

async function measureBaselineLatency(rig: Rig): Promise<number[]> {
  const outbound = new Outbound({ proxy: new URL(rig.proxy.url), noProxy: [], extraCA: [rig.certificates.ca] });
  const hook = newHook(rig, HOSTS[0]);
  const { rounds, warmup } = rig.counts;
  const samples: number[] = [];
  for (let i = 0; i < warmup + rounds; i++) {
    const arrived = rig.receiver.waitFor((request) => request.path === hook.path && request.json?.cursor === String(i), `baseline ${i}`);
    const started = performance.now();
    await sendBaselineEvent(outbound, hook, i);
    if (i >= warmup) samples.push((await arrived).at - started);
  }
  outbound.close();
  return samples;
}

// --- Throughput ---------------------------------------------------------------------------------------------------

/** Connectors whose `replies` notifications each were answered, with their subscriptions (not yet replaying). */
async function prepareLoad(rig: Rig, node: RelayNode): Promise<{ renew: () => Promise<void>; paths: string[]; done: () => void }> {
  const device = await pairWithKey(node);
  const keys = [device.key];
  for (let i = 1; i < CONNECTORS; i++) keys.push(await makeKey(node.call, device.token, `bench-load-${i}`));
  const { socket, rid } = await computer(node, device.token);
  const { replies } = rig.counts;
  for (const [k, key] of keys.entries()) {
    for (let i = 0; i < replies; i++) {
      const nid = `load-${k}-${i}`;
      await node.call('POST', '/v1/notify', { token: key, body: { title: 'Deploy?', notificationId: nid, expectReply: true } });
      reply(socket, await rid(nid));
    }
    const last = `load-${k}-${replies - 1}`;
    while (!(await node.call('GET', `/v1/receipts/${last}`, { token: key })).json?.replied) await sleep(20);
  }
  const subscriptions = keys.flatMap((key) => Array.from({ length: SUBSCRIPTIONS_EACH }, () => ({ key, hook: newHook(rig) })));
  for (const { key, hook } of subscriptions) await subscribe(node, key, hook);
  return {
    // Subscribing again with cursor 0 replays every reply: `replies` events queued for each subscription at once.
    renew: async () => void (await Promise.all(subscriptions.map(({ key, hook }) => subscribe(node, key, hook, '0')))),
    paths: subscriptions.map(({ hook }) => hook.path),
    done: () => socket.close(),
  };
}

async function waitForEvents(rig: Rig, paths: string[], count: number, timeoutMs = 300_000): Promise<number> {
  const wanted = new Set(paths);
  const deadline = Date.now() + timeoutMs;
  const counted = () => rig.receiver.received.filter((request) => wanted.has(request.path) && request.json?.type !== 'verification').length;
  while (counted() < count) {
    if (Date.now() > deadline) throw new Error(`only ${counted()} of ${count} events arrived`);
    await sleep(5);
  }
  return performance.now();
}

interface Throughput {
  events: number;
  seconds: number;
  cpuMs?: number;
}

async function measureThroughput(rig: Rig, node: RelayNode): Promise<Throughput> {
  const load = await prepareLoad(rig, node);
  const total = load.paths.length * rig.counts.replies;
  const cpuBefore = await cpuMs(node.pid);
  const started = performance.now();
  await load.renew();
  const finished = await waitForEvents(rig, load.paths, total);
  const cpu = (await cpuMs(node.pid)) - cpuBefore;
  load.done();
  const bad = rig.receiver.received.filter((request) => load.paths.includes(request.path) && request.verified !== true).length;
  if (bad > 0) throw new Error(`${bad} webhooks did not verify`);
  return { events: total, seconds: (finished - started) / 1000, cpuMs: cpu };
}

/** bench/webhook-send-baseline.ts, pinned where the relay runs: as many signed events, 32 at a time. */
async function measureBaselineThroughput(rig: Rig): Promise<Throughput> {
  const hooks = Array.from({ length: CONNECTORS * SUBSCRIPTIONS_EACH }, () => newHook(rig));
  const total = hooks.length * rig.counts.replies;
  const job = { proxy: rig.proxy.url, caFile: rig.certificates.caFile, hooks, total, concurrency: 32 };
  const child = spawnPinned(
    SERVER_CPU,
    process.execPath,
    [path.join(BENCH_DIST, 'webhook-send-baseline.js')],
    ['ignore', 'pipe', 'inherit'],
    {
      ...process.env,
      BENCH_WEBHOOKS: JSON.stringify(job),
    },
  );
  const seconds = Number(await firstLine(child.stdout!));
  await stopChild(child);
  if (rig.receiver.received.filter((request) => hooks.some((hook) => hook.path === request.path)).length !== total)
    throw new Error('the baseline did not deliver every event');
  return { events: total, seconds };
}

/** The receiver answers 503: the first attempts (one per subscription: the rest wait behind them), then the idle CPU. */
async function measureFailing(rig: Rig, node: RelayNode): Promise<{ firstAttemptsMs: number; waiting: number; idleCpuMs: number }> {
  const load = await prepareLoad(rig, node);
  const failing = new Set(load.paths);
  const echo = rig.receiver.answer;
  rig.receiver.answer = (request) => (failing.has(request.path) && request.json?.type !== 'verification' ? { status: 503 } : echo(request));
  try {
    const started = performance.now();
    await load.renew();
    const firstAttempts = await waitForEvents(rig, load.paths, load.paths.length);
    await sleep(500); // the outcomes are written
    const before = await cpuMs(node.pid);
    await sleep(rig.counts.idle * 1000);
    const idleCpuMs = (await cpuMs(node.pid)) - before;
    load.done();
    return { firstAttemptsMs: firstAttempts - started, waiting: load.paths.length * rig.counts.replies, idleCpuMs };
  } finally {
    rig.receiver.answer = echo;
  }
}

await defineBenchmark({
  title: 'Notifier relay benchmark: reply events (reply -> signed webhook, over TLS through a CONNECT proxy)',
  options: { rounds: 300, warmup: 30, replies: 100, idle: 10 },
  needs: { postgres: true },
  async measure({ options, tempFolder, startRelay, newDatabase, atEnd }) {
    const { rounds, warmup, idle, replies } = options;
    const certificates = await makeCertificates(await tempFolder('notifier-bench-events-'), HOSTS);
    const receiver = await WebhookReceiver.start(certificates);
    atEnd(() => receiver.close());
    const proxy = await ConnectProxy.start(receiver.port, HOSTS);
    atEnd(() => proxy.close());
    const env = { HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: certificates.caFile };
    const rig: Rig = { counts: options, certificates, receiver, proxy, env };
    console.log(`\nlatency: ${rounds} replies one at a time after ${warmup} warm-up rounds, per scenario`);
    console.log('1/4 baseline: this process sends the signed request itself ...');
    const baseline = await measureBaselineLatency(rig);
    const { oneNode, crossNode, rows, embedded, single } = await measureRelaySetups(
      { startRelay, newDatabase },
      { env: rig.env, onB: 'subscribed', keep: true },
      (socketNode, subscribedNode) => measureLatency(rig, socketNode, subscribedNode),
    );

    console.log('');
    printLatencies([['baseline: a signed POST from this process', baseline], ...rows]);
    for (const [name, samples] of [
      ['one node', oneNode],
      ['two nodes', crossNode],
    ] as const) {
      const p50 = percentile(samples, 50);
      console.log(`${name} p50 = ${ms(p50)} (target < ${TARGET_P50_MS} ms): ${verdict(p50 < TARGET_P50_MS)}`);
    }

    const subs = CONNECTORS * SUBSCRIPTIONS_EACH;
    console.log(`\nthroughput: ${subs} subscriptions x ${replies} events queued at once (cursor replay)`);
    console.log("1/4 baseline: signed POSTs, 32 at a time, from a process on the relay's CPU ...");
    const baseThroughput = await measureBaselineThroughput(rig);
    console.log('2/4 one relay node, embedded database, receiver answers 200 ...');
    const fastEmbedded = await measureThroughput(rig, embedded);
    console.log('3/4 one relay node, PostgreSQL, receiver answers 200 ...');
    const fastPg = await measureThroughput(rig, single);
    console.log(`4/4 one relay node, embedded database, receiver answers 503 (then ${idle} s of waiting) ...`);
    const failing = await measureFailing(rig, embedded);
    await Promise.all([embedded.stop(), single.stop()]);

    const perSecond = (t: Throughput): number => t.events / t.seconds;
    const tRow = (name: string, t: Throughput): string[] => [
      name,
      int(t.events),
      `${t.seconds.toFixed(2)} s`,
      int(perSecond(t)),
      t.cpuMs === undefined ? '' : `${(t.cpuMs / t.events).toFixed(2)} ms`,
      ratio(perSecond(t) / perSecond(baseThroughput)),
    ];
    console.log('');
    printTable([
      ['scenario', 'events', 'time', 'events/s', 'relay CPU/event', 'vs baseline'],
      tRow('baseline: signed POSTs, 32 at a time, no database', baseThroughput),
      tRow('relay, 1 node, embedded (durable)', fastEmbedded),
      tRow('relay, 1 node, PostgreSQL', fastPg),
    ]);
    console.log(
      `\nreceiver answering 503: the ${subs} first attempts (one per subscription) in ${ms(failing.firstAttemptsMs)}; ` +
        `then ${int(failing.waiting)} events wait for their retry and the relay used ${int(failing.idleCpuMs)} ms of CPU in ${idle} s`,
    );
  },
});
