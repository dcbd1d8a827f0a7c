// Real OAuth clients against the relay (docs/relay-api.md#ra100 to #ra109): oauth4webapi for discovery
// (RFC 9728, RFC 8414), registration (RFC 7591), the code flow with PKCE and `iss`, refresh, revocation and the
// device grant (RFC 8628); and the official MCP SDK client, starting from a 401 on /mcp, discovering, registering
// and finishing the flow once the test's computer approved on its socket.

import { describe, expect, test } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as oauth from 'oauth4webapi';
import { DeviceSocket } from '../helpers/device-socket.js';
import {
  consentFrame,
  decide,
  deviceIndex,
  insecure,
  MemoryProvider,
  openAuthorizePage,
  opensAgentRoutes,
  pageRid,
  startDeviceGrant,
} from '../helpers/oauth.js';
import { BACKENDS, pairDevice, useRelay, type RelayProcess } from '../helpers/relay.js';

const CALLBACK = 'http://127.0.0.1:9/callback';
/** A native client registers CALLBACK once and listens on a new port each time (RFC 8252 §7.3). */
const CALLBACK_TODAY = 'http://127.0.0.1:5555/callback';

/** A computer whose socket approves every connector request it is sent, as a person pressing Approve would. */
async function approvingComputer(relay: RelayProcess) {
  const device = await pairDevice(relay, 'approver');
  const socket = await DeviceSocket.online(relay.port, device.token);
  const approved: string[] = [];
  socket.onFrame((frame) => {
    if (typeof frame !== 'object' || frame.type !== 'consent' || approved.includes(frame.id)) return;
    approved.push(frame.id);
    void decide(relay, device.token, frame.id, 'approve');
  });
  return { ...device, socket, approved };
}

