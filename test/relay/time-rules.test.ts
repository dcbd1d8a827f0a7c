// The relay's rules of time, in-process with a clock the test moves (docs/relay-api.md#ra10, #ra13, #ra25, #ra45,
// #ra50): pairing codes expire, idle computers are removed, notes expire and are deleted by the background work,
// the per-key window slides, and daily caps renew at midnight UTC. Everything else about the relay is tested
// against a real process (test/relay/).

import { afterEach, describe, expect, test } from '@jest/globals';
import { rm } from 'node:fs/promises';
import { loadConfig } from '../../relay/config.js';
import { startRelay, type RunningRelay } from '../../relay/server.js';
import { tempFolder } from '../helpers/daemon.js';
import { request } from '../helpers/http.js';

const DAY = 24 * 3600_000;
const MINUTE = 60_000;

let running: RunningRelay | undefined;
let folder: string | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** An in-process relay on the embedded database whose clock is `clock.now`. */
async function relayAt(start: string, env: Record<string, string> = {}, secret = 'a'.repeat(64), dataDir?: string) {
  folder = dataDir ?? (await tempFolder('notifier-relay-unit-'));
  const clock = { now: Date.parse(start) };
  const config = loadConfig({ RELAY_PORT: '0', RELAY_DATA_DIR: folder, MAX_DEVICES: '50', ...env });
  running = await startRelay({ ...config, secret }, { clock: () => clock.now, background: false });
  const port = running.port;
  const call = (method: string, path: string, token?: string, body?: unknown) =>
    request(port, method, path, { token: token ?? null, body });
  const pair = async (deviceName?: string) => {
    const started = await call('POST', '/v1/pair/start', undefined, deviceName ? { deviceName } : {});
    const paired = await call('POST', '/v1/pair', undefined, { code: started.json.code });
    return { deviceId: paired.json.deviceId as string, token: paired.json.deviceToken as string };
  };
  const key = async (token: string) =>
    (await call('POST', '/v1/device/keys', token, { name: `k${Math.random().toString(16).slice(2, 8)}` })).json.key as string;
  return { clock, call, pair, key, relay: running, folder };
}

