// Rolling restarts lose nothing (docs/relay.md, "Rolling restarts"): two relay nodes on one PostgreSQL database
// behind a TCP balancer that follows /ready; two computers connected through it, each acknowledging every
// notification it receives and answering those that ask; four agents (a key and an OAuth connector per computer;
// one opens a connection per call, the other keeps them alive) sending steadily through it, each with a webhook
// for the replies. Node A is restarted, then node B — first with SIGTERM (drained), then with SIGKILL (a crash).
// Afterwards every notification an agent saw accepted was shown on its computer once, every receipt and reply
// reached its agent, every reply event reached its webhook under one event id, no agent ever saw a 5xx, and both
// computers are online. And a draining node tells kept-alive connections to go (Connection: close), and leaves new
// webhook deliveries to the other nodes while those under way finish.

import { afterAll, describe, expect, test } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import { waitFor } from '../../rigs/wait.js';
import { DELIVERY_CLAIM_MS } from '../../relay/limits.js';
import { Balancer } from '../helpers/balancer.js';
import { DeviceSocket, type Frame } from '../helpers/device-socket.js';
import { request, type Reply } from '../helpers/http.js';
import { decide, deviceIndex, insecure, startDeviceGrant } from '../helpers/oauth.js';
import { createDatabase } from '../helpers/postgres.js';
import { makeKey, pairDevice, startRelay, type PairedDevice, type RelayProcess } from '../helpers/relay.js';
import { subscribeHook, useWebhookRig, type ReceivedWebhook } from '../helpers/webhooks.js';

const rig = useWebhookRig();

/** Each agent sends one notification, then waits this long: four agents make a few tens a second. */
const SEND_PAUSE_MS = 80;
/** Every third notification asks for a reply. */
const ASK_EVERY = 3;
/** How long one long-poll for a reply waits (docs/relay-api.md#ra47), and how soon a failed call is tried again. */
const REPLY_WAIT_S = 5;
/** An agent gives up on a call after this long (longer than any long-poll) and makes it again. */
const CALL_TIMEOUT_MS = (REPLY_WAIT_S + 10) * 1000;
const RETRY_PAUSE_MS = 50;
/** Notifications each agent must have had accepted before the first restart, and again after the last. */
const STEADY_COUNT = 10;
/** A drain short enough for a fast test, long enough for the balancer (checking every 100 ms) to see it. */
const DRAIN_S = '1';
/**
 * A delivery a killed node had claimed is taken by another node once its claim runs out (DELIVERY_CLAIM_MS): how
 * long the crash test waits for its reply events.
 */
const EVENTS_AFTER_CRASH_MS = DELIVERY_CLAIM_MS + 30_000;
/** How long the agents wait for replies still to come once they stop sending, and the test for reply events. */
const REPLIES_AFTER_MS = 15_000;
const EVENTS_MS = 20_000;
/**
 * RFC 6455 close code 1012, "service restart": what a draining node closes the computers' sockets with
 * (docs/relay.md, "Health, readiness and draining").
 */
const CLOSE_SERVICE_RESTART = 1012;
/** RFC 6455 close code 1006: the connection ended without a close frame (a node killed, or its balancer link cut). */
const CLOSE_ABNORMAL = 1006;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const isSuccess = (status: number) => status >= 200 && status < 300;

const nodes = new Set<RelayProcess>();
const balancers = new Set<Balancer>();
const desktops = new Set<Desktop>();
/** Set once the file's tests are over: agents still calling (a failed test) stop. */
let over = false;
afterAll(async () => {
  over = true;
  for (const desktop of desktops) desktop.stop();
  await Promise.all([...balancers].map((balancer) => balancer.close()));
  await Promise.all([...nodes].map((node) => node.kill()));
});

/**
 * A computer as the desktop behaves (docs/api/relay-connection.md, RL30 and RL31): connected through the balancer,
 * it reconnects whenever its socket ends (1012 from a draining node, or a node gone), answers every `notify` frame
 * with `ack` and a receipt — the same again for a relay id it has seen, which it shows only once — and the person
 * answers at once those that ask.
 */
