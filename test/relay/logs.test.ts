// The relay's log (docs/relay.md, "Logs"): one JSON object per line, one line per HTTP request with its id, route
// pattern, status, duration and the computer and key that made it (a device-stream upgrade and an OAuth access
// token included); X-Request-Id readable by browser scripts where CORS applies; RELAY_LOG_LEVEL and RELAY_LOG_FORMAT=pretty;
// and no secret, of any kind and sent any way (headers, bodies, query strings, paths), anywhere in the log.
// The log is a process's output, so this is a black-box test of the real relay; it does not depend on the
// database, so it runs on the embedded one only.

import { describe, expect, test } from '@jest/globals';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import WebSocket from 'ws';
import { waitFor } from '../../rigs/wait.js';
import { loadConfig } from '../../relay/config.js';
import { DeviceSocket } from '../helpers/device-socket.js';
import { authorizeAndApprove, deviceIndex, exchange, register } from '../helpers/oauth.js';
import {
  makeKey,
  pairDevice,
  parseLogLines,
  RELAY_MAIN,
  startRelay,
  tampered,
  useRelay,
  type LogLine,
  type RelayProcess,
} from '../helpers/relay.js';

const PAIRING_SECRET = `pairing-${randomBytes(12).toString('hex')}`;
/** The headers of a WebSocket handshake (RFC 6455), sent as a plain request to read the relay's refusal. */
const WEBSOCKET_HANDSHAKE = {
  Connection: 'Upgrade',
  Upgrade: 'websocket',
  'Sec-WebSocket-Version': '13',
  'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
};
const hex = (bytes: number): string => randomBytes(bytes).toString('hex');

/** The lines of the requests answered with `requestId` (waits for them: the log comes through its own pipe). */
async function requestLines(relay: RelayProcess, requestId: string): Promise<LogLine[]> {
  const lines = () => parseLogLines(relay.log()).filter((line) => line.msg === 'request' && line.requestId === requestId);
  return waitFor(() => (lines().length > 0 ? lines() : undefined), `the log line of request ${requestId}`);
}

