// The OAuth server's rules of time, in-process with a clock the test moves (docs/relay-api.md#ra101, #ra104,
// #ra106, #ra108, #ra112): requests expire after 10 minutes (the background sweep tells the computer), codes must
// be exchanged within 5 minutes and only once (an hour later too), the device flow's interval and slow_down, the hourly limits renewing, and which
// computer is asked when the request names none (the one connected, else the one seen last). The
// rest of the OAuth server is tested against real processes (test/relay/oauth*.test.ts).

import { afterEach, describe, expect, test } from '@jest/globals';
import { rm } from 'node:fs/promises';
import { loadConfig } from '../../../relay/config.js';
import { startRelay, type RunningRelay } from '../../../relay/server.js';
import { tempFolder } from '../../helpers/daemon.js';
import { DeviceSocket } from '../../helpers/device-socket.js';
import { request } from '../../helpers/http.js';
import { authorizeQuery, DEVICE_GRANT, pageRid, pkce } from '../../helpers/oauth.js';

const MINUTE = 60_000;
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

let running: RunningRelay | undefined;
let folder: string | undefined;
const sockets: DeviceSocket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) await socket.close();
  await running?.close();
  running = undefined;
  if (folder) await rm(folder, { recursive: true, force: true });
});

async function relayAt(start: string, env: Record<string, string> = {}) {
  folder = await tempFolder('notifier-oauth-unit-');
  const clock = { now: Date.parse(start) };
  const config = loadConfig({ RELAY_PORT: '0', RELAY_DATA_DIR: folder, MAX_DEVICES: '50', REGISTER_PER_HOUR: '1000', ...env });
  running = await startRelay({ ...config, secret: 'b'.repeat(64) }, { clock: () => clock.now, background: false });
  const port = running.port;
  const call = (method: string, path: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    request(port, method, path, { token: options.token ?? null, body: options.body, headers: options.headers });
  const form = (path: string, fields: Record<string, string>) =>
    call('POST', path, { body: new URLSearchParams(fields).toString(), headers: FORM });
  const register = async (body: object = {}) =>
    (await call('POST', '/register', { body: { client_name: 'Timed', redirect_uris: ['http://127.0.0.1:9/callback'], ...body } })).json;
  const computer = async () => {
    const started = await call('POST', '/v1/pair/start', { body: {} });
    const paired = (await call('POST', '/v1/pair', { body: { code: started.json.code } })).json;
    const socket = await DeviceSocket.connect(port, paired.deviceToken);
    sockets.push(socket);
    await socket.welcome();
    return { token: paired.deviceToken as string, socket };
  };
  const decide = (token: string, id: string, decision: string) => call('POST', '/v1/device/consent', { token, body: { id, decision } });
  return { clock, call, form, register, computer, decide, relay: running };
}

describe('OAuth time rules', () => {
  test('a request waits 10 minutes; then the sweep closes it and tells the computer', async () => {
    const { clock, call, register, computer, decide, relay } = await relayAt('2026-11-20T12:00:00Z');
    const device = await computer();
    const rid = pageRid((await call('GET', `/authorize?${authorizeQuery((await register()).client_id, pkce().challenge)}`)).text);
    clock.now += 10 * MINUTE - 1000;
    await relay.housekeeper.runDueTasks();
    expect((await call('GET', `/authorize/status?rid=${rid}`)).json.status).toBe('pending');
    clock.now += 30_000; // the sweep runs every 30 seconds
    await relay.housekeeper.runDueTasks();
    expect(await device.socket.waitFor((f) => typeof f === 'object' && f.type === 'consent_resolved', 'expiry')).toEqual({
      type: 'consent_resolved',
      id: rid,
      status: 'expired',
    });
    expect((await call('GET', `/authorize/status?rid=${rid}`)).json).toEqual({ status: 'expired' });
    const late = await decide(device.token, rid, 'approve');
    expect([late.status, late.json.error]).toEqual([410, 'expired']);
    expect((await call('GET', '/v1/device/consents', { token: device.token })).json.consents[0].status).toBe('expired');
    clock.now += 25 * 60 * MINUTE; // a day later the sweep deletes it
    await relay.housekeeper.runDueTasks();
    expect((await call('GET', '/v1/device/consents', { token: device.token })).json.consents).toEqual([]);
  });

  test('an approved code is exchanged within 5 minutes; once exchanged, never again, an hour later too', async () => {
    const { clock, call, form, register, computer, decide } = await relayAt('2026-11-20T12:00:00Z');
    const device = await computer();
    const client = (await register()).client_id;
    const approvedCode = async () => {
      const { verifier, challenge } = pkce();
      const rid = pageRid((await call('GET', `/authorize?${authorizeQuery(client, challenge)}`)).text);
      const code = new URL((await decide(device.token, rid, 'approve')).json.redirect).searchParams.get('code')!;
      return { code, verifier };
    };
    const trade = (code: string, verifier: string) =>
      form('/token', {
        grant_type: 'authorization_code',
        client_id: client,
        code,
        code_verifier: verifier,
        redirect_uri: 'http://127.0.0.1:9/callback',
      });
    const late = await approvedCode();
    clock.now += 5 * MINUTE;
    expect((await trade(late.code, late.verifier)).json.error).toBe('invalid_grant');
    const prompt = await approvedCode();
    clock.now += 4 * MINUTE;
    const tokens = await trade(prompt.code, prompt.verifier);
    expect(tokens.status).toBe(200);
    clock.now += 60 * MINUTE;
    expect((await trade(prompt.code, prompt.verifier)).json.error).toBe('invalid_grant');
    expect((await call('GET', '/v1/status', { token: tokens.json.access_token })).status).toBe(401); // revoked by the second use
  });

  test('the device flow: pending, slow_down adds 5 seconds for good, expired_token after 10 minutes', async () => {
    const { clock, form, register, computer } = await relayAt('2026-11-20T12:00:00Z');
    await computer();
    const client = (await register({ grant_types: [DEVICE_GRANT] })).client_id;
    const started = (await form('/device_authorization', { client_id: client })).json;
    const poll = async () =>
      (await form('/token', { grant_type: DEVICE_GRANT, client_id: client, device_code: started.device_code })).json.error;
    clock.now += 5000;
    expect(await poll()).toBe('authorization_pending');
    clock.now += 1000;
    expect(await poll()).toBe('slow_down');
    clock.now += 9000; // the interval is 10 s now
    expect(await poll()).toBe('slow_down');
    clock.now += 15_000; // and 15 s after a second slow_down
    expect(await poll()).toBe('authorization_pending');
    clock.now += 10 * MINUTE;
    expect(await poll()).toBe('expired_token');
  });

  test('REGISTER_PER_HOUR for the whole relay, renewing; the newest 200 clients are kept', async () => {
    const { clock, call } = await relayAt('2026-11-20T12:00:00Z', { REGISTER_PER_HOUR: '2' });
    const body = { redirect_uris: ['http://127.0.0.1:9/callback'] };
    expect((await call('POST', '/register', { body })).status).toBe(201);
    clock.now += 10 * MINUTE;
    expect((await call('POST', '/register', { body })).status).toBe(201);
    const third = await call('POST', '/register', { body });
    expect([third.status, third.json.error, third.json.retryAfterSeconds, third.headers['retry-after']]).toEqual([
      429,
      'rate_limited',
      3000,
      '3000',
    ]);
    clock.now += 50 * MINUTE;
    expect((await call('POST', '/register', { body })).status).toBe(201);

    await running!.close();
    const many = await relayAt('2026-11-20T12:00:00Z', { REGISTER_PER_HOUR: '1000' });
    const ids: string[] = [];
    for (let i = 0; i < 201; i++) {
      many.clock.now += 1;
      ids.push((await many.call('POST', '/register', { body })).json.client_id);
    }
    const known = async (id: string) => (await many.form('/token', { client_id: id })).json.error !== 'invalid_client';
    expect([await known(ids[0]!), await known(ids[1]!), await known(ids[200]!)]).toEqual([false, true, true]);
  });

  test('which computer approves: device=N in pairing order, else the one connected now, else the one seen most recently', async () => {
    const { clock, call, register, relay } = await relayAt('2026-11-20T12:00:00Z');
    const pair = async (): Promise<{ deviceId: string; deviceToken: string }> => {
      const started = await call('POST', '/v1/pair/start', { body: {} });
      return (await call('POST', '/v1/pair', { body: { code: started.json.code } })).json;
    };
    const first = await pair();
    clock.now += MINUTE;
    const second = await pair();
    const client = (await register()).client_id;
    const chosen = async (extra: Record<string, string> = {}) =>
      pageRid((await call('GET', `/authorize?${authorizeQuery(client, pkce().challenge, extra)}`)).text).slice(0, 48);

    expect(await chosen()).toBe(second.deviceId); // neither is connected: the one seen last (paired later)
    clock.now += MINUTE;
    await call('GET', '/v1/device/info', { token: first.deviceToken }); // a sign of life of the first
    expect(await chosen()).toBe(first.deviceId);
    const socket = await DeviceSocket.connect(relay.port, second.deviceToken);
    sockets.push(socket);
    await socket.welcome();
    clock.now += MINUTE;
    await call('GET', '/v1/device/info', { token: first.deviceToken }); // seen after, but not connected
    expect(await chosen()).toBe(second.deviceId);
    expect(await chosen({ device: '1' })).toBe(first.deviceId);
  });

  test('12 requests begun per hour on one computer, renewing; nothing paired: the pair-first page', async () => {
    const { clock, call, form, register, computer, decide } = await relayAt('2026-11-20T12:00:00Z');
    const lonely = await call('GET', `/authorize?${authorizeQuery((await register()).client_id, pkce().challenge)}`);
    expect([lonely.status, lonely.text.includes('Pair Notifier first')]).toEqual([200, true]);
    expect((await form('/device_authorization', { client_id: (await register()).client_id })).json.error).toBe('invalid_request');

    const device = await computer();
    const begin = async () => call('GET', `/authorize?${authorizeQuery((await register()).client_id, pkce().challenge)}`);
    for (let i = 0; i < 12; i++) {
      clock.now += MINUTE;
      await decide(device.token, pageRid((await begin()).text), 'deny');
    }
    expect((await begin()).status).toBe(429);
    const deviceFlow = await form('/device_authorization', { client_id: (await register()).client_id });
    expect([deviceFlow.status, deviceFlow.json.error, deviceFlow.headers['retry-after']]).toEqual([429, 'slow_down', '60']);
    clock.now += 50 * MINUTE;
    expect((await begin()).status).toBe(200);
  });
});