class Desktop {
  /** Every `notify` frame received, on every socket. */
  readonly frames: Record<string, any>[] = [];
  /** The receipt each relay id got: what the person saw. */
  readonly shown = new Map<string, Record<string, string>>();
  /** How each socket ended. */
  readonly closeCodes: number[] = [];
  /** Every `notify` frame in the order it came, with its socket; and how the sockets that ended did. */
  private readonly receivedFrames: { socket: DeviceSocket; relayId: string; notificationId: string }[] = [];
  private readonly endedWith = new Map<DeviceSocket, number>();
  socket: DeviceSocket | undefined;
  private stopped = false;

  constructor(
    readonly device: PairedDevice,
    private readonly port: number,
  ) {
    desktops.add(this);
  }

  /** Connects (trying again until a node takes it) and waits for `welcome`. */
  async connect(): Promise<void> {
    while (!this.stopped) {
      try {
        const socket = await DeviceSocket.connect(this.port, this.device.token);
        socket.onFrame((frame) => this.received(socket, frame));
        const ended = socket.closed.then(({ code }) => Promise.reject(new Error(`closed with ${code} before welcome`)));
        await Promise.race([socket.welcome(), ended]);
        this.socket = socket;
        void socket.closed.then(({ code }) => this.closed(socket, code));
        return;
      } catch {
        await sleep(RETRY_PAUSE_MS); // no node took it, or the node went away meanwhile
      }
    }
  }

  stop(): void {
    this.stopped = true;
    this.socket?.socket.terminate();
  }

  private received(socket: DeviceSocket, frame: Frame): void {
    if (typeof frame !== 'object' || frame.type !== 'notify') return;
    this.frames.push(frame);
    const receipt =
      this.shown.get(frame.id) ??
      (frame.payload.expectReply ? { kind: 'replied', text: replyTo(frame.notificationId) } : { kind: 'displayed' });
    this.shown.set(frame.id, receipt);
    socket.send({ type: 'ack', id: frame.id });
    socket.send({ type: 'receipt', id: frame.id, ...receipt });
    this.receivedFrames.push({ socket, relayId: frame.id, notificationId: frame.notificationId });
  }

  /**
   * At most one notification per socket that broke without a close frame (its node killed) whose receipt may have
   * died with the node. The wire protocol confirms an `ack` (the relay sends an unacknowledged notification again on
   * the next socket) but not a receipt, and the desktop lets a receipt go once its socket took it (RL33). A socket's
   * frames are applied in order, so the notifications of a killed socket that did not come again had their acks
   * applied — and with each ack every receipt sent before it. Only the receipt sent after the last of those acks
   * may be lost, with no way for either side to know; every other receipt must arrive.
   */
  receiptsOnKilledSockets(): Set<string> {
    const unconfirmed = new Set<string>();
    for (const [socket, code] of this.endedWith) {
      if (code !== CLOSE_ABNORMAL) continue;
      const cameAgain = (index: number) =>
        this.receivedFrames.some((later, laterIndex) => laterIndex > index && later.relayId === this.receivedFrames[index]!.relayId);
      const lastAcked = this.receivedFrames.findLastIndex((entry, index) => entry.socket === socket && !cameAgain(index));
      if (lastAcked >= 0) unconfirmed.add(this.receivedFrames[lastAcked]!.notificationId);
    }
    return unconfirmed;
  }

  private closed(socket: DeviceSocket, code: number): void {
    this.closeCodes.push(code);
    this.endedWith.set(socket, code);
    if (socket !== this.socket || this.stopped) return;
    this.socket = undefined;
    void this.connect();
  }
}

const replyTo = (notificationId: string) => `yes to ${notificationId}`;

/** An agent: its credential, its computer, its webhook, and all it saw. */
interface Agent {
  name: string;
  credential: string;
  desktop: Desktop;
  hookPath: string;
  /** Notification ids answered 2xx, and whether each asked for a reply. */
  accepted: Map<string, boolean>;
  /** The reply text each asking notification got (by long-poll). */
  replies: Map<string, string>;
  /** Every HTTP status it was answered. */
  statuses: number[];
  /** Calls that got no answer (the connection failed) and were made again. */
  networkFailures: number;
  /**
   * `fresh`: a new connection per call (a script with curl); `keep-alive`: fetch's pooled connections (an MCP client),
   * which stay on the node they first reached until it closes them.
   */
  connections: 'fresh' | 'keep-alive';
}

