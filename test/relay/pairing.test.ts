// Pairing (docs/relay-api.md#ra10 to #ra12): the one-time code, the device token shown once, the pairing
// secret, every per-address and relay-wide limit in its order, and same-name re-pairing.

import { describe, expect, test } from '@jest/globals';
import { BACKENDS, pairDevice, startRelay, useRelay, type RelayProcess } from '../helpers/relay.js';

const from = (address: string): Record<string, string> => ({ 'X-Forwarded-For': address });

async function start(relay: RelayProcess, body: object = {}, headers: Record<string, string> = {}) {
  return relay.call('POST', '/v1/pair/start', { body, headers });
}

describe.each(BACKENDS)('pairing (%s)', (backend) => {
  const relay = useRelay({ backend });

  test('a code, then the device id and token, once; the code is single-use and read case- and dash-insensitively', async () => {
    const started = await start(relay(), { deviceName: 'laptop' });
    expect(started.status).toBe(201);
    expect(started.json).toEqual({ code: expect.stringMatching(/^[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}$/), expiresInSeconds: 600 });
    const typed = (started.json.code as string).toLowerCase().replace('-', ' ');

    const paired = await relay().call('POST', '/v1/pair', { body: { code: typed } });
    expect(paired.status).toBe(200);
    expect(Object.keys(paired.json).sort()).toEqual(['deviceId', 'deviceToken']);
    expect(paired.json.deviceId).toMatch(/^[0-9a-f]{48}$/);
    expect(paired.json.deviceToken).toMatch(new RegExp(`^hrd_${paired.json.deviceId}_[0-9a-f]{64}$`));

    const info = await relay().call('GET', '/v1/device/devices', { token: paired.json.deviceToken });
    expect(info.status).toBe(200);
    expect(info.json.devices).toEqual([
      expect.objectContaining({ id: paired.json.deviceId, name: 'laptop', thisDevice: true, online: false }),
    ]);
    // The token is never shown again: no route returns it.
    expect(JSON.stringify(info.json)).not.toContain(paired.json.deviceToken.slice(-64));

    const again = await relay().call('POST', '/v1/pair', { body: { code: started.json.code } });
    expect(again.status).toBe(403);
    expect(again.json).toEqual({ error: 'bad_code', message: expect.any(String) });
  });

  test('bad requests name the field; a wrong code is 403 bad_code', async () => {
    const missing = await relay().call('POST', '/v1/pair', { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.json).toMatchObject({ error: 'invalid_request', fields: ['code'] });
    const notJSON = await relay().call('POST', '/v1/pair', { body: '{"code":', headers: { 'Content-Type': 'application/json' } });
    expect(notJSON.status).toBe(400);
    expect(notJSON.json.error).toBe('invalid_request');
    const badName = await start(relay(), { deviceName: 42 });
    expect(badName.status).toBe(400);
    expect(badName.json).toMatchObject({ error: 'invalid_request', fields: ['deviceName'] });
    const wrong = await relay().call('POST', '/v1/pair', { body: { code: 'AAAA-AAAA' } });
    expect(wrong.status).toBe(403);
    expect(wrong.json.error).toBe('bad_code');
    const method = await relay().call('GET', '/v1/pair');
    expect(method.status).toBe(405);
    expect(method.json.error).toBe('method_not_allowed');
  });

  test('a long or messy device name is cleaned and cut to 60 characters', async () => {
    const device = await pairDevice(relay(), `  my\u0007 ${'x'.repeat(100)}`);
    const list = await relay().call('GET', '/v1/device/devices', { token: device.token });
    const me = list.json.devices.find((d: { thisDevice: boolean }) => d.thisDevice);
    expect(me.name).toBe(`my ${'x'.repeat(57)}`);
  });
});

describe.each(BACKENDS)('pairing limits (%s)', (backend) => {
  test('PAIRING_SECRET: without it or with a wrong one 401, with it 201', async () => {
    const relay = await startRelay({ backend, env: { PAIRING_SECRET: 'open sesame', MAX_DEVICES: '5' } });
    expect((await start(relay)).status).toBe(401);
    const wrong = await start(relay, {}, { 'X-Pairing-Secret': 'open sesamE' });
    expect(wrong.status).toBe(401);
    expect(wrong.json.error).toBe('unauthorized');
    expect((await start(relay, {}, { 'X-Pairing-Secret': 'open sesame' })).status).toBe(201);
    await relay.stop();
  });

  test('MAX_DEVICES counts other names only: a same-name pairing replaces the old computer', async () => {
    const relay = await startRelay({ backend, env: { MAX_DEVICES: '2' } });
    const first = await pairDevice(relay, 'desk');
    await pairDevice(relay, 'laptop');
    const third = await start(relay, { deviceName: 'tablet' });
    expect(third.status).toBe(403);
    expect(third.json.error).toBe('device_limit');

    const reinstalled = await pairDevice(relay, 'desk');
    expect((await relay.call('GET', '/v1/device/info', { token: first.token })).status).toBe(401);
    const list = await relay.call('GET', '/v1/device/devices', { token: reinstalled.token });
    expect(list.json.devices.map((d: { name: string }) => d.name).sort()).toEqual(['desk', 'laptop']);
    expect(list.json.devices.find((d: { name: string }) => d.name === 'desk').id).toBe(reinstalled.deviceId);
    await relay.stop();
  });

  test('starts per address per hour, then per relay per hour, then waiting codes: 429 with the wait in the body only', async () => {
    const relay = await startRelay({
      backend,
      env: { RELAY_TRUST_PROXY: 'true', PAIR_STARTS_PER_HOUR: '4', PAIR_STARTS_GLOBAL_PER_HOUR: '6' },
    });
    // Waiting codes: 3 per address.
    for (let i = 0; i < 3; i++) expect((await start(relay, {}, from('198.51.100.1'))).status).toBe(201);
    const waiting = await start(relay, {}, from('198.51.100.1'));
    expect(waiting.status).toBe(429);
    expect(waiting.json).toMatchObject({ error: 'rate_limited', retryAfterSeconds: 600 });
    expect(waiting.headers['retry-after']).toBeUndefined();

    // Starts per address: use one code so the waiting rule is not the one hit.
    const code = (await start(relay, {}, from('198.51.100.2'))).json.code;
    expect((await relay.call('POST', '/v1/pair', { body: { code }, headers: from('198.51.100.2') })).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const started = await start(relay, {}, from('198.51.100.2'));
      await relay.call('POST', '/v1/pair', { body: { code: started.json.code }, headers: from('198.51.100.2') });
    }
    // 3 + 3 = 6 starts in all now: the relay-wide limit is hit before this address's (3 of 4).
    const global = await start(relay, {}, from('198.51.100.3'));
    expect(global.status).toBe(429);
    expect(global.json.message).toContain('on this relay');
    expect(global.json.retryAfterSeconds).toBeGreaterThan(3500);
    expect(global.json.retryAfterSeconds).toBeLessThanOrEqual(3600);
    await relay.stop();
  });

  test('per address: a start over PAIR_STARTS_PER_HOUR from one address is refused while another address still may', async () => {
    const relay = await startRelay({ backend, env: { RELAY_TRUST_PROXY: '1', PAIR_STARTS_PER_HOUR: '2' } });
    for (let i = 0; i < 2; i++) expect((await start(relay, {}, from('192.0.2.9'))).status).toBe(201);
    const third = await start(relay, {}, from('192.0.2.9'));
    expect(third.status).toBe(429);
    expect(third.json.message).toContain('from one address');
    expect(third.json.retryAfterSeconds).toBeGreaterThan(3500);
    expect((await start(relay, {}, from('192.0.2.10'))).status).toBe(201);
    await relay.stop();
  });

  test('ten wrong codes from an address pause pairing from there (even with the right code); others may go on', async () => {
    const relay = await startRelay({ backend, env: { RELAY_TRUST_PROXY: '1', PAIR_STARTS_PER_HOUR: '6' } });
    const good = (await start(relay, {}, from('203.0.113.5'))).json.code;
    for (let i = 0; i < 10; i++) {
      const wrong = await relay.call('POST', '/v1/pair', { body: { code: 'ZZZZ-ZZZZ' }, headers: from('203.0.113.5') });
      expect(wrong.status).toBe(403);
    }
    const paused = await relay.call('POST', '/v1/pair', { body: { code: good }, headers: from('203.0.113.5') });
    expect(paused.status).toBe(429);
    expect(paused.json).toMatchObject({ error: 'rate_limited', retryAfterSeconds: 600 });
    expect((await relay.call('POST', '/v1/pair', { body: { code: good }, headers: from('203.0.113.6') })).status).toBe(200);
    await relay.stop();
  });
});
