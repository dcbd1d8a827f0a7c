// The device stream (docs/relay-api.md#ra30 to #ra33), the computer played by a real WebSocket client: auth
// before the upgrade, welcome, each new note pushed once per connection, every unacknowledged one re-sent in
// order on reconnect, hello/status/ack/receipt, ping/pong, ignored frames, one socket per computer, unpair.

import { describe, expect, test } from '@jest/globals';
import { waitFor } from '../helpers/daemon.js';
import { DeviceSocket } from '../helpers/device-socket.js';
import { BACKENDS, pairWithKey, tampered, useRelay, type RelayProcess } from '../helpers/relay.js';

async function notify(relay: RelayProcess, key: string, body: object) {
  const reply = await relay.call('POST', '/v1/notify', { token: key, body });
  if (reply.status !== 202) throw new Error(`notify answered ${reply.status}: ${reply.text}`);
  return reply.json;
}

const usage = async (relay: RelayProcess, token: string) => (await relay.call('GET', '/v1/device/usage', { token })).json;

describe.each(BACKENDS)('device stream (%s)', (backend) => {
  const relay = useRelay({ backend });

  test('the token is checked before the upgrade: none 401, an agent key 403, no Upgrade header 426', async () => {
    const device = await pairWithKey(relay());
    await expect(DeviceSocket.connect(relay().port, undefined)).rejects.toMatchObject({ status: 401 });
    await expect(DeviceSocket.connect(relay().port, tampered(device.token))).rejects.toMatchObject({ status: 401 });
    const asAgent = DeviceSocket.connect(relay().port, device.key);
    await expect(asAgent).rejects.toMatchObject({ status: 403 });
    await expect(asAgent.catch((error: { body: string }) => JSON.parse(error.body))).resolves.toMatchObject({ error: 'wrong_credential' });
    const plain = await relay().call('GET', '/v1/device/stream', { token: device.token });
    expect(plain.status).toBe(426);
    expect(plain.json.error).toBe('upgrade_required');
  });

  test('welcome, then each new notification pushed once with the sender key; ping is answered pong', async () => {
    const device = await pairWithKey(relay());
    const socket = await DeviceSocket.connect(relay().port, device.token);
    expect(await socket.welcome()).toEqual({ type: 'welcome', ttlSeconds: 86400 });
    socket.send('ping');
    await socket.waitFor((f) => f === 'pong', 'pong');

    await notify(relay(), device.key, { title: 'Build 12 passed', status: 'DONE', tags: ['ci', 'ci', 'main'], notificationId: 'build-12' });
    const frame = await socket.notifyFrame('build-12');
    expect(frame).toEqual({
      type: 'notify',
      id: expect.stringMatching(/^r_[0-9a-f]{24}$/),
      notificationId: 'build-12',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      key: { id: expect.stringMatching(/^[0-9a-f]{8}$/), name: expect.stringMatching(/^agent-/), client: 'other' },
      payload: { title: 'Build 12 passed', status: 'done', tags: ['ci', 'main'], notificationId: 'build-12', expectReply: false },
    });
    // hello asks for notes never sent on this socket: this one was, so it is not sent again.
    socket.send({ type: 'hello', quietActive: false, muted: false });
    await waitFor(async () => ((await usage(relay(), device.token)).wsMessages === 1 ? true : undefined), 'the hello to count');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(socket.ofType('notify').filter((f) => f.id === frame.id)).toHaveLength(1);
    await socket.close();
  });

  test('a reconnect re-sends every unacknowledged note in order, sent before or not; acked and received ones are not', async () => {
    const device = await pairWithKey(relay());
    const first = await DeviceSocket.connect(relay().port, device.token);
    for (const id of ['n1', 'n2', 'n3']) await notify(relay(), device.key, { title: id, notificationId: id });
    const n1 = await first.notifyFrame('n1');
    await first.notifyFrame('n3');
    first.send({ type: 'ack', id: n1.id });
    const n2 = await first.notifyFrame('n2');
    first.send({ type: 'receipt', notificationId: n2.id, kind: 'displayed' }); // the alias of id; a receipt acks too
    await waitFor(async () => ((await usage(relay(), device.token)).queued === 1 ? true : undefined), 'two notes to be taken');
    await first.close();

    await notify(relay(), device.key, { title: 'n4', notificationId: 'n4' }); // queued while offline
    const second = await DeviceSocket.connect(relay().port, device.token);
    await second.notifyFrame('n4');
    expect(second.ofType('notify').map((f) => f.notificationId)).toEqual(['n3', 'n4']);
    expect(second.frames[0]).toMatchObject({ type: 'welcome' });
    const receipt = await relay().call('GET', '/v1/receipts/n2', { token: device.key });
    expect(receipt.json).toMatchObject({ displayed: true, queued: false });
    await second.close();
  });

  test('hello and status set what agents see; frames over 16 KiB, non-JSON, unknown and binary frames are ignored', async () => {
    const device = await pairWithKey(relay());
    const socket = await DeviceSocket.connect(relay().port, device.token);
    socket.send({ type: 'hello', quietActive: true, quietUntil: '2026-12-01T07:00:00Z', muted: true });
    await waitFor(async () => ((await usage(relay(), device.token)).wsMessages === 1 ? true : undefined), 'the hello');
    const status = await relay().call('GET', '/v1/status', { token: device.key });
    expect(status.json).toEqual({
      online: true,
      lastSeenAt: expect.any(String),
      quietHours: { active: true, until: '2026-12-01T07:00:00Z' },
    });

    socket.send('not json');
    socket.send(JSON.stringify({ type: 'status', quietActive: false, padding: 'x'.repeat(17 * 1024) }));
    socket.send({ type: 'launch', command: 'rm -rf /' });
    socket.socket.send(Buffer.from(JSON.stringify({ type: 'status', quietActive: false })), { binary: true });
    socket.send({ type: 'status', quietActive: false });
    await waitFor(async () => ((await usage(relay(), device.token)).wsMessages === 2 ? true : undefined), 'the status frame');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await usage(relay(), device.token)).wsMessages).toBe(2); // only the hello and the small status counted
    expect((await relay().call('GET', '/v1/status', { token: device.key })).json.quietHours).toEqual({ active: false });
    await socket.close();
    await waitFor(
      async () => ((await relay().call('GET', '/v1/status', { token: device.key })).json.online === false ? true : undefined),
      'offline',
    );
  });

  test('receipts over the socket reach agents; a reply wakes a long-poll', async () => {
    const device = await pairWithKey(relay());
    const socket = await DeviceSocket.connect(relay().port, device.token);
    await notify(relay(), device.key, { title: 'Deploy?', notificationId: 'ask-1', expectReply: true });
    const frame = await socket.notifyFrame('ask-1');
    const waiting = relay().call('GET', '/v1/replies/ask-1?wait=20', { token: device.key });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const asked = Date.now();
    socket.send({ type: 'receipt', id: frame.id, kind: 'replied', text: '  ship it  ' });
    const reply = await waiting;
    expect(Date.now() - asked).toBeLessThan(10_000); // it waited for 20 s
    expect(reply.json).toEqual({
      notificationId: 'ask-1',
      replied: true,
      repliedAt: expect.any(String),
      reply: 'ship it',
      text: 'ship it',
      suppressed: false,
    });
    await socket.close();
  });

  test('one socket per computer: a newer one closes the older with 4000; unpairing closes with 4001', async () => {
    const device = await pairWithKey(relay());
    const older = await DeviceSocket.online(relay().port, device.token);
    const newer = await DeviceSocket.connect(relay().port, device.token);
    expect(await older.closed).toEqual({ code: 4000, reason: 'replaced by a newer connection' });
    await notify(relay(), device.key, { title: 'to the newer', notificationId: 'x' });
    await newer.notifyFrame('x');
    expect(older.ofType('notify')).toHaveLength(0);

    expect((await relay().call('DELETE', '/v1/device', { token: device.token })).json).toEqual({ unpaired: true });
    expect(await newer.closed).toEqual({ code: 4001, reason: 'unpaired' });
    expect((await relay().call('GET', '/v1/device/info', { token: device.token })).status).toBe(401);
    expect((await relay().call('GET', '/v1/status', { token: device.key })).status).toBe(401);
  });
});