/** One call with fetch, over its pool of kept-alive connections. */
async function fetchReply(
  port: number,
  method: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<Pick<Reply, 'status' | 'json'>> {
  const answer = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
  });
  const text = await answer.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined; // not JSON: the status says enough
  }
  return { status: answer.status, json };
}

/** A call through the balancer, made again (the same request, so the same notification id) while the network fails. */
async function untilAnswered(
  agent: Agent,
  port: number,
  method: string,
  path: string,
  body?: unknown,
): Promise<Pick<Reply, 'status' | 'json'>> {
  for (;;) {
    if (over) throw new Error('the test is over');
    try {
      const reply =
        agent.connections === 'fresh'
          ? await request(port, method, path, { token: agent.credential, body, timeoutMs: CALL_TIMEOUT_MS })
          : await fetchReply(port, method, path, agent.credential, body);
      agent.statuses.push(reply.status);
      return reply;
    } catch {
      agent.networkFailures++;
      await sleep(RETRY_PAUSE_MS);
    }
  }
}

/** RA47: long-polls until the reply is there (a draining node answers early; the agent asks again), or `waiting()` ends. */
async function waitForReply(agent: Agent, port: number, notificationId: string, waiting: () => boolean): Promise<void> {
  while (waiting()) {
    const reply = await untilAnswered(agent, port, 'GET', `/v1/replies/${notificationId}?wait=${REPLY_WAIT_S}`);
    if (reply.json?.replied === true) return void agent.replies.set(notificationId, reply.json.reply);
    if (!isSuccess(reply.status)) await sleep(RETRY_PAUSE_MS);
  }
}

/**
 * Sends until `sending()` says stop; resolves after its last send with the long-polls for replies, which go on while
 * `waiting()` says so.
 */
async function sendSteadily(agent: Agent, port: number, sending: () => boolean, waiting: () => boolean): Promise<Promise<void>[]> {
  const waits: Promise<void>[] = [];
  for (let i = 0; sending(); i++) {
    const notificationId = `${agent.name}-${i}`;
    const expectReply = i % ASK_EVERY === 0;
    const sent = await untilAnswered(agent, port, 'POST', '/v1/notify', { title: `#${i}`, notificationId, expectReply });
    if (isSuccess(sent.status)) {
      agent.accepted.set(notificationId, expectReply);
      if (expectReply) waits.push(waitForReply(agent, port, notificationId, waiting));
    }
    await sleep(SEND_PAUSE_MS);
  }
  return waits;
}

/** An access token for `computer`, by the device grant with oauth4webapi (the person approves on the computer). */
async function connectorToken(node: RelayProcess, desktop: Desktop, name: string): Promise<string> {
  const issuer = new URL(node.baseUrl);
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
  const { client, started } = await startDeviceGrant(as, name, { scope: 'notify', device: await deviceIndex(node, desktop.device.token) });
  const consent = (await desktop.socket!.waitFor(
    (f) => typeof f === 'object' && f.type === 'consent' && f.userCode === started.user_code,
    'consent',
  )) as Record<string, string>;
  expect((await decide(node, desktop.device.token, consent.id!, 'approve')).status).toBe(200);
  const tokens = await oauth.processDeviceCodeResponse(
    as,
    client,
    await oauth.deviceCodeGrantRequest(as, client, oauth.None(), started.device_code, insecure),
  );
  return tokens.access_token;
}

type Stop = 'SIGTERM' | 'SIGKILL';

/** Stops a node, waits until the balancer no longer sends to it, and starts it again on the same port. */
async function restart(node: RelayProcess, how: Stop, balancer: Balancer, env: Record<string, string>): Promise<RelayProcess> {
  if (how === 'SIGTERM') expect(await node.stop()).toBe(0);
  else await node.kill();
  nodes.delete(node);
  await waitFor(() => (balancer.isReady(node.port) ? undefined : true), `the balancer to drop port ${node.port}`);
  const again = await startRelay({
    backend: 'postgres',
    databaseUrl: node.databaseUrl,
    secret: node.secret,
    env: { ...env, RELAY_PORT: String(node.port) },
  });
  nodes.add(again);
  await balancer.waitReady(again.port);
  return again;
}