describe('the relay log', () => {
  const relay = useRelay({ backend: 'sqlite', env: { PAIRING_SECRET } });

  test('every line is a JSON object; each request has one line with its id, method, route pattern, status, duration and caller', async () => {
    const device = await pairDevice(relay(), 'logs', { 'X-Pairing-Secret': PAIRING_SECRET });
    const key = await makeKey(relay(), device.token);
    const keyId = key.split('_')[2];

    const info = await relay().call('GET', '/v1/device/info', { token: device.token, headers: { 'X-Request-Id': 'proxy-0001' } });
    expect([info.status, info.headers['x-request-id']]).toEqual([200, 'proxy-0001']);
    const [infoLine, ...more] = await requestLines(relay(), 'proxy-0001');
    expect(more).toEqual([]);
    expect(infoLine).toMatchObject({ level: 'info', method: 'GET', route: '/v1/device/info', status: 200, deviceId: device.deviceId });
    expect(infoLine!.keyId).toBeUndefined();
    expect(typeof infoLine!.durationMs).toBe('number');
    expect(typeof infoLine!.time).toBe('string');

    // The route is the pattern: the id in the path is not in the line.
    const receiptId = `r-${hex(6)}`;
    const receipt = await relay().call('GET', `/v1/receipts/${receiptId}`, { token: key, headers: { 'X-Request-Id': 'proxy-0002' } });
    expect(receipt.status).toBe(404);
    const [receiptLine] = await requestLines(relay(), 'proxy-0002');
    expect(receiptLine).toMatchObject({ route: '/v1/receipts/:id', status: 404, deviceId: device.deviceId, keyId });
    expect(JSON.stringify(receiptLine)).not.toContain(receiptId);

    // No id given, or one with a shape a log should not take (spaces, too long): a new one, answered.
    for (const given of [undefined, 'two words', 'x'.repeat(129), 'line\tbreak']) {
      const reply = await relay().call('GET', '/health', { headers: given === undefined ? {} : { 'X-Request-Id': given } });
      const id = reply.headers['x-request-id'] as string;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(await requestLines(relay(), id)).toEqual([expect.objectContaining({ route: '/health|/healthz', status: 200 })]);
    }

    // A route that does not exist: no path in the line either.
    const unknown = await relay().call('GET', `/nothing/${receiptId}`);
    const [unknownLine] = await requestLines(relay(), unknown.headers['x-request-id'] as string);
    expect(unknownLine).toMatchObject({ route: '(none)', status: 404 });
    expect(parseLogLines(relay().log()).length).toBeGreaterThan(0); // every line parsed as JSON
  });

  test('a device stream upgrade has its own line: GET, the route pattern, 101 or the refusal, the time to the upgrade, the computer', async () => {
    const device = await pairDevice(relay(), 'stream', { 'X-Pairing-Secret': PAIRING_SECRET });
    const socket = new WebSocket(`ws://127.0.0.1:${relay().port}/v1/device/stream`, {
      headers: { Authorization: `Bearer ${device.token}`, 'X-Request-Id': 'proxy-ws-01' },
    });
    const answered = await new Promise<IncomingMessage>((resolve, reject) => {
      socket.once('upgrade', resolve);
      socket.once('error', reject);
    });
    expect([answered.statusCode, answered.headers['x-request-id']]).toEqual([101, 'proxy-ws-01']);
    const [opened, ...more] = await requestLines(relay(), 'proxy-ws-01');
    expect(more).toEqual([]);
    expect(opened).toMatchObject({ level: 'info', method: 'GET', route: '/v1/device/stream', status: 101, deviceId: device.deviceId });
    expect(typeof opened!.durationMs).toBe('number');
    socket.terminate();

    // Refused: a wrong token (no computer known), and a path no upgrade has (no route pattern, no path either).
    const refused = await relay().call('GET', '/v1/device/stream', { token: tampered(device.token), headers: WEBSOCKET_HANDSHAKE });
    expect([refused.status, refused.json.error]).toEqual([401, 'unauthorized']);
    const [refusedLine] = await requestLines(relay(), refused.headers['x-request-id'] as string);
    expect(refusedLine).toMatchObject({ method: 'GET', route: '/v1/device/stream', status: 401 });
    expect(refusedLine!.deviceId).toBeUndefined();
    const elsewhere = await relay().call('GET', `/v1/elsewhere/${device.deviceId}`, { headers: WEBSOCKET_HANDSHAKE });
    expect(elsewhere.status).toBe(404);
    const [elsewhereLine] = await requestLines(relay(), elsewhere.headers['x-request-id'] as string);
    expect(elsewhereLine).toMatchObject({ route: '(none)', status: 404 });
    expect(JSON.stringify(elsewhereLine)).not.toContain(device.deviceId);
  });

  test("an OAuth access token's line names its computer and its connector's key", async () => {
    const device = await pairDevice(relay(), 'oauth', { 'X-Pairing-Secret': PAIRING_SECRET });
    const socket = await DeviceSocket.connect(relay().port, device.token); // where the person approves
    await socket.welcome();
    const computer = { ...device, index: await deviceIndex(relay(), device.token) };
    const client = (await register(relay())).client_id as string;
    const { code, verifier } = await authorizeAndApprove(relay(), computer.token, client, { device: computer.index });
    const tokens = await exchange(relay(), client, code, verifier);
    expect(tokens.status).toBe(200);
    const { keys } = (await relay().call('GET', '/v1/device/keys', { token: computer.token })).json;
    const connectorKey = (keys as { id: string; kind: string }[]).find((key) => key.kind === 'oauth')!.id;

    const status = await relay().call('GET', '/v1/status', {
      token: tokens.json.access_token,
      headers: { 'X-Request-Id': 'proxy-oauth-1' },
    });
    expect(status.status).toBe(200);
    expect((await requestLines(relay(), 'proxy-oauth-1'))[0]).toMatchObject({ deviceId: computer.deviceId, keyId: connectorKey });
    const mcp = await relay().call('POST', '/mcp', {
      token: tokens.json.access_token,
      headers: { 'X-Request-Id': 'proxy-oauth-2' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(mcp.status).toBe(200);
    expect((await requestLines(relay(), 'proxy-oauth-2'))[0]).toMatchObject({ deviceId: computer.deviceId, keyId: connectorKey });
    await socket.close();
  });

  test('a browser script may read X-Request-Id where the relay answers with CORS (the OAuth routes)', async () => {
    const metadata = await relay().call('GET', '/.well-known/oauth-authorization-server', { headers: { Origin: 'https://app.example' } });
    expect(metadata.status).toBe(200);
    expect(String(metadata.headers['access-control-expose-headers']).toLowerCase().split(/,\s*/)).toContain('x-request-id');
    const preflight = await relay().call('OPTIONS', '/token', {
      headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(String(preflight.headers['access-control-expose-headers']).toLowerCase()).toContain('x-request-id');
  });

  test('no secret of any kind, sent in headers, bodies, query strings or paths, reaches the log', async () => {
    const device = await pairDevice(relay(), 'secrets', { 'X-Pairing-Secret': PAIRING_SECRET });
    const key = await makeKey(relay(), device.token);
    const deviceId = device.deviceId;
    // Real credentials, and made-up ones of every other kind in the shapes the relay issues.
    const secrets: Record<string, string> = {
      relaySecret: relay().secret!,
      pairingSecret: PAIRING_SECRET,
      wrongPairingSecret: `pairing-${hex(12)}`,
      deviceToken: device.token,
      agentKey: key,
      accessToken: `hra_${deviceId}_${hex(32)}`,
      refreshToken: `hrr_${deviceId}_${hex(32)}`,
      authorizationCode: `hrc_${deviceId}_${hex(32)}`,
      deviceCode: `hrv_${deviceId}_${hex(32)}`,
      clientSecret: `client-secret-${hex(16)}`,
      webhookSecret: `webhook-secret-${hex(16)}`,
      cookie: `cookie-${hex(16)}`,
      basicPassword: `basic-${hex(16)}`,
    };
    const sent: [string, string, Parameters<RelayProcess['call']>[2]][] = [
      // Headers.
      ['GET', '/v1/device/info', { token: device.token, headers: { Cookie: `session=${secrets.cookie}` } }],
      ['POST', '/v1/notify', { token: key, body: { title: 'logged?' } }],
      ['POST', '/v1/notify', { token: `${key.slice(0, -1)}0`, body: { title: 'wrong key' } }],
      ['POST', '/mcp', { token: secrets.accessToken, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } }],
      // A credential as the request id (it has the shape of one a proxy may send).
      ['GET', '/v1/status', { token: key, headers: { 'X-Request-Id': secrets.refreshToken } }],
      ['POST', '/v1/pair/start', { headers: { 'X-Pairing-Secret': secrets.wrongPairingSecret }, body: {} }],
      [
        'POST',
        '/token',
        {
          headers: { Authorization: `Basic ${Buffer.from(`client:${secrets.basicPassword}`).toString('base64')}` },
          body: `grant_type=refresh_token&refresh_token=${secrets.refreshToken}&client_secret=${secrets.clientSecret}`,
        },
      ],
      // Bodies (JSON and forms).
      [
        'POST',
        '/token',
        {
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: `grant_type=authorization_code&code=${secrets.authorizationCode}&client_id=x&code_verifier=${hex(32)}`,
        },
      ],
      [
        'POST',
        '/token',
        {
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: `grant_type=urn:ietf:params:oauth:grant-type:device_code&device_code=${secrets.deviceCode}&client_id=x`,
        },
      ],
      ['POST', '/revoke', { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `token=${secrets.accessToken}` }],
      [
        'POST',
        '/mcp',
        {
          token: key,
          body: {
            jsonrpc: '2.0',
            id: 2,
            method: 'events/subscribe',
            params: { name: 'reply', delivery: { mode: 'webhook', url: 'https://hooks.example.org/x', secret: secrets.webhookSecret } },
          },
        },
      ],
      ['POST', '/v1/device/keys', { token: device.token, body: { name: secrets.webhookSecret } }],
      ['POST', '/v1/notify', { token: key, body: `{"title": "${secrets.agentKey}", broken` }],
      // Query strings and paths.
      ['GET', `/v1/status?access_token=${key}&token=${device.token}`, { token: key }],
      ['GET', `/authorize?client_id=x&code=${secrets.authorizationCode}&state=${secrets.clientSecret}`, {}],
      ['GET', `/v1/receipts/${key}`, { token: key }],
      ['GET', `/v1/receipts/${device.token}%ZZ`, { token: device.token }],
      ['DELETE', `/v1/device/keys/${secrets.refreshToken}`, { token: device.token }],
      ['GET', `/${secrets.pairingSecret}/${secrets.deviceCode}`, {}],
    ];
    const ids: string[] = [];
    for (const [method, route, options] of sent) {
      const reply = await relay().call(method, route, options);
      expect(reply.status).toBeLessThan(500);
      ids.push(reply.headers['x-request-id'] as string);
    }
    for (const id of ids) await requestLines(relay(), id); // every request is in the log before it is searched

    const log = relay().log();
    const leaked = Object.entries(secrets).filter(([, secret]) => log.includes(secret) || log.includes(encodeURIComponent(secret)));
    expect(leaked.map(([kind]) => kind)).toEqual([]);
    // The device token's and the key's secret parts on their own, too (the ids before them are not secret).
    for (const credential of [device.token, key]) expect(log).not.toContain(credential.slice(-64));
  });
});

describe('redaction in the log module itself', () => {
  test('fields named like secrets are redacted, and credentials quoted in a message are scrubbed', async () => {
    // The built module in a process of its own (it writes to file descriptor 2, which a test cannot intercept).
    const credential = `hrk_${hex(24)}_${hex(4)}_${hex(32)}`;
    const script = `const { log } = await import(${JSON.stringify(pathToFileURL(path.join(path.dirname(RELAY_MAIN), 'log.js')).href)});
      log.error('it failed with ' + process.argv[1] + ' in it', {
        token: 'tok-' + process.argv[2], authorization: 'Bearer auth-' + process.argv[2], code: 'code-' + process.argv[2],
        secret: 'secret-' + process.argv[2], cookie: 'cookie-' + process.argv[2], deviceId: 'dev-1' });`;
    const marker = hex(8);
    const { stderr } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, credential, marker]);
    expect(stderr).not.toContain(marker);
    expect(stderr).not.toContain(credential.slice(4));
    const [line, ...more] = parseLogLines(stderr);
    expect(more).toEqual([]);
    expect(line).toMatchObject({
      level: 'error',
      msg: 'it failed with hrk_[redacted] in it',
      token: '[redacted]',
      authorization: '[redacted]',
      code: '[redacted]',
      secret: '[redacted]',
      cookie: '[redacted]',
      deviceId: 'dev-1',
    });
  });
});

describe('RELAY_LOG_LEVEL and RELAY_LOG_FORMAT', () => {
  test('RELAY_LOG_LEVEL=warn leaves out the request lines; a warning is still written', async () => {
    const relay = await startRelay({ backend: 'sqlite', env: { RELAY_LOG_LEVEL: 'warn' } });
    try {
      const broken = await relay.call('GET', '/v1/receipts/%ZZ');
      expect(broken.status).toBe(400);
      const warnings = () => parseLogLines(relay.log()).filter((line) => line.level === 'warn');
      await waitFor(() => (warnings().length > 0 ? true : undefined), 'the warning');
      expect(parseLogLines(relay.log()).filter((line) => line.level === 'info')).toEqual([]);
    } finally {
      await relay.stop();
    }
  });

  test('RELAY_LOG_FORMAT=pretty writes a readable line per event, not JSON', async () => {
    const relay = await startRelay({ backend: 'sqlite', env: { RELAY_LOG_FORMAT: 'pretty' } });
    try {
      const reply = await relay.call('GET', '/health', { headers: { 'X-Request-Id': 'pretty-1' } });
      expect(reply.status).toBe(200);
      const line = () =>
        relay
          .log()
          .split('\n')
          .find((text) => text.includes('requestId=pretty-1'));
      const found = await waitFor(() => line(), 'the pretty line');
      expect(found).toMatch(
        /^\d\d:\d\d:\d\d\.\d{3} INFO  request requestId=pretty-1 method=GET route=\/health\|\/healthz status=200 durationMs=/,
      );
    } finally {
      await relay.stop();
    }
  });

  test('a level or format it does not know is a configuration problem naming the variable (the relay does not start)', () => {
    expect(() => loadConfig({ RELAY_LOG_LEVEL: 'loud', RELAY_LOG_FORMAT: 'xml' })).toThrow(
      /RELAY_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent[\s\S]*RELAY_LOG_FORMAT must be json or pretty/,
    );
    expect(loadConfig({ RELAY_LOG_LEVEL: 'Debug', RELAY_LOG_FORMAT: 'pretty' }).log).toEqual({ level: 'debug', format: 'pretty' });
    expect(loadConfig({}).log).toEqual({ level: 'info', format: 'json' });
  });
});
