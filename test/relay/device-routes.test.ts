// The computer's HTTP routes (docs/relay-api.md#ra22 to #ra28): agent keys, status and info, usage, the
// approvals and subscriptions lists (empty on a fresh computer), the computers on the relay, unpairing.

import { describe, expect, test } from '@jest/globals';
import { DeviceSocket } from '../helpers/device-socket.js';
import { BACKENDS, pairDevice, pairWithKey, useRelay } from '../helpers/relay.js';

describe.each(BACKENDS)('device routes (%s)', (backend) => {
  const relay = useRelay({ backend });

  test('keys: made once with the key shown once, listed without it, name rules, name_taken, revoke and purge', async () => {
    const device = await pairDevice(relay());
    const make = (body: unknown) => relay().call('POST', '/v1/device/keys', { token: device.token, body });
    const made = await make({ name: 'Build-Bot', client: 'claude' });
    expect(made.status).toBe(201);
    expect(made.json).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}$/),
      name: 'build-bot',
      client: 'claude',
      scope: 'notify',
      kind: 'static',
      key: expect.stringMatching(new RegExp(`^hrk_${device.deviceId}_[0-9a-f]{8}_[0-9a-f]{64}$`)),
      createdAt: expect.any(String),
    });
    expect(made.json.key.split('_')[2]).toBe(made.json.id);

    expect((await make({ name: 'build-bot' })).json).toMatchObject({ error: 'name_taken' });
    expect((await make({ name: '-bot' })).json).toMatchObject({ error: 'invalid_request', fields: ['name'] });
    expect((await make({ name: 'x'.repeat(33) })).json).toMatchObject({ fields: ['name'] });
    expect((await make({ name: 'ok', client: 'gemini' })).json).toMatchObject({ error: 'invalid_request', fields: ['client'] });
    expect((await make({ name: 'ok', admin: true })).json).toMatchObject({ error: 'forbidden_fields', fields: ['admin'] });
    expect((await make({ name: 'ok', scope: 'admin' })).json).toMatchObject({ error: 'scope_not_allowed' });

    const list = await relay().call('GET', '/v1/device/keys', { token: device.token });
    expect(list.json).toEqual({
      keys: [{ id: made.json.id, name: 'build-bot', client: 'claude', scope: 'notify', kind: 'static', createdAt: made.json.createdAt }],
    });
    expect(list.text).not.toContain(made.json.key.slice(-64));

    // Used: lastUsedAt appears. Revoked: it stays listed with revokedAt, and stops working.
    await relay().call('POST', '/v1/notify', { token: made.json.key, body: { title: 'hi', notificationId: 'k1' } });
    expect((await relay().call('GET', '/v1/device/keys', { token: device.token })).json.keys[0].lastUsedAt).toEqual(expect.any(String));
    expect((await relay().call('DELETE', `/v1/device/keys/${made.json.id}`, { token: device.token })).json).toEqual({
      revoked: true,
      id: made.json.id,
    });
    const revoked = (await relay().call('GET', '/v1/device/keys', { token: device.token })).json.keys[0];
    expect(revoked.revokedAt).toEqual(expect.any(String));
    expect((await relay().call('GET', '/v1/receipts/k1', { token: made.json.key })).status).toBe(401);
    // A revoked name may be used again.
    expect((await make({ name: 'build-bot' })).status).toBe(201);

    const purged = await relay().call('DELETE', `/v1/device/keys/${made.json.id}?purge=1`, { token: device.token });
    expect(purged.json).toEqual({ revoked: true, purged: true, id: made.json.id });
    expect(
      (await relay().call('GET', '/v1/device/keys', { token: device.token })).json.keys.map((k: { id: string }) => k.id),
    ).not.toContain(made.json.id);
    expect((await relay().call('GET', '/v1/device/usage', { token: device.token })).json.queued).toBe(0); // its note went with it
    expect((await relay().call('DELETE', '/v1/device/keys/0000zzzz', { token: device.token })).status).toBe(404);
    expect((await relay().call('DELETE', '/v1/device/keys/00000000', { token: device.token })).status).toBe(404);
  });

  test('at most 20 active keys', async () => {
    const device = await pairDevice(relay());
    const made = await Promise.all(
      Array.from({ length: 20 }, (_, i) => relay().call('POST', '/v1/device/keys', { token: device.token, body: { name: `k${i}` } })),
    );
    expect(made.map((reply) => reply.status)).toEqual(Array(20).fill(201));
    const more = await relay().call('POST', '/v1/device/keys', { token: device.token, body: { name: 'k20' } });
    expect([more.status, more.json.error]).toEqual([429, 'too_many_keys']);
    await relay().call('DELETE', `/v1/device/keys/${made[0]!.json.id}`, { token: device.token });
    expect((await relay().call('POST', '/v1/device/keys', { token: device.token, body: { name: 'k20' } })).status).toBe(201);
  });

  test('status, info and usage', async () => {
    const device = await pairWithKey(relay(), 'studio');
    const status = await relay().call('POST', '/v1/device/status', {
      token: device.token,
      body: { quietActive: true, quietUntil: '08:00', muted: false },
    });
    expect(status.json).toEqual({ ok: true });
    expect((await relay().call('POST', '/v1/device/status', { token: device.token, body: { muted: 'yes' } })).json).toMatchObject({
      fields: ['muted'],
    });
    expect(
      (await relay().call('POST', '/v1/device/status', { token: device.token, body: { quietUntil: 'x'.repeat(41) } })).json,
    ).toMatchObject({ fields: ['quietUntil'] });
    await relay().call('POST', '/v1/notify', { token: device.key, body: { title: 'one' } });

    const info = await relay().call('GET', '/v1/device/info', { token: device.token });
    expect(info.json).toEqual({
      online: false,
      lastSeenAt: expect.any(String),
      pending: 1,
      quietHours: { active: true, until: '08:00' },
      keys: 1,
    });
    const socket = await DeviceSocket.connect(relay().port, device.token);
    await socket.waitFor((f) => typeof f === 'object' && f.type === 'notify', 'the note');
    expect((await relay().call('GET', '/v1/device/info', { token: device.token })).json.online).toBe(true);

    const usage = await relay().call('GET', '/v1/device/usage', { token: device.token });
    expect(usage.json).toEqual({
      day: new Date().toISOString().slice(0, 10),
      requests: 7, // the key, status x3, notify, info x2; the usage route itself is not counted
      wsMessages: 0,
      notifications: 1,
      pollSeconds: 0,
      audioUploads: 0,
      audioBytes: 0,
      queued: 1,
      storageBytes: expect.any(Number),
      limits: {
        audioUploadsPerDay: 40,
        audioBytesPerDay: 20971520,
        requestsPerDay: 5000,
        freePlanRequestsPerDay: 100000,
        notificationsPerDay: 500,
        pollSecondsPerDay: 3000,
        queueMax: 100,
      },
      requestsPercent: 0.1,
      budgetExhausted: false,
    });
    expect(usage.json.storageBytes).toBeGreaterThan(0);
    expect((await relay().call('GET', '/v1/device/usage', { token: device.token })).json.requests).toBe(7);
    await socket.close();
  });

  test('approvals and subscriptions: empty lists; nothing can be approved', async () => {
    const device = await pairDevice(relay());
    expect((await relay().call('GET', '/v1/device/consents', { token: device.token })).json).toEqual({ consents: [] });
    const decide = (body: unknown) => relay().call('POST', '/v1/device/consent', { token: device.token, body });
    expect((await decide({ id: 'x', decision: 'maybe' })).json).toMatchObject({ error: 'invalid_request', fields: ['decision'] });
    expect((await decide({ decision: 'approve' })).json).toMatchObject({ fields: ['id'] });
    expect((await decide({ id: 'a'.repeat(72), decision: 'approve' })).json).toMatchObject({ error: 'not_found' });
    expect((await relay().call('GET', '/v1/device/events', { token: device.token })).json).toEqual({ restrictedTo: [], subscriptions: [] });
    const sub = `sub_${'a1'.repeat(10)}`;
    expect((await relay().call('DELETE', `/v1/device/events/subscriptions/${sub}`, { token: device.token })).json).toEqual({
      removed: true,
      id: sub,
    });
    expect((await relay().call('DELETE', '/v1/device/events/subscriptions/sub_bad', { token: device.token })).status).toBe(404);
    expect((await relay().call('GET', '/v1/device/whatever', { token: device.token })).json).toEqual({
      error: 'not_found',
      message: 'no such device endpoint',
    });
  });

  test('the computers on the relay: listed; one may not remove itself or a recent other; unpairing removes it', async () => {
    const me = await pairDevice(relay(), 'me-device');
    const other = await pairDevice(relay(), 'other-device');
    const list = await relay().call('GET', '/v1/device/devices', { token: me.token });
    expect(list.json.removed).toEqual([]);
    expect(list.json.devices).toEqual(
      expect.arrayContaining([
        {
          id: me.deviceId,
          name: 'me-device',
          online: false,
          lastSeenAt: expect.any(String),
          createdAt: expect.any(String),
          thisDevice: true,
          removable: false,
        },
        {
          id: other.deviceId,
          name: 'other-device',
          online: false,
          lastSeenAt: expect.any(String),
          createdAt: expect.any(String),
          thisDevice: false,
          removable: false,
        },
      ]),
    );
    expect((await relay().call('DELETE', `/v1/device/devices/${other.deviceId}`, { token: me.token })).json).toMatchObject({
      error: 'not_removable',
    });
    expect((await relay().call('DELETE', `/v1/device/devices/${me.deviceId}`, { token: me.token })).status).toBe(400);
    expect((await relay().call('DELETE', `/v1/device/devices/${'0'.repeat(48)}`, { token: me.token })).status).toBe(404);
    const pruned = await relay().call('POST', '/v1/device/prune', { token: me.token });
    expect(pruned.json.removed).toEqual([]);
    expect(pruned.json.devices.map((d: { id: string }) => d.id)).toContain(other.deviceId);

    expect((await relay().call('DELETE', '/v1/device', { token: other.token })).json).toEqual({ unpaired: true });
    const after = await relay().call('GET', '/v1/device/devices', { token: me.token });
    expect(after.json.devices.map((d: { id: string }) => d.id)).not.toContain(other.deviceId);
    expect((await relay().call('DELETE', '/v1/device', { token: other.token })).status).toBe(401);
  });
});
