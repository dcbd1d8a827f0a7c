// Several relay processes on one PostgreSQL database (docs/relay.md, "Several nodes"): a notification reaches the
// node that holds the computer's socket, exactly once; a reply wakes a long-poll on another node; a newer socket
// on one node closes the older one on another; unpairing closes it wherever it is; concurrent notifies through
// both nodes keep the queue limit exact; and the store's lock and task claim hold across processes.

import { afterAll, describe, expect, test } from '@jest/globals';
import pg from 'pg';
import { usageToday } from '../../relay/core/usage.js';
import { openPostgres } from '../../relay/store/postgres.js';
import type { Backend } from '../../relay/store/backend.js';
import { nextTaskDue } from '../../relay/store/tasks.js';
import { DeviceSocket } from '../helpers/device-socket.js';
import { createDatabase } from '../helpers/postgres.js';
import { pairWithKey, type RelayProcess } from '../helpers/relay.js';
import { useTwoNodes } from './two-nodes.js';

/** Two relay processes sharing one database and one secret, as behind a load balancer (stopped after the file). */
const twoNodes = useTwoNodes();

describe('two relay processes on one PostgreSQL database', () => {
  test('socket on A, agent on B: the frame arrives once; a reply on A wakes a long-poll on B', async () => {
    const { a, b } = await twoNodes();
    const device = await pairWithKey(a);
    const socket = await DeviceSocket.online(a.port, device.token);

    for (let i = 0; i < 5; i++) {
      const sent = await b.call('POST', '/v1/notify', {
        token: device.key,
        body: { title: `from B ${i}`, notificationId: `b${i}`, expectReply: true },
      });
      expect(sent.status).toBe(202);
    }
    const frames = await Promise.all([0, 1, 2, 3, 4].map((i) => socket.notifyFrame(`b${i}`)));
    await new Promise((resolve) => setTimeout(resolve, 500)); // time for any second copy to arrive
    // Each exactly once. Their order is not promised across nodes: A fetches each announced note on its own.
    expect(
      socket
        .ofType('notify')
        .map((f) => f.notificationId)
        .sort(),
    ).toEqual(['b0', 'b1', 'b2', 'b3', 'b4']);

    const waiting = b.call('GET', '/v1/replies/b2?wait=20', { token: device.key });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const replied = Date.now();
    expect((await a.call('POST', '/v1/device/reply', { token: device.token, body: { id: frames[2]!.id, text: 'from A' } })).status).toBe(
      200,
    );
    const answer = await waiting;
    expect(Date.now() - replied).toBeLessThan(10_000); // it waited for 20 s
    expect(answer.json).toMatchObject({ notificationId: 'b2', replied: true, reply: 'from A' });

    // A reply over the socket (on A) wakes a long-poll on B too.
    const second = b.call('GET', '/v1/replies/b3?wait=20', { token: device.key });
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.send({ type: 'receipt', id: frames[3]!.id, kind: 'replied', text: 'socket reply' });
    expect((await second).json).toMatchObject({ replied: true, reply: 'socket reply' });
    expect((await b.call('GET', '/v1/status', { token: device.key })).json.online).toBe(true);
    await socket.close();
  });

  test('a note is announced to the other nodes only when one of them holds the computer socket', async () => {
    const { a, b, databaseUrl } = await twoNodes();
    // What the nodes tell each other, as a third listener hears it (in commit order).
    const listener = new pg.Client({ connectionString: databaseUrl });
    await listener.connect();
    const announced: string[] = [];
    listener.on('notification', ({ payload }) => {
      const message = JSON.parse(payload ?? '{}') as { t?: string; r?: string };
      if (message.t === 'note') announced.push(message.r!);
    });
    await listener.query('LISTEN notifier_relay');
    try {
      const device = await pairWithKey(a);
      const send = async (node: RelayProcess, notificationId: string) =>
        expect((await node.call('POST', '/v1/notify', { token: device.key, body: { title: notificationId, notificationId } })).status).toBe(
          202,
        );

      await send(b, 'offline'); // no socket anywhere: the one that opens sends it with the queue
      const socket = await DeviceSocket.connect(a.port, device.token);
      const offline = await socket.notifyFrame('offline');
      await send(a, 'local'); // the socket is on the node that took it
      const local = await socket.notifyFrame('local');
      await send(b, 'remote'); // the socket is on the other node: it must hear of it
      const remote = await socket.notifyFrame('remote');
      // Messages arrive in commit order: once the last is here, any for the first two would be too.
      for (let i = 0; i < 100 && announced.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(announced).toEqual([remote.id]);
      expect(new Set([offline.id, local.id, remote.id]).size).toBe(3);
      await socket.close();
    } finally {
      await listener.end();
    }
  });

  test('a newer socket on B closes the one on A with 4000; unpairing through A closes it on B with 4001', async () => {
    const { a, b } = await twoNodes();
    const device = await pairWithKey(a);
    const onA = await DeviceSocket.online(a.port, device.token);
    const onB = await DeviceSocket.connect(b.port, device.token);
    expect(await onA.closed).toEqual({ code: 4000, reason: 'replaced by a newer connection' });
    await a.call('POST', '/v1/notify', { token: device.key, body: { title: 'to B', notificationId: 'x' } });
    await onB.notifyFrame('x');
    expect((await a.call('GET', '/v1/status', { token: device.key })).json.online).toBe(true);

    expect((await a.call('DELETE', '/v1/device', { token: device.token })).status).toBe(200);
    expect(await onB.closed).toEqual({ code: 4001, reason: 'unpaired' });
  });

  test('50 concurrent notifies through both nodes against a nearly full queue: exactly the free places are taken', async () => {
    const { a, b } = await twoNodes({ DEVICE_QUEUE_MAX: '20', RATE_LIMIT_PER_KEY: '1000' });
    const device = await pairWithKey(a);
    for (let i = 0; i < 15; i++) await a.call('POST', '/v1/notify', { token: device.key, body: { title: `pre ${i}` } });
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).call('POST', '/v1/notify', { token: device.key, body: { title: `race ${i}` } })),
    );
    const outcomes = replies.map((reply) => (reply.status === 202 ? 'queued' : `${reply.status} ${reply.json.error}`));
    expect(outcomes.filter((o) => o === 'queued')).toHaveLength(5);
    expect(outcomes.filter((o) => o === '429 queue_full')).toHaveLength(45);
    expect((await b.call('GET', '/v1/device/usage', { token: device.token })).json).toMatchObject({
      queued: 20,
      notifications: 20,
      requests: 66,
    });
  });
});