describe.each(BACKENDS)('real OAuth clients (%s)', (backend) => {
  const relay = useRelay({ backend, env: { REGISTER_PER_HOUR: '1000' } });

  test('oauth4webapi: discovery, registration, code + PKCE, refresh, revocation', async () => {
    const device = await pairDevice(relay(), 'desk');
    const socket = await DeviceSocket.online(relay().port, device.token);
    const issuer = new URL(relay().baseUrl);

    const resource = await oauth.processResourceDiscoveryResponse(
      new URL(`${relay().baseUrl}/mcp`),
      await oauth.resourceDiscoveryRequest(new URL(`${relay().baseUrl}/mcp`), insecure),
    );
    expect(resource.authorization_servers).toEqual([relay().baseUrl]);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    expect(as.issuer).toBe(relay().baseUrl);

    const registered = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        as,
        { client_name: 'oauth4webapi', redirect_uris: [CALLBACK], token_endpoint_auth_method: 'client_secret_basic' },
        insecure,
      ),
    );
    const client: oauth.Client = { client_id: registered.client_id };
    const clientAuth = oauth.ClientSecretBasic(registered.client_secret as string);

    const { verifier, state, page } = await openAuthorizePage(relay(), as, client, {
      redirect_uri: CALLBACK_TODAY,
      scope: 'notify',
      resource: `${relay().baseUrl}/mcp`,
      device: await deviceIndex(relay(), device.token),
    });
    const rid = pageRid(page.text);
    await consentFrame(socket, rid);
    const decided = await decide(relay(), device.token, rid, 'approve');

    const params = oauth.validateAuthResponse(as, client, new URL(decided.json.redirect), state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, CALLBACK_TODAY, verifier, {
        ...insecure,
        additionalParameters: { resource: `${relay().baseUrl}/mcp` },
      }),
    );
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 315360000, scope: 'notify' });
    expect((await relay().call('POST', '/v1/notify', { token: tokens.access_token, body: { title: 'from oauth4webapi' } })).status).toBe(
      202,
    );

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, insecure),
    );
    expect(refreshed.refresh_token).toMatch(/^hrr_/);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token); // rotated
    expect(refreshed.access_token).not.toBe(tokens.access_token);

    // Revoking the refresh token in force ends every access token of the grant, those from before the refresh too.
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, clientAuth, refreshed.refresh_token!, insecure));
    for (const token of [tokens.access_token, refreshed.access_token])
      expect((await relay().call('GET', '/v1/status', { token })).status).toBe(401);
    await expect(
      oauth.processRefreshTokenResponse(
        as,
        client,
        await oauth.refreshTokenGrantRequest(as, client, clientAuth, refreshed.refresh_token!, insecure),
      ),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  /** The code flow with oauth4webapi (a public client) to the tokens, approved on `device`'s socket. */
  async function codeFlow(device: { token: string }, socket: DeviceSocket, deviceIndex: string) {
    const issuer = new URL(relay().baseUrl);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    const registered = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(as, { client_name: 'rotating client', redirect_uris: [CALLBACK] }, insecure),
    );
    const client: oauth.Client = { client_id: registered.client_id };
    const { verifier, state, page } = await openAuthorizePage(relay(), as, client, { redirect_uri: CALLBACK, device: deviceIndex });
    const rid = pageRid(page.text);
    await consentFrame(socket, rid);
    const decided = await decide(relay(), device.token, rid, 'approve');
    const params = oauth.validateAuthResponse(as, client, new URL(decided.json.redirect), state);
    const exchange = async () =>
      oauth.processAuthorizationCodeResponse(
        as,
        client,
        await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, CALLBACK, verifier, insecure),
      );
    const refresh = async (refreshToken: string) =>
      oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshToken, insecure));
    const revoke = async (token: string) =>
      oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.None(), token, insecure));
    return { exchange, refresh, revoke };
  }

  test('oauth4webapi: refresh tokens rotate on every use; presenting an old one again revokes the whole grant', async () => {
    const device = await pairDevice(relay(), 'rotation');
    const socket = await DeviceSocket.online(relay().port, device.token);
    const flow = await codeFlow(device, socket, await deviceIndex(relay(), device.token));
    const first = await flow.exchange();
    const second = await flow.refresh(first.refresh_token!);
    const third = await flow.refresh(second.refresh_token!);
    const refreshTokens = [first, second, third].map((tokens) => tokens.refresh_token);
    expect(new Set(refreshTokens).size).toBe(3);
    // Earlier access tokens stay valid while the grant lives.
    for (const tokens of [first, second, third]) expect(await opensAgentRoutes(relay(), tokens.access_token)).toBe(true);

    // The first refresh token again: someone else has a copy. The grant ends, tokens and all.
    await expect(flow.refresh(first.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(flow.refresh(third.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    for (const tokens of [first, second, third]) expect(await opensAgentRoutes(relay(), tokens.access_token)).toBe(false);
  });

  test('oauth4webapi: an authorization code works once; a second exchange fails and revokes what the first issued', async () => {
    const device = await pairDevice(relay(), 'single use');
    const socket = await DeviceSocket.online(relay().port, device.token);
    const index = await deviceIndex(relay(), device.token);

    const flow = await codeFlow(device, socket, index);
    const tokens = await flow.exchange();
    const refreshed = await flow.refresh(tokens.refresh_token!);
    expect(await opensAgentRoutes(relay(), refreshed.access_token)).toBe(true);
    await expect(flow.exchange()).rejects.toMatchObject({ error: 'invalid_grant' });
    expect([await opensAgentRoutes(relay(), tokens.access_token), await opensAgentRoutes(relay(), refreshed.access_token)]).toEqual([
      false,
      false,
    ]);
    await expect(flow.refresh(refreshed.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });

    // After the client revoked its refresh token, the old code still mints nothing.
    const again = await codeFlow(device, socket, index);
    const kept = await again.exchange();
    await again.revoke(kept.refresh_token!);
    expect(await opensAgentRoutes(relay(), kept.access_token)).toBe(false);
    await expect(again.exchange()).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  test('oauth4webapi: the device grant, pending until the computer approves', async () => {
    const device = await pairDevice(relay(), 'runner');
    const socket = await DeviceSocket.online(relay().port, device.token);
    const issuer = new URL(relay().baseUrl);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    const { client, started } = await startDeviceGrant(as, 'headless job', {
      scope: 'notify',
      device: await deviceIndex(relay(), device.token),
    });
    expect(started).toMatchObject({ interval: 5, expires_in: 600, verification_uri: `${relay().baseUrl}/activate` });

    const poll = async () =>
      oauth.processDeviceCodeResponse(
        as,
        client,
        await oauth.deviceCodeGrantRequest(as, client, oauth.None(), started.device_code, insecure),
      );
    await expect(poll()).rejects.toMatchObject({ error: 'slow_down' });
    const frame = await socket.waitFor((f) => typeof f === 'object' && f.type === 'consent' && f.userCode === started.user_code, 'consent');
    await decide(relay(), device.token, (frame as { id: string }).id, 'approve');
    const tokens = await poll();
    expect(tokens.access_token).toMatch(new RegExp(`^hra_${device.deviceId}_`));
    expect((await relay().call('GET', '/v1/status', { token: tokens.access_token })).json.online).toBe(true);
  });

  test('the MCP SDK client: 401 on /mcp, discovery, registration, the approval on the computer, then tools', async () => {
    const device = await approvingComputer(relay());
    const provider = new MemoryProvider(CALLBACK);
    const mcpUrl = new URL(`${relay().baseUrl}/mcp`);

    const first = new Client({ name: 'sdk-oauth-test', version: '1.0.0' });
    await expect(first.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }))).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect(provider.client?.client_id).toMatch(/^hc_[0-9a-f]{32}$/); // registered itself
    const authorizationUrl = provider.authorizationUrl!;
    expect(authorizationUrl.searchParams.get('resource')).toBe(`${relay().baseUrl}/mcp`);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');

    // The person's browser opens the page; the computer approves; the page's poll has the redirect.
    authorizationUrl.searchParams.set('device', await deviceIndex(relay(), device.token));
    const rid = pageRid((await relay().call('GET', `${authorizationUrl.pathname}${authorizationUrl.search}`)).text);
    let status: { status: string; redirect?: string } = { status: 'pending' };
    for (let i = 0; i < 100 && status.status === 'pending'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = (await relay().call('GET', `/authorize/status?rid=${rid}`)).json;
    }
    expect(device.approved).toContain(rid);
    const code = new URL(status.redirect!).searchParams.get('code')!;
    const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
    await transport.finishAuth(code);
    expect(provider.saved?.access_token).toMatch(/^hra_/);

    const client = new Client({ name: 'sdk-oauth-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
    const sent = await client.callTool({ name: 'send_notification', arguments: { title: 'From the SDK', notificationId: 'sdk-1' } });
    expect(sent.structuredContent).toMatchObject({ notificationId: 'sdk-1', queued: true });
    const frame = await device.socket.notifyFrame('sdk-1');
    expect(frame.key.name).toBe('mcp-sdk-test-client');
    await client.close();
  });
});
