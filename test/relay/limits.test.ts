// Limits and budgets (docs/relay-api.md#ra50, #ra51, #ra21, #ra45, #ra47), lowered through the environment so a
// test needs a handful of requests: the per-key rate, the daily cap, the queue, the request budget, the read
// limit, audio caps, long-poll seconds, expiry, and exact queue_full under concurrent notifies; bursts of
// notifications at once come out as one request after another would.

import { describe, expect, test } from '@jest/globals';
import { waitFor } from '../helpers/daemon.js';
import { DeviceSocket } from '../helpers/device-socket.js';
import { BACKENDS, makeKey, pairWithKey, startRelay, useRelay, type RelayProcess } from '../helpers/relay.js';

const notify = (relay: RelayProcess, key: string, body: object) => relay.call('POST', '/v1/notify', { token: key, body });
/** RELAY_METRICS_TOKEN of the burst test: its /metrics tells whether the burst was taken together. */
const METRICS_TOKEN = 'limits-metrics-token-0123456789';
const secondsToMidnight = (): number => Math.ceil((new Date().setUTCHours(24, 0, 0, 0) - Date.now()) / 1000);

describe.each(BACKENDS)('limits (%s)', (backend) => {
  const relay = useRelay({
    backend,
    env: {
      RATE_LIMIT_PER_KEY: '3',
      DEVICE_NOTIFICATIONS_PER_DAY: '5',
      DEVICE_QUEUE_MAX: '4',
      MAX_BODY_BYTES: '2000',
      DEVICE_AUDIO_UPLOADS_PER_DAY: '2',
      DEVICE_AUDIO_BYTES_PER_DAY: '5000',
      DEVICE_POLL_SECONDS_PER_DAY: '1',
    },
  });

  test('per key: the fourth notification in 10 minutes is 429 rate_limited with Retry-After; another key may send', async () => {
    const device = await pairWithKey(relay());
    for (let i = 0; i < 3; i++) expect((await notify(relay(), device.key, { title: `n${i}`, notificationId: `n${i}` })).status).toBe(202);
    const limited = await notify(relay(), device.key, { title: 'n3' });
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ error: 'rate_limited', retryAfterSeconds: expect.any(Number) });
    expect(limited.json.retryAfterSeconds).toBeGreaterThan(590);
    expect(limited.json.retryAfterSeconds).toBeLessThanOrEqual(600);
    expect(limited.headers['retry-after']).toBe(String(limited.json.retryAfterSeconds));
    // A duplicate is answered before the rate is checked: it sends nothing new.
    const repeat = await notify(relay(), device.key, { title: 'again', notificationId: 'n0' });
    expect([repeat.status, repeat.json.duplicate]).toEqual([200, true]);
    expect((await notify(relay(), await makeKey(relay(), device.token), { title: 'other key' })).status).toBe(202);
  });

  test('the queue: 429 queue_full (no Retry-After) once 4 wait; the computer taking them frees it; then the daily cap', async () => {
    const device = await pairWithKey(relay());
    const second = await makeKey(relay(), device.token);
    for (let i = 0; i < 3; i++) await notify(relay(), device.key, { title: `a${i}` });
    expect((await notify(relay(), second, { title: 'b0' })).status).toBe(202);
    const full = await notify(relay(), second, { title: 'b1' });
    expect([full.status, full.json.error, full.headers['retry-after']]).toEqual([429, 'queue_full', undefined]);

    const socket = await DeviceSocket.connect(relay().port, device.token);
    for (const title of ['a0', 'a1', 'a2', 'b0']) {
      const frame = await socket.waitFor((f) => typeof f === 'object' && f.type === 'notify' && f.payload.title === title, title);
      socket.send({ type: 'ack', id: (frame as { id: string }).id });
    }
    await waitFor(
      async () => ((await relay().call('GET', '/v1/device/usage', { token: device.token })).json.queued === 0 ? true : undefined),
      'the acks',
    );
    expect((await notify(relay(), second, { title: 'b1' })).status).toBe(202); // 5 today: the cap
    const capped = await notify(relay(), second, { title: 'b2' });
    expect(capped.json).toMatchObject({ error: 'daily_cap' });
    expect(Math.abs(Number(capped.headers['retry-after']) - secondsToMidnight())).toBeLessThanOrEqual(2);
    await socket.close();
  });

  test('MAX_BODY_BYTES: a larger body is 413 too_large', async () => {
    const device = await pairWithKey(relay());
    const reply = await notify(relay(), device.key, { title: 't', body: 'x'.repeat(2100) });
    expect([reply.status, reply.json.error]).toEqual([413, 'too_large']);
  });

  test('audio: uploads per day, then bytes per day: 429 daily_cap with Retry-After', async () => {
    const device = await pairWithKey(relay());
    const socket = await DeviceSocket.connect(relay().port, device.token);
    for (const nid of ['v1', 'v2']) await notify(relay(), device.key, { title: nid, notificationId: nid });
    const [v1, v2] = [await socket.notifyFrame('v1'), await socket.notifyFrame('v2')];
    const upload = (rid: string, bytes: number) =>
      relay().call('PUT', `/v1/device/reply/${rid}/audio`, {
        token: device.token,
        body: Buffer.alloc(bytes, 1),
        headers: { 'Content-Type': 'audio/aac' },
      });
    expect((await upload(v1.id, 3000)).status).toBe(200);
    const overBytes = await upload(v2.id, 2500);
    expect([overBytes.status, overBytes.json.error]).toEqual([429, 'daily_cap']);
    expect(overBytes.headers['retry-after']).toEqual(expect.stringMatching(/^\d+$/));
    expect((await upload(v2.id, 1500)).status).toBe(200); // 4500 of 5000
    const overCount = await upload(v1.id, 10);
    expect([overCount.status, overCount.json.error]).toEqual([429, 'daily_cap']);
    expect(overCount.json.message).toContain('recordings per computer');
    const usage = (await relay().call('GET', '/v1/device/usage', { token: device.token })).json;
    expect([usage.audioUploads, usage.audioBytes]).toEqual([2, 4500]);
    await socket.close();
  });

  test('long-poll seconds per day: once spent, waits are 0 (no timedOut)', async () => {
    const device = await pairWithKey(relay());
    await notify(relay(), device.key, { title: 'q', notificationId: 'q' });
    const started = Date.now();
    expect((await relay().call('GET', '/v1/replies/q?wait=5', { token: device.key })).json.timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(4500); // 1 second allowed of the 5 asked
    const next = Date.now();
    expect((await relay().call('GET', '/v1/replies/q?wait=5', { token: device.key })).json).toEqual({
      notificationId: 'q',
      replied: false,
      suppressed: false,
    });
    expect(Date.now() - next).toBeLessThan(3000); // not the 5 seconds asked
    expect((await relay().call('GET', '/v1/device/usage', { token: device.token })).json.pollSeconds).toBe(1);
  });

  test('reads: 600 receipt and reply reads per key in 10 minutes, then 429 with Retry-After 60; notify and status are not reads', async () => {
    const device = await pairWithKey(relay());
    await notify(relay(), device.key, { title: 'r', notificationId: 'r' });
    for (let i = 0; i < 600; i += 50) {
      const replies = await Promise.all(
        Array.from({ length: 50 }, (_, j) => relay().call('GET', (i + j) % 2 ? '/v1/receipts/r' : '/v1/replies/r', { token: device.key })),
      );
      expect(replies.every((reply) => reply.status === 200)).toBe(true);
    }
    const limited = await relay().call('GET', '/v1/receipts/r', { token: device.key });
    expect([limited.status, limited.json.error, limited.json.retryAfterSeconds, limited.headers['retry-after']]).toEqual([
      429,
      'rate_limited',
      60,
      '60',
    ]);
    expect((await relay().call('GET', '/v1/status', { token: device.key })).status).toBe(200);
  });
});

