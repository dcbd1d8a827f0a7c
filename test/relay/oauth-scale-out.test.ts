// The OAuth server on two relay processes sharing one PostgreSQL database (docs/relay.md, "Several nodes";
// docs/relay-api.md#ra111): an /authorize begun on node B reaches the computer's socket held by node A, the
// person's decision on A reaches the page polling B, and the code is exchanged on either node.

import { afterAll, describe, expect, test } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { DeviceSocket } from '../helpers/device-socket.js';
import { authorizeQuery, consentFrame, decide, exchange, pageRid, pkce, register } from '../helpers/oauth.js';
import { createDatabase } from '../helpers/postgres.js';
import { pairDevice, startRelay, type RelayProcess } from '../helpers/relay.js';

const nodes: RelayProcess[] = [];
afterAll(async () => {
  await Promise.all(nodes.map((node) => node.stop()));
});

describe('OAuth across two relay processes on one PostgreSQL database', () => {
  test('/authorize on B reaches the socket on A; the approval on A reaches the page on B; tokens work on both', async () => {
    const databaseUrl = await createDatabase();
    const secret = randomBytes(32).toString('hex');
    const a = await startRelay({ backend: 'postgres', databaseUrl, secret });
    const b = await startRelay({ backend: 'postgres', databaseUrl, secret });
    nodes.push(a, b);

    const device = await pairDevice(a, 'desk');
    const socket = await DeviceSocket.connect(a.port, device.token);
    await socket.welcome();
    const client = (await register(b, { client_name: 'Scale-out client' })).client_id;
    const { verifier, challenge } = pkce();
    const page = await b.call('GET', `/authorize?${authorizeQuery(client, challenge)}`);
    expect(page.text).toContain('(connected)'); // B knows A holds the socket
    const rid = pageRid(page.text);
    const frame = await consentFrame(socket, rid);
    expect(frame.clientName).toBe('Scale-out client');

    // The same client asks again through A: the banner on A is updated with a new code.
    await a.call('GET', `/authorize?${authorizeQuery(client, challenge)}`);
    await consentFrame(socket, rid, (f) => f.code !== frame.code);

    expect((await decide(a, device.token, rid, 'approve')).status).toBe(200);
    await socket.waitFor((f) => typeof f === 'object' && f.type === 'consent_resolved' && f.id === rid, 'resolved');
    const status = (await b.call('GET', `/authorize/status?rid=${rid}`)).json;
    expect(status.status).toBe('approved');
    const tokens = await exchange(b, client, new URL(status.redirect).searchParams.get('code')!, verifier);
    expect(
      (await a.call('POST', '/v1/notify', { token: tokens.json.access_token, body: { title: 'across nodes', notificationId: 'x1' } }))
        .status,
    ).toBe(202);
    await socket.notifyFrame('x1');

    // Revoked through B: the tokens stop on A at once.
    const key = (await b.call('GET', '/v1/device/keys', { token: device.token })).json.keys[0];
    await b.call('DELETE', `/v1/device/keys/${key.id}`, { token: device.token });
    expect((await a.call('GET', '/v1/status', { token: tokens.json.access_token })).status).toBe(401);
  });
});
