// "When the database goes away" (docs/relay.md): the test's own PostgreSQL server is restarted (a fast shutdown,
// then started again on the same port) while an agent sends steadily to node B and the computer is connected to
// node A. Meanwhile every request is answered, 2xx or 503 with Retry-After (never another status, never a hang,
// never a crash), and /ready says 503; afterwards both nodes are ready again, LISTEN has reconnected (its counter
// went up), a notification sent to B reaches the computer on A (only LISTEN carries it), and every notification
// acknowledged before, during or after reached the computer (what the bus lost, the resync caught up). And a note
// whose message reached a node just as the database went away, so that reading it failed, still reaches the
// computer once the database is back (the resync sends it), and so does one whose read failed while the database
// stayed up (the socket catches up again a moment later).

import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { waitFor } from '../../rigs/wait.js';
import { DeviceSocket } from '../helpers/device-socket.js';
import { scrape, valueOf } from '../helpers/metrics.js';
import { startOwnPostgres, type OwnPostgres } from '../helpers/postgres.js';
import { pairWithKey, startRelay, type RelayProcess } from '../helpers/relay.js';

const METRICS_TOKEN = 'db-restart-metrics-token-0123456789';
/** Limits that a steady sender does not reach in the test's few seconds: only the database may refuse. */
const ROOMY = { RATE_LIMIT_PER_KEY: '100000', DEVICE_QUEUE_MAX: '100000', DEVICE_NOTIFICATIONS_PER_DAY: '100000' };
/** "Never a hang": longer than any answer takes, even a 503 after the pool failed to connect. */
const HANG_MS = 10_000;
/** Long enough for PostgreSQL to hand a committed transaction's NOTIFY to the listening connections. */
const NOTIFY_HANDED_MS = 300;
/** The relay's Retry-After on a 503 (relay/limits.ts, UNAVAILABLE_RETRY_AFTER_S). */
const RETRY_AFTER = '5';
/** Notifications accepted before the restart, and again after it, before the test looks. */
const LOAD_BEFORE = 20;
/** After the restart the listening connection is retried with a doubling delay: give it time to come back. */
const RECOVERY_MS = 60_000;

let postgres: OwnPostgres;
beforeAll(async () => {
  postgres = await startOwnPostgres();
}, 60_000);
afterAll(async () => {
  await postgres?.stop();
}, 30_000);

/** One request of the sender: its notificationId and what came back (a status, or the failure). */
interface Sent {
  id: string;
  status?: number;
  retryAfter?: string | string[];
  failed?: string;
}