/** Relay ids by notification id, over the frames a computer received. */
function relayIds(desktop: Desktop): Map<string, Set<string>> {
  const ids = new Map<string, Set<string>>();
  for (const frame of desktop.frames) ids.set(frame.notificationId, (ids.get(frame.notificationId) ?? new Set()).add(frame.id));
  return ids;
}

/** Event ids by the notification id they tell of, over the events a webhook received. */
function eventIds(events: ReceivedWebhook[]): Map<string, Set<string>> {
  const ids = new Map<string, Set<string>>();
  for (const event of events) {
    const notificationId = event.json.data.notificationId as string;
    ids.set(notificationId, (ids.get(notificationId) ?? new Set()).add(String(event.headers['webhook-id'])));
  }
  return ids;
}

const sorted = (values: Iterable<string>) => [...values].sort();

/** The notifications of an agent that asked for a reply. */
const askedOf = (agent: Agent) => [...agent.accepted].filter(([, expectReply]) => expectReply).map(([id]) => id);

/** Limits out of the way of a few hundred notifications and long-polls a minute. */
const ROOMY_LIMITS = {
  RATE_LIMIT_PER_KEY: '100000',
  DEVICE_NOTIFICATIONS_PER_DAY: '100000',
  DEVICE_REQUESTS_PER_DAY: '100000',
  DEVICE_POLL_SECONDS_PER_DAY: '100000',
};

/** Two nodes on one new database, and the balancer in front of them. */
interface Cluster {
  a: RelayProcess;
  b: RelayProcess;
  balancer: Balancer;
  env: Record<string, string>;
}

async function startCluster(): Promise<Cluster> {
  const env = { ...rig().env, ...ROOMY_LIMITS, RELAY_DRAIN_S: DRAIN_S };
  const databaseUrl = await createDatabase();
  const secret = randomBytes(32).toString('hex');
  const [a, b] = await Promise.all([0, 1].map(() => startRelay({ backend: 'postgres', databaseUrl, secret, env })));
  nodes.add(a!).add(b!);
  const balancer = await Balancer.start([a!.port, b!.port]);
  balancers.add(balancer);
  return { a: a!, b: b!, balancer, env };
}

async function stopCluster(cluster: Cluster): Promise<void> {
  for (const desktop of desktops) desktop.stop();
  desktops.clear();
  await cluster.balancer.close();
  balancers.delete(cluster.balancer);
  for (const node of [cluster.a, cluster.b]) {
    expect(await node.stop()).toBe(0);
    nodes.delete(node);
  }
}

/** Two computers through the balancer; per computer an agent with a key and one with an OAuth access token, each with its webhook. */
async function connectAgents(cluster: Cluster, prefix: string): Promise<Agent[]> {
  const agents: Agent[] = [];
  const node = cluster.a;
  for (const name of ['desk', 'laptop']) {
    const desktop = new Desktop(await pairDevice(node, name), cluster.balancer.port);
    await desktop.connect();
    const credentials = {
      key: await makeKey(node, desktop.device.token, `${name}-agent`),
      oauth: await connectorToken(node, desktop, `${name} connector`),
    };
    for (const [kind, credential] of Object.entries(credentials)) {
      const hook = rig().hook(`/${prefix}/${name}/${kind}`);
      expect((await subscribeHook(node, credential, hook)).json.result.id).toBeDefined();
      const connections = kind === 'key' ? 'fresh' : 'keep-alive';
      const agent = { name: `${prefix}-${name}-${kind}`, credential, desktop, hookPath: hook.path, connections } as const;
      agents.push({ ...agent, accepted: new Map(), replies: new Map(), statuses: [], networkFailures: 0 });
    }
  }
  return agents;
}

/** The agents sending steadily through the balancer until stopped. */
function startTraffic(agents: Agent[], port: number) {
  let sending = true;
  let waiting = true;
  const sendsEnded = Promise.all(
    agents.map((agent) =>
      sendSteadily(
        agent,
        port,
        () => sending,
        () => waiting,
      ),
    ),
  );
  sendsEnded.catch(() => undefined); // the test ended before stop(): nothing else waits for it
  return {
    /** Resolves once every agent has had `count` notifications accepted. */
    accepted: (count: number) =>
      waitFor(() => agents.every((agent) => agent.accepted.size >= count) || undefined, `${count} accepted from every agent`, 30_000),
    /** The most any agent has had accepted. */
    most: () => Math.max(...agents.map((agent) => agent.accepted.size)),
    /**
     * Stops sending; once the last sends are answered (one accepted then is asked about too), waits a while for the
     * replies still to come (what did not come, the checks name).
     */
    stop: async () => {
      sending = false;
      const waits = (await sendsEnded).flat();
      const replied = () => agents.every((agent) => askedOf(agent).every((id) => agent.replies.has(id))) || undefined;
      await waitFor(replied, 'every reply', REPLIES_AFTER_MS).catch(() => undefined);
      waiting = false;
      await Promise.all(waits);
    },
  };
}