describe.each(BACKENDS)('budget, expiry and concurrency (%s)', (backend) => {
  test('the daily request budget: agents get 503 budget_exhausted; the computer still connects and drains', async () => {
    const relay = await startRelay({ backend, env: { DEVICE_REQUESTS_PER_DAY: '4' } });
    const device = await pairWithKey(relay); // the key: request 1
    expect((await notify(relay, device.key, { title: 'one', notificationId: 'one' })).status).toBe(202); // 2
    expect((await relay.call('GET', '/v1/status', { token: device.key })).status).toBe(200); // 3
    expect((await relay.call('GET', '/v1/receipts/one', { token: device.key })).status).toBe(200); // 4
    const spent = await relay.call('POST', '/v1/notify', { token: device.key, body: { title: 'two' } });
    expect([spent.status, spent.json.error]).toEqual([503, 'budget_exhausted']);
    expect(Math.abs(Number(spent.headers['retry-after']) - secondsToMidnight())).toBeLessThanOrEqual(2);
    expect(spent.json.retryAfterSeconds).toBe(Number(spent.headers['retry-after']));
    const socket = await DeviceSocket.connect(relay.port, device.token);
    const frame = await socket.notifyFrame('one');
    expect(
      (await relay.call('POST', '/v1/device/receipt', { token: device.token, body: { id: frame.id, kind: 'displayed' } })).status,
    ).toBe(200);
    const usage = (await relay.call('GET', '/v1/device/usage', { token: device.token })).json;
    expect(usage).toMatchObject({ budgetExhausted: true, requestsPercent: 100 });
    await socket.close();
    await relay.stop();
  });

  test('a note nobody took within QUEUE_TTL_HOURS is suppressed as expired (scope all), never delivered, and ends a long-poll', async () => {
    const relay = await startRelay({ backend, env: { QUEUE_TTL_HOURS: '0.0005' } }); // 1.8 s
    const device = await pairWithKey(relay);
    await notify(relay, device.key, { title: 'late', notificationId: 'late', expectReply: true });
    const waiting = relay.call('GET', '/v1/replies/late?wait=20', { token: device.key });
    await new Promise((resolve) => setTimeout(resolve, 2200));
    const started = Date.now();
    await notify(relay, device.key, { title: 'fresh', notificationId: 'fresh' }); // its expiry sweep ends the wait
    expect((await waiting).json).toEqual({ notificationId: 'late', replied: false, suppressed: true, reason: 'expired' });
    expect(Date.now() - started).toBeLessThan(10_000); // it waited for 20 s
    expect((await relay.call('GET', '/v1/receipts/late', { token: device.key })).json).toMatchObject({
      queued: false,
      suppressed: true,
      reason: 'expired',
      suppressedScope: 'all',
    });
    const socket = await DeviceSocket.connect(relay.port, device.token);
    await socket.notifyFrame('fresh');
    expect(socket.frames[0]).toEqual({ type: 'welcome', ttlSeconds: 2 });
    expect(socket.ofType('notify').map((f) => f.notificationId)).toEqual(['fresh']);
    await socket.close();
    await relay.stop();
  });

  test('50 notifies at once against a queue with 3 places left: exactly 3 queued, 47 queue_full', async () => {
    const relay = await startRelay({ backend, env: { DEVICE_QUEUE_MAX: '10', RATE_LIMIT_PER_KEY: '1000' } });
    const device = await pairWithKey(relay);
    for (let i = 0; i < 7; i++) await notify(relay, device.key, { title: `pre${i}` });
    const replies = await Promise.all(Array.from({ length: 50 }, (_, i) => notify(relay, device.key, { title: `race${i}` })));
    const statuses = replies.map((reply) => (reply.status === 202 ? 'queued' : reply.json.error));
    expect(statuses.filter((s) => s === 'queued')).toHaveLength(3);
    expect(statuses.filter((s) => s === 'queue_full')).toHaveLength(47);
    expect((await relay.call('GET', '/v1/device/usage', { token: device.token })).json).toMatchObject({ queued: 10, notifications: 10 });
    await relay.stop();
  });

  // On PostgreSQL the requests of a burst that wait together for the computer's transaction are taken together
  // (relay/core/notify-group.ts): their answers must be those of one request after another, as on SQLite.
  test('a burst at once from two keys comes out as one request after another: the per-key rate, repeated notificationIds, the counters', async () => {
    const relay = await startRelay({
      backend,
      env: { RATE_LIMIT_PER_KEY: '5', DEVICE_QUEUE_MAX: '100', RELAY_METRICS_TOKEN: METRICS_TOKEN },
    });
    const device = await pairWithKey(relay);
    const other = await makeKey(relay, device.token);
    for (let i = 0; i < 2; i++) expect((await notify(relay, device.key, { title: `before${i}` })).status).toBe(202);

    // The first key has 3 of its 5 left and sends 3; the other sends 4 of its own and one notificationId 4 times.
    const burst = [
      ...Array.from({ length: 3 }, (_, i) => notify(relay, device.key, { title: `a${i}`, notificationId: `a${i}` })),
      ...Array.from({ length: 4 }, (_, i) => notify(relay, other, { title: `b${i}`, notificationId: `b${i}` })),
      ...Array.from({ length: 4 }, () => notify(relay, other, { title: 'same', notificationId: 'same' })),
    ];
    const replies = await Promise.all(burst);
    expect(replies.slice(0, 7).map((reply) => [reply.status, reply.json.duplicate])).toEqual(Array(7).fill([202, false]));
    const same = replies.slice(7);
    expect(same.map((reply) => reply.status).sort()).toEqual([200, 200, 200, 202]);
    expect(new Set(same.map((reply) => reply.json.receivedAt)).size).toBe(1); // one note, told four times

    // Each key has used its five: the next of each waits.
    expect((await notify(relay, device.key, { title: 'a-late' })).json.error).toBe('rate_limited');
    expect((await notify(relay, other, { title: 'b-late' })).json.error).toBe('rate_limited');
    expect((await relay.call('GET', '/v1/device/usage', { token: device.token })).json).toMatchObject({ queued: 10, notifications: 10 });
    // The notes are there, each once, with their own notificationId.
    const socket = await DeviceSocket.online(relay.port, device.token);
    for (const id of ['a0', 'a1', 'a2', 'b0', 'b1', 'b2', 'b3', 'same']) await socket.notifyFrame(id);
    await waitFor(() => socket.ofType('notify').length === 10 || undefined, 'the ten notes');
    socket.socket.terminate();
    if (backend === 'postgres') {
      // Taken together, not one by one (a group is at least two).
      const metrics = (await relay.call('GET', '/metrics', { token: METRICS_TOKEN })).text;
      expect(Number(/^relay_notifications_grouped_total (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(2);
    }
    await relay.stop();
  });

  test('a burst with a refusal in it: exactly the requests the limit leaves room for are taken', async () => {
    const relay = await startRelay({ backend, env: { RATE_LIMIT_PER_KEY: '3', DEVICE_QUEUE_MAX: '100' } });
    const device = await pairWithKey(relay);
    const other = await makeKey(relay, device.token);
    for (let i = 0; i < 2; i++) expect((await notify(relay, device.key, { title: `before${i}` })).status).toBe(202);
    // The first key has one left and sends two; the other sends three, all within its limit.
    const replies = await Promise.all([
      ...Array.from({ length: 2 }, (_, i) => notify(relay, device.key, { title: `a${i}` })),
      ...Array.from({ length: 3 }, (_, i) => notify(relay, other, { title: `b${i}` })),
    ]);
    expect(
      replies
        .slice(0, 2)
        .map((reply) => reply.status)
        .sort(),
    ).toEqual([202, 429]);
    expect(replies.slice(2).map((reply) => reply.status)).toEqual([202, 202, 202]);
    expect((await relay.call('GET', '/v1/device/usage', { token: device.token })).json).toMatchObject({ queued: 6, notifications: 6 });
    await relay.stop();
  });
});
