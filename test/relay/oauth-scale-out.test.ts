// The OAuth server on two relay processes sharing one PostgreSQL database (docs/relay.md, "Several nodes";
// docs/relay-api.md#ra111): an /authorize begun on node B reaches the computer's socket held by node A, the
// person's decision on A reaches the page polling B, and the code is exchanged on either node; a code or a
// refresh token presented to both nodes at once has one winner, and the other presentation is a reuse.

import { describe, expect, test } from '@jest/globals';
import { DeviceSocket } from '../helpers/device-socket.js';
import {
  authorizeAndApprove,
  authorizeQuery,
  consentFrame,
  decide,
  exchange,
  opensAgentRoutes,
  outcomes,
  pageRid,
  pkce,
  refreshTokens,
  register,
} from '../helpers/oauth.js';
import { pairDevice } from '../helpers/relay.js';
import { useTwoNodes } from './two-nodes.js';

const twoNodes = useTwoNodes();

describe('OAuth across two relay processes on one PostgreSQL database', () => {
  test('/authorize on B reaches the socket on A; the approval on A reaches the page on B; tokens work on both', async () => {
    const { a, b } = await twoNodes();

    const device = await pairDevice(a, 'desk');
    const socket = await DeviceSocket.online(a.port, device.token);
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

  test('a code, or a refresh token, presented to both nodes at once: one winner, and the other is a reuse that ends the grant', async () => {
    const { a, b } = await twoNodes();
    const device = await pairDevice(a, 'race');
    await DeviceSocket.online(a.port, device.token); // the computer online on A, where the approvals go
    const client = (await register(a, { client_name: 'Racer' })).client_id;

    for (let round = 0; round < 4; round++) {
      // The same code to A and to B at once.
      const { code, verifier } = await authorizeAndApprove(a, device.token, client);
      const exchanged = await Promise.all([exchange(a, client, code, verifier), exchange(b, client, code, verifier)]);
      expect(outcomes(exchanged)).toEqual([200, 'invalid_grant']);
      const winner = exchanged.find((reply) => reply.status === 200)!.json;
      expect(await opensAgentRoutes(b, winner.access_token)).toBe(false); // the second presentation revoked what the first got

      // The same refresh token to A and to B at once.
      const again = await authorizeAndApprove(b, device.token, client);
      const tokens = (await exchange(a, client, again.code, again.verifier)).json;
      const refreshed = await Promise.all([refreshTokens(a, client, tokens.refresh_token), refreshTokens(b, client, tokens.refresh_token)]);
      expect(outcomes(refreshed)).toEqual([200, 'invalid_grant']);
      const newer = refreshed.find((reply) => reply.status === 200)!.json;
      expect(newer.refresh_token).not.toBe(tokens.refresh_token);
      expect((await refreshTokens(b, client, newer.refresh_token)).json.error).toBe('invalid_grant');
      expect([await opensAgentRoutes(b, tokens.access_token), await opensAgentRoutes(b, newer.access_token)]).toEqual([false, false]);
    }
  });
});