/**
 * Notifications, receipts and replies: what each agent was told was taken reached it and its computer; `unconfirmed`:
 * notifications whose receipt may have died with a killed node (Desktop.receiptsOnKilledSockets), not required.
 */
async function expectNothingLost(agent: Agent, port: number, unconfirmed: Set<string>): Promise<void> {
  // No 5xx, nor any other refusal: each notification was accepted (a retry of one already taken: 200 duplicate).
  expect(agent.statuses.filter((status) => !isSuccess(status))).toEqual([]);
  // RA31 sends a notification again on a new socket until it is acknowledged; the computer shows a relay id once
  // (RL31). So: one relay id per notification id, and nothing the agent was not told was taken.
  const shown = new Map([...relayIds(agent.desktop)].filter(([id]) => id.startsWith(`${agent.name}-`)));
  expect(sorted(shown.keys())).toEqual(sorted(agent.accepted.keys()));
  expect([...shown.values()].filter((ids) => ids.size !== 1)).toEqual([]);
  // Every reply reached its agent by long-poll, with the computer's text; every receipt by GET.
  const asked = askedOf(agent).filter((id) => !unconfirmed.has(id));
  expect(sorted([...agent.replies.keys()].filter((id) => !unconfirmed.has(id)))).toEqual(sorted(asked));
  for (const id of agent.replies.keys()) expect(agent.replies.get(id)).toBe(replyTo(id));
  for (const [id, expectReply] of agent.accepted) {
    if (unconfirmed.has(id)) continue;
    const receipt = await untilAnswered(agent, port, 'GET', `/v1/receipts/${id}`);
    expect([receipt.status, expectReply ? receipt.json.replied : receipt.json.displayed, receipt.json.queued]).toEqual([200, true, false]);
  }
}

/** Every reply event reached the agent's webhook, signed, under one event id per reply. */
async function expectEachEventOnce(agent: Agent, timeoutMs: number): Promise<void> {
  // A reply event is made from the reply the relay took: the one the agent got (a reply lost with a killed node
  // makes none).
  const asked = [...agent.replies.keys()];
  // Waits for every reply's event, not for a count: a delivery cut short may have come twice.
  const received = () => rig().receiver.on(agent.hookPath);
  const allThere = () => {
    const told = eventIds(received());
    return asked.every((id) => told.has(id)) || undefined;
  };
  await waitFor(allThere, `the reply events of ${agent.name}`, timeoutMs).catch(() => undefined); // the checks name what is missing
  const events = received();
  const byNotification = eventIds(events);
  expect(sorted(byNotification.keys())).toEqual(sorted(asked));
  expect([...byNotification.values()].filter((ids) => ids.size !== 1)).toEqual([]);
  expect(events.every((event) => event.verified === true)).toBe(true);
}

/** What the run came to, for the log of the test run (docs/relay.md quotes it). */
function report(how: Stop, agents: Agent[], seconds: number, receiptsOnKilledSockets: number): string {
  const perAgent = agents.map((agent) => ({
    agent: agent.name,
    accepted: agent.accepted.size,
    replies: agent.replies.size,
    networkFailures: agent.networkFailures,
    events: rig().receiver.on(agent.hookPath).length,
  }));
  const computers = [...desktops].map((desktop) => ({
    frames: desktop.frames.length,
    shown: desktop.shown.size,
    closes: desktop.closeCodes,
  }));
  const perSecond = Math.round(agents.reduce((sum, agent) => sum + agent.accepted.size, 0) / seconds);
  return JSON.stringify({ how, seconds, perSecond, perAgent, computers, receiptsOnKilledSockets });
}