/** An agent sending one notification after the other to `node` until told to stop. */
function steadySender(node: RelayProcess, key: string) {
  const sent: Sent[] = [];
  let sending = true;
  const done = (async () => {
    for (let i = 0; sending; i++) {
      const id = `load-${i}`;
      try {
        const reply = await node.call('POST', '/v1/notify', { token: key, body: { title: id, notificationId: id }, timeoutMs: HANG_MS });
        sent.push({ id, status: reply.status, retryAfter: reply.headers['retry-after'] });
      } catch (error) {
        sent.push({ id, failed: (error as Error).message });
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  return {
    sent,
    stop: async () => {
      sending = false;
      await done;
    },
  };
}

/** The headers of a WebSocket handshake (RFC 6455), sent as a plain request to see the relay's answer. */
const UPGRADE = {
  Connection: 'Upgrade',
  Upgrade: 'websocket',
  'Sec-WebSocket-Version': '13',
  'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
};

const readyStatus = async (node: RelayProcess): Promise<number> => (await node.call('GET', '/ready', { timeoutMs: HANG_MS })).status;
const reconnects = async (node: RelayProcess): Promise<number> =>
  valueOf(await scrape(node, METRICS_TOKEN), 'relay_db_listen_reconnects_total');

test('PostgreSQL restarted under load with two nodes: 503 meanwhile, then ready, LISTEN back, nothing acknowledged lost', async () => {
  const databaseUrl = await postgres.createDatabase();
  const options = { backend: 'postgres' as const, databaseUrl, secret: randomBytes(32).toString('hex') };
  const env = { ...ROOMY, RELAY_METRICS_TOKEN: METRICS_TOKEN };
  const [nodeA, nodeB] = await Promise.all([startRelay({ ...options, env }), startRelay({ ...options, env })]);
  const nodes = [nodeA!, nodeB!];
  let sender: ReturnType<typeof steadySender> | undefined;
  try {
    const device = await pairWithKey(nodeA!);
    const socket = await DeviceSocket.online(nodeA!.port, device.token);
    const before = await Promise.all(nodes.map(reconnects));
    const load = (sender = steadySender(nodeB!, device.key));
    const accepted = (from: number): number => load.sent.slice(from).filter((s) => s.status === 202 || s.status === 200).length;
    await waitFor(() => (accepted(0) >= LOAD_BEFORE ? true : undefined), 'notifications accepted before the restart');

    let sentBeforeOutage = 0;
    await postgres.restart(async () => {
      sentBeforeOutage = load.sent.length;
      for (const node of nodes) await waitFor(async () => ((await readyStatus(node)) === 503 ? true : undefined), '/ready 503');
      await waitFor(() => (load.sent.slice(sentBeforeOutage).some((s) => s.status === 503) ? true : undefined), 'a 503 while down');
      // A computer connecting meanwhile is told to come back later, as an agent is.
      const reconnecting = await nodeA!.call('GET', '/v1/device/stream', { token: device.token, headers: UPGRADE, timeoutMs: HANG_MS });
      expect([reconnecting.status, reconnecting.json?.error, reconnecting.headers['retry-after']]).toEqual([
        503,
        'unavailable',
        RETRY_AFTER,
      ]);
      // Down long enough that each node's first try to listen again fails: the retry is what brings LISTEN back.
      for (const node of nodes)
        await waitFor(() => (node.log().includes('listening again failed') ? true : undefined), 'a failed relisten');
    });

    for (const node of nodes) await waitFor(async () => ((await readyStatus(node)) === 200 ? true : undefined), '/ready 200', RECOVERY_MS);
    await waitFor(
      async () => ((await Promise.all(nodes.map(reconnects))).every((count, i) => count > before[i]!) ? true : undefined),
      'LISTEN to reconnect on both nodes',
      RECOVERY_MS,
    );
    const sentAfterRestart = load.sent.length;
    await waitFor(
      () => (accepted(sentAfterRestart) >= LOAD_BEFORE ? true : undefined),
      'notifications accepted after the restart',
      RECOVERY_MS,
    );
    await load.stop();

    // Sent to B now that its LISTEN is back: A hears it only through PostgreSQL's NOTIFY.
    const after = await nodeB!.call('POST', '/v1/notify', { token: device.key, body: { title: 'after', notificationId: 'after' } });
    expect(after.status).toBe(202);
    await socket.notifyFrame('after');

    const answers = load.sent;
    expect(answers.filter((s) => s.failed !== undefined)).toEqual([]); // no hang, no cut connection
    expect(answers.filter((s) => ![200, 202, 503].includes(s.status!))).toEqual([]);
    expect(answers.filter((s) => s.status === 503 && s.retryAfter !== RETRY_AFTER)).toEqual([]);
    const acknowledged = answers.filter((s) => s.status === 200 || s.status === 202).map((s) => s.id);
    for (const id of acknowledged) await socket.notifyFrame(id);
    expect(socket.ofType('notify').length).toBeGreaterThanOrEqual(acknowledged.length + 1);
    await socket.close();
  } finally {
    await sender?.stop(); // also when the test failed half-way: the loop would keep the run alive
    for (const node of nodes) {
      expect(node.log()).not.toMatch(/uncaught|unhandled/i);
      expect(await node.stop()).toBe(0); // still running through it all, and stops cleanly
    }
  }
}, 120_000);

/**
 * Pauses the node (SIGSTOP) at a moment none of the database's connections is inside a transaction: paused in
 * one (its start-up's tasks, say), it would hold its locks, and the other node would wait for them.
 */
async function pauseOutsideTransactions(node: RelayProcess, databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await waitFor(async () => {
      process.kill(node.pid, 'SIGSTOP');
      const { rows } = await client.query(
        "select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle'",
      );
      if (rows[0].n === 0) return true;
      process.kill(node.pid, 'SIGCONT');
      return undefined;
    }, 'a moment without a transaction');
  } finally {
    await client.end();
  }
}

/**
 * Two nodes on `databaseUrl` (the metrics readable), a computer connected to A, and A paused (outside any
 * transaction) while B accepts the notification `id`: its message waits, unread, in A's listening connection.
 * `failTheRead` then resumes A in a way that makes its read of the note fail, and waits for that (`readFailed`).
 * Afterwards the note must reach the computer, once; `check` looks at node A after that.
 */
async function noteWhoseReadFails(
  databaseUrl: string,
  id: string,
  failTheRead: (steps: { resume: () => void; readFailed: () => Promise<unknown> }) => Promise<void>,
  check: (nodeA: RelayProcess) => Promise<void> = async () => undefined,
): Promise<void> {
  const options = {
    backend: 'postgres' as const,
    databaseUrl,
    secret: randomBytes(32).toString('hex'),
    env: { RELAY_METRICS_TOKEN: METRICS_TOKEN },
  };
  const [nodeA, nodeB] = await Promise.all([startRelay(options), startRelay(options)]);
  const nodes = [nodeA!, nodeB!];
  const resume = () => process.kill(nodeA!.pid, 'SIGCONT');
  const readFailed = () =>
    waitFor(() => (nodeA!.log().includes('pushing a note failed') ? true : undefined), 'the read of the note to fail');
  try {
    const device = await pairWithKey(nodeA!);
    const socket = await DeviceSocket.online(nodeA!.port, device.token);
    await pauseOutsideTransactions(nodeA!, databaseUrl);
    try {
      const sent = await nodeB!.call('POST', '/v1/notify', { token: device.key, body: { title: id, notificationId: id } });
      expect(sent.status).toBe(202);
      await new Promise((resolve) => setTimeout(resolve, NOTIFY_HANDED_MS));
      await failTheRead({ resume, readFailed });
    } finally {
      resume(); // also when the test failed while A was paused
    }
    await socket.notifyFrame(id, RECOVERY_MS);
    expect(socket.ofType('notify').map((frame) => frame.notificationId)).toEqual([id]);
    await check(nodeA!);
    await socket.close();
  } finally {
    for (const node of nodes) {
      expect(node.log()).not.toMatch(/uncaught|unhandled/i);
      expect(await node.stop()).toBe(0);
    }
  }
}

test('a note whose message arrived as the database went away, so that reading it failed, reaches the computer once the database is back', async () => {
  const databaseUrl = await postgres.createDatabase();
  // A goes on with the database down: it hears the message, and reading the note it names fails. Listening
  // again, it catches up from the database: the note is still waiting, and it was never sent.
  await noteWhoseReadFails(databaseUrl, 'gap', ({ resume, readFailed }) =>
    postgres.restart(async () => {
      resume();
      await readFailed();
    }),
  );
}, 120_000);

test('a note whose read failed while the database stayed up reaches the computer when its socket catches up again', async () => {
  const databaseUrl = await postgres.createDatabase();
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    // Every session of the relays gives up a lock it cannot have within this: the read the test blocks fails.
    await admin.query(`alter database "${new URL(databaseUrl).pathname.slice(1)}" set lock_timeout = '100ms'`);
    await noteWhoseReadFails(
      databaseUrl,
      'blocked',
      async ({ resume, readFailed }) => {
        // The note's frame names its key: while the test holds the keys' table, A's read of the note cannot run.
        await admin.query('begin; lock table agent_keys in access exclusive mode');
        resume();
        await readFailed();
        await admin.query('commit');
      },
      // LISTEN never went away, so no resync came: the socket's own catch-up sent the note.
      async (nodeA) => expect(await reconnects(nodeA)).toBe(0),
    );
  } finally {
    await admin.end();
  }
}, 120_000);
