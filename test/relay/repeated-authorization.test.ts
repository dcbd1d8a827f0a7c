// A request that carries two `Authorization` headers (docs/relay-api.md#ra2) is refused wherever the relay reads a
// credential: Node keeps only the first, so which one counted would depend on who reads the request. Each route
// answers in its own shape: the relay's error body, OAuth's on the OAuth routes.

import { describe, expect, test } from '@jest/globals';
import { BACKENDS, pairWithKey, useRelay } from '../helpers/relay.js';

const METRICS_TOKEN = 'm'.repeat(32);

describe.each(BACKENDS)('two Authorization headers (%s)', (backend) => {
  const relay = useRelay({ backend, env: { RELAY_METRICS_TOKEN: METRICS_TOKEN } });

  test('agent, device, MCP and metrics routes: 400 invalid_request, and nothing is done', async () => {
    const device = await pairWithKey(relay());
    const twice = (first: string, second: string) => ({ Authorization: [`Bearer ${first}`, `Bearer ${second}`] });
    const refused = { error: 'invalid_request', message: 'the Authorization header was sent more than once: send one credential' };
    for (const headers of [twice(device.key, device.key), twice(device.key, 'hrk_wrong'), twice('hrk_wrong', device.key)]) {
      const notify = await relay().call('POST', '/v1/notify', { headers, body: { title: 'never queued' } });
      expect([notify.status, notify.json]).toEqual([400, refused]);
    }
    const info = await relay().call('GET', '/v1/device/info', { headers: twice(device.token, device.token) });
    expect([info.status, info.json]).toEqual([400, refused]);
    const mcp = await relay().call('POST', '/mcp', {
      headers: twice(device.key, device.key),
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect([mcp.status, mcp.json]).toEqual([400, refused]);
    const metrics = await relay().call('GET', '/metrics', { headers: twice(METRICS_TOKEN, METRICS_TOKEN) });
    expect([metrics.status, metrics.json]).toEqual([400, refused]);

    // Nothing was queued by the refused ones; one header still works.
    expect((await relay().call('GET', '/v1/device/info', { token: device.token })).json.pending).toBe(0);
    expect((await relay().call('POST', '/v1/notify', { token: device.key, body: { title: 'one header' } })).status).toBe(202);
    expect((await relay().call('GET', '/v1/device/info', { token: device.token })).json.pending).toBe(1);
  });

  test('the device WebSocket: the upgrade is refused with 400', async () => {
    const device = await pairWithKey(relay());
    const answer = await relay().call('GET', '/v1/device/stream', {
      headers: {
        Authorization: [`Bearer ${device.token}`, `Bearer ${device.token}`],
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
      },
    });
    expect([answer.status, answer.json?.error]).toEqual([400, 'invalid_request']);
  });

  test("OAuth's token endpoint: OAuth's invalid_request", async () => {
    const basic = `Basic ${Buffer.from('hc_x:secret').toString('base64')}`;
    const answer = await relay().call('POST', '/token', {
      headers: { Authorization: [basic, basic], 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=refresh_token&refresh_token=hrr_x',
    });
    expect([answer.status, answer.json.error, answer.json.error_description]).toEqual([
      400,
      'invalid_request',
      'the Authorization header was sent more than once: send one credential',
    ]);
  });
});