describe('rolling restart of two relay nodes on one PostgreSQL database', () => {
  test.each<Stop>(['SIGTERM', 'SIGKILL'])(
    '%s to A, then to B: nothing accepted is lost or shown twice',
    async (how) => {
      const cluster = await startCluster();
      const agents = await connectAgents(cluster, how);
      const started = Date.now();
      const traffic = startTraffic(agents, cluster.balancer.port);
      await traffic.accepted(STEADY_COUNT);
      cluster.a = await restart(cluster.a, how, cluster.balancer, cluster.env);
      cluster.b = await restart(cluster.b, how, cluster.balancer, cluster.env);
      await traffic.accepted(traffic.most() + STEADY_COUNT);
      await traffic.stop();
      const seconds = (Date.now() - started) / 1000;

      const unconfirmed = new Set([...desktops].flatMap((desktop) => [...desktop.receiptsOnKilledSockets()]));
      if (how === 'SIGTERM') expect(unconfirmed).toEqual(new Set()); // a drained node closes every socket cleanly
      for (const agent of agents) await expectNothingLost(agent, cluster.balancer.port, unconfirmed);
      for (const agent of agents) await expectEachEventOnce(agent, how === 'SIGKILL' ? EVENTS_AFTER_CRASH_MS : EVENTS_MS);
      // The computers are online at the end, on sockets the restarted nodes hold; a drained node said "reconnect".
      for (const agent of agents) expect((await untilAnswered(agent, cluster.balancer.port, 'GET', '/v1/status')).json.online).toBe(true);
      if (how === 'SIGTERM') for (const desktop of desktops) expect(new Set(desktop.closeCodes)).toEqual(new Set([CLOSE_SERVICE_RESTART]));
      console.log(report(how, agents, seconds, unconfirmed.size));
      await stopCluster(cluster);
    },
    EVENTS_AFTER_CRASH_MS + 60_000,
  );
});

test('a draining node answers Connection: close, so a client keeping connections alive moves to another node', async () => {
  const relay = await startRelay({ backend: 'sqlite', env: { RELAY_DRAIN_S: DRAIN_S } });
  nodes.add(relay);
  const keepAlive = { headers: { Connection: 'keep-alive' } };
  expect((await relay.call('GET', '/health', keepAlive)).headers.connection).toBe('keep-alive');
  const exited = relay.stop();
  const draining = await waitFor(async () => (await relay.call('GET', '/ready')).status === 503 || undefined, '/ready to turn 503');
  expect(draining).toBe(true);
  expect((await relay.call('GET', '/health', keepAlive)).headers.connection).toBe('close');
  expect(await exited).toBe(0);
  nodes.delete(relay);
});

test('a draining node leaves new webhook deliveries to the other nodes: the event waits, and goes out once, after the restart', async () => {
  const env = { ...rig().env, RELAY_DRAIN_S: DRAIN_S };
  const relay = await startRelay({ backend: 'sqlite', env });
  nodes.add(relay);
  const device = await pairDevice(relay, 'desk');
  const key = await makeKey(relay, device.token);
  const hook = rig().hook('/drain/late');
  expect((await subscribeHook(relay, key, hook)).json.result.id).toBeDefined();
  const socket = await DeviceSocket.online(relay.port, device.token);
  await relay.call('POST', '/v1/notify', { token: key, body: { title: 'Ship it?', notificationId: 'late', expectReply: true } });
  const rid = (await socket.notifyFrame('late')).id as string;

  const exited = relay.stop();
  await waitFor(async () => (await relay.call('GET', '/ready')).status === 503 || undefined, '/ready to turn 503');
  const replied = await relay.call('POST', '/v1/device/reply', { token: device.token, body: { id: rid, text: 'yes' } });
  expect(replied.status).toBe(200); // still served while draining, and its event queued
  expect(await exited).toBe(0);
  nodes.delete(relay);
  expect(rig().receiver.on(hook.path)).toEqual([]); // the draining node sent nothing new

  const again = await startRelay({ backend: 'sqlite', dataDir: relay.dataDir, secret: relay.secret, env });
  nodes.add(again);
  const [event] = await rig().receiver.events(hook.path, 1);
  expect(event!.json.data.notificationId).toBe('late');
  expect(await again.stop()).toBe(0);
  nodes.delete(again);
  expect(rig().receiver.on(hook.path)).toHaveLength(1);
});