describe('relay time rules', () => {
  test('a pairing code works for 10 minutes', async () => {
    const { clock, call } = await relayAt('2026-11-20T12:00:00Z');
    const early = (await call('POST', '/v1/pair/start', undefined, {})).json.code;
    const late = (await call('POST', '/v1/pair/start', undefined, {})).json.code;
    clock.now += 9 * MINUTE;
    expect((await call('POST', '/v1/pair', undefined, { code: early })).status).toBe(200);
    clock.now += 2 * MINUTE;
    expect((await call('POST', '/v1/pair', undefined, { code: late })).json.error).toBe('bad_code');
  });

  test('another computer becomes removable after 7 days without a connection; idle ones go after 30 days', async () => {
    const { clock, call, pair, relay } = await relayAt('2026-11-01T12:00:00Z');
    const stale = await pair('old-laptop');
    const me = await pair('desk');
    clock.now += 8 * DAY;
    await call('GET', '/v1/device/info', me.token); // a sign of life of mine
    const list = await call('GET', '/v1/device/devices', me.token);
    expect(list.json.devices.find((d: { id: string }) => d.id === stale.deviceId)).toMatchObject({
      removable: true,
      removableReason: 'idle',
    });
    expect((await call('DELETE', `/v1/device/devices/${stale.deviceId}`, me.token)).json).toEqual({ removed: [stale.deviceId] });
    expect((await call('GET', '/v1/device/info', stale.token)).status).toBe(401);

    const idle = await pair('tablet');
    // Looked at through the store: any call with the tablet's token would be a sign of life.
    const paired = async () =>
      (await relay.relay.store.db.selectFrom('devices').select('name').orderBy('name').execute()).map((d) => d.name);
    clock.now += 29 * DAY;
    await call('GET', '/v1/device/info', me.token);
    await relay.housekeeper.runDueTasks();
    expect(await paired()).toEqual(['desk', 'tablet']);
    clock.now += 2 * DAY;
    await call('GET', '/v1/device/info', me.token);
    await relay.housekeeper.runDueTasks();
    expect(await paired()).toEqual(['desk']);
    expect((await call('GET', '/v1/device/info', idle.token)).status).toBe(401);
  });

  test('the background work expires a note nobody took after the queue lifetime, and deletes it an hour after 24 h', async () => {
    const { clock, call, pair, key, relay } = await relayAt('2026-11-20T12:00:00Z', { QUEUE_TTL_HOURS: '2' });
    const device = await pair();
    const agent = await key(device.token);
    await call('POST', '/v1/notify', agent, { title: 'waiting', notificationId: 'w' });
    clock.now += 2 * 3600_000 + MINUTE;
    await relay.housekeeper.runDueTasks();
    expect((await call('GET', '/v1/receipts/w', agent)).json).toMatchObject({
      suppressed: true,
      reason: 'expired',
      suppressedScope: 'all',
      queued: false,
    });
    clock.now += 22 * 3600_000; // 24 h + 1 min: the id is no longer readable, the row stays until the grace hour passes
    expect((await call('GET', '/v1/receipts/w', agent)).status).toBe(404);
    expect((await call('GET', '/v1/device/usage', device.token)).json.storageBytes).toBeGreaterThan(400);
    clock.now += 3600_000;
    await relay.housekeeper.runDueTasks();
    const rows = await relay.relay.store.db.selectFrom('notes').select('rid').where('device_id', '=', device.deviceId).execute();
    expect(rows).toEqual([]);
  });

  test('the per-key window slides: 10 minutes after the oldest hit, the key may send again', async () => {
    const { clock, call, pair, key } = await relayAt('2026-11-20T12:00:00Z', { RATE_LIMIT_PER_KEY: '2' });
    const device = await pair();
    const agent = await key(device.token);
    await call('POST', '/v1/notify', agent, { title: 'a' });
    clock.now += 4 * MINUTE;
    await call('POST', '/v1/notify', agent, { title: 'b' });
    const limited = await call('POST', '/v1/notify', agent, { title: 'c' });
    expect(limited.json).toMatchObject({ error: 'rate_limited', retryAfterSeconds: 360 });
    clock.now += 6 * MINUTE;
    expect((await call('POST', '/v1/notify', agent, { title: 'c' })).status).toBe(202);
    expect((await call('POST', '/v1/notify', agent, { title: 'd' })).json.retryAfterSeconds).toBe(240);
  });

  test('daily caps count per UTC day and renew at midnight', async () => {
    const { clock, call, pair, key } = await relayAt('2026-11-20T23:59:30Z', { DEVICE_NOTIFICATIONS_PER_DAY: '1' });
    const device = await pair();
    const agent = await key(device.token);
    expect((await call('POST', '/v1/notify', agent, { title: 'today' })).status).toBe(202);
    const capped = await call('POST', '/v1/notify', agent, { title: 'again' });
    expect([capped.json.error, capped.headers['retry-after']]).toEqual(['daily_cap', '30']);
    clock.now += MINUTE;
    expect((await call('POST', '/v1/notify', agent, { title: 'tomorrow' })).status).toBe(202);
  });

  test('computers whose ids the relay secret no longer signs are removed (RELAY_SECRET rotated)', async () => {
    const first = await relayAt('2026-11-20T12:00:00Z', {}, 'b'.repeat(64));
    const old = await first.pair('before-rotation');
    await first.relay.close();
    const second = await relayAt('2026-11-20T12:05:00Z', {}, 'c'.repeat(64), first.folder);
    expect((await second.call('GET', '/v1/device/info', old.token)).status).toBe(401);
    const fresh = await second.pair('after-rotation'); // pairing drops them first, so they never count
    const list = await second.call('GET', '/v1/device/devices', fresh.token);
    expect(list.json.devices.map((d: { id: string }) => d.id)).toEqual([fresh.deviceId]);
  });
});