describe('the PostgreSQL store across processes', () => {
  const stores: Backend[] = [];
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
  });

  test('withDeviceLock serialises check-then-write across connections; claimTask runs a due task once', async () => {
    const url = await createDatabase();
    const one = await openPostgres(url);
    stores.push(one);
    const two = await openPostgres(url);
    stores.push(two);
    const deviceId = 'ab'.repeat(24);
    // Today's row, every counter at 0: what the relay reads before the first count.
    await one.db
      .insertInto('usage_days')
      .values(await usageToday(one.db, deviceId, Date.now()))
      .execute();
    // Read, wait, write: without the lock, concurrent increments would overwrite each other.
    const increment = (store: Backend) =>
      store.withDeviceLock(deviceId, async (tx) => {
        const row = await tx.db.selectFrom('usage_days').select('requests').where('device_id', '=', deviceId).executeTakeFirstOrThrow();
        await new Promise((resolve) => setTimeout(resolve, 5));
        await tx.db
          .updateTable('usage_days')
          .set({ requests: row.requests + 1 })
          .where('device_id', '=', deviceId)
          .execute();
      });
    await Promise.all(Array.from({ length: 20 }, (_, i) => increment(i % 2 ? one : two)));
    const final = await one.db.selectFrom('usage_days').select('requests').where('device_id', '=', deviceId).executeTakeFirstOrThrow();
    expect(final.requests).toBe(20);

    let runs = 0;
    const work = async () => {
      runs += 1;
      await new Promise((resolve) => setTimeout(resolve, 200));
    };
    const now = Date.now();
    const claimed = await Promise.all([
      one.claimTask('test-task', now, now + 60_000, work),
      two.claimTask('test-task', now, now + 60_000, work),
    ]);
    expect(claimed.sort()).toEqual([false, true]);
    expect(runs).toBe(1);
    expect(await one.claimTask('test-task', now + 1000, now + 60_000, work)).toBe(false); // not due again yet
    expect(await nextTaskDue(two.db)).toBe(now + 60_000);
  });
});
