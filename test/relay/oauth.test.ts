// The relay's OAuth server by hand (docs/relay-api.md#ra100 to #ra113), over plain HTTP and the computer's real
// socket: discovery, registration rules, the order of /authorize's checks, approvals decided on the computer or
// with the code typed on the page, tokens, refresh, revocation, the device flow, and what an access token may do.

import { describe, expect, test } from '@jest/globals';
import { DeviceSocket } from '../helpers/device-socket.js';
import {
  authorizeAndApprove,
  authorizeQuery,
  consentFrame,
  decide,
  DEVICE_GRANT,
  deviceIndex,
  exchange,
  location,
  openComputer,
  opensAgentRoutes,
  outcomes,
  pageRid,
  pkce,
  postForm,
  refreshTokens,
  register,
  userCodeFrame,
} from '../helpers/oauth.js';
import { BACKENDS, pairDevice, useRelay, type RelayProcess } from '../helpers/relay.js';

const CALLBACK = 'http://127.0.0.1:9/callback';

const mcpList = (relay: RelayProcess, token: string) =>
  relay.call('POST', '/mcp', { token, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });

describe.each(BACKENDS)('OAuth server (%s)', (backend) => {
  const relay = useRelay({ backend, env: { REGISTER_PER_HOUR: '10000' } });

  test('discovery: both documents and their aliases, from the request origin, cacheable; 405; CORS and OPTIONS', async () => {
    const host = { Host: 'relay.example.org:8443' };
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const answer = await relay().call('GET', path, { headers: host });
      expect(answer.status).toBe(200);
      expect(answer.headers['cache-control']).toBe('public, max-age=300');
      expect(answer.headers['access-control-allow-origin']).toBe('*');
      expect(answer.json).toEqual({
        resource: 'http://relay.example.org:8443/mcp',
        authorization_servers: ['http://relay.example.org:8443'],
        scopes_supported: ['notify'],
        bearer_methods_supported: ['header'],
        resource_name: 'Notifier relay',
      });
    }
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      const answer = await relay().call('GET', path, { headers: host });
      expect(answer.headers['cache-control']).toBe('public, max-age=300');
      expect(answer.json).toMatchObject({
        issuer: 'http://relay.example.org:8443',
        authorization_endpoint: 'http://relay.example.org:8443/authorize',
        token_endpoint: 'http://relay.example.org:8443/token',
        registration_endpoint: 'http://relay.example.org:8443/register',
        device_authorization_endpoint: 'http://relay.example.org:8443/device_authorization',
        revocation_endpoint: 'http://relay.example.org:8443/revoke',
        scopes_supported: ['notify'],
        response_types_supported: ['code'],
        response_modes_supported: ['query'],
        grant_types_supported: ['authorization_code', 'refresh_token', DEVICE_GRANT],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
        revocation_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
        service_documentation: 'http://relay.example.org:8443/',
        client_id_metadata_document_supported: true,
      });
    }
    const wrong = await relay().call('POST', '/.well-known/oauth-authorization-server');
    expect([wrong.status, wrong.json.error]).toEqual([405, 'method_not_allowed']);
    expect((await relay().call('DELETE', '/token')).json).toMatchObject({ error: 'method_not_allowed' });
    for (const path of [
      '/token',
      '/register',
      '/authorize',
      '/revoke',
      '/device_authorization',
      '/activate',
      '/.well-known/openid-configuration',
    ]) {
      const preflight = await relay().call('OPTIONS', path, {
        headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST' },
      });
      expect([path, preflight.status, preflight.headers['access-control-allow-origin']]).toEqual([path, 204, '*']);
      expect(preflight.headers['access-control-allow-headers']).toContain('authorization');
    }
  });

  test('registration: public and confidential clients, name cleaning, redirect rules, device-only clients, the refusals', async () => {
    const made = await relay().call('POST', '/register', { body: { client_name: 'Claude', redirect_uris: [CALLBACK] } });
    expect(made.status).toBe(201);
    expect(made.json).toEqual({
      client_id: expect.stringMatching(/^hc_[0-9a-f]{32}$/),
      client_id_issued_at: expect.any(Number),
      client_name: 'Claude',
      redirect_uris: [CALLBACK],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token', DEVICE_GRANT],
      response_types: ['code'],
      scope: 'notify',
    });
    const secret = await register(relay(), { token_endpoint_auth_method: 'client_secret_basic' });
    expect(secret).toMatchObject({ client_secret: expect.stringMatching(/^[0-9a-f]{64}$/), client_secret_expires_at: 0 });

    expect((await register(relay(), { client_name: '  <b>Bot</b>\u0007 ' })).client_name).toBe('bBot/b');
    expect((await register(relay(), { client_name: 'x'.repeat(80) })).client_name).toBe('x'.repeat(60));
    expect((await register(relay(), { client_name: undefined })).client_name).toBe('An app');
    expect((await register(relay(), { client_name: '<>' })).client_name).toBe('An app');
    const apps = await register(relay(), {
      redirect_uris: ['com.example.app:/oauth', 'http://localhost:3000/cb', 'http://[::1]/cb', 'https://a.example/cb?x=1'],
    });
    expect(apps.redirect_uris).toHaveLength(4);
    const deviceOnly = await relay().call('POST', '/register', {
      body: { client_name: 'Job', grant_types: [DEVICE_GRANT, 'refresh_token'] },
    });
    expect(deviceOnly.status).toBe(201);

    const refuse = async (body: unknown, error: string) => {
      const answer = await relay().call('POST', '/register', { body });
      expect([JSON.stringify(body).slice(0, 80), answer.status, answer.json.error]).toEqual([
        JSON.stringify(body).slice(0, 80),
        400,
        error,
      ]);
      expect(answer.json.error_description).toEqual(expect.any(String));
    };
    await refuse('not json{', 'invalid_client_metadata');
    await refuse([1], 'invalid_client_metadata');
    await refuse({ client_name: 'x' }, 'invalid_redirect_uri');
    await refuse({ redirect_uris: [] }, 'invalid_redirect_uri');
    await refuse({ redirect_uris: Array(11).fill(CALLBACK) }, 'invalid_redirect_uri');
    await refuse({ redirect_uris: ['http://example.com/cb'] }, 'invalid_redirect_uri');
    await refuse({ redirect_uris: ['https://example.com/cb#frag'] }, 'invalid_redirect_uri');
    await refuse({ redirect_uris: ['https://user:pw@example.com/cb'] }, 'invalid_redirect_uri');
    await refuse({ redirect_uris: [`https://example.com/${'a'.repeat(490)}`] }, 'invalid_redirect_uri');
    await refuse({ redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri');
    await refuse({ redirect_uris: ['/relative'] }, 'invalid_redirect_uri');
    // Exact matching only (RFC 9700 §2.1): a host that looks like a pattern is refused, however it is written.
    await refuse({ redirect_uris: ['https://*.evil.example/cb'] }, 'invalid_redirect_uri');
    await refuse({ redirect_uris: ['https://%2A.evil.example/cb'] }, 'invalid_redirect_uri');
    await refuse({ redirect_uris: ['com.example.app://*/cb'] }, 'invalid_redirect_uri');
    await refuse({ redirect_uris: [CALLBACK], token_endpoint_auth_method: 'private_key_jwt' }, 'invalid_client_metadata');
    await refuse({ redirect_uris: [CALLBACK], grant_types: ['client_credentials'] }, 'invalid_client_metadata');
    await refuse({ redirect_uris: [CALLBACK], response_types: ['token'] }, 'invalid_client_metadata');
    await refuse({ grant_types: [DEVICE_GRANT, 'authorization_code'] }, 'invalid_redirect_uri');
  });

  test('/authorize: the order of its checks; 400 pages never redirect, later refusals go back with error, state and iss', async () => {
    const { socket, index } = await openComputer(relay());
    const client = (await register(relay())).client_id;
    const { challenge } = pkce();
    const get = (query: string) => relay().call('GET', `/authorize?${query}`);

    const unknown = await get(authorizeQuery('hc_' + '0'.repeat(32), challenge));
    expect([unknown.status, unknown.headers['content-type'], unknown.headers.location]).toEqual([
      400,
      'text/html; charset=utf-8',
      undefined,
    ]);
    expect(unknown.text).toContain('Unknown app');
    const unregistered = await get(authorizeQuery(client, challenge, { redirect_uri: 'http://127.0.0.1:9/other' }));
    expect([unregistered.status, unregistered.headers.location]).toEqual([400, undefined]);
    expect((await get(authorizeQuery(client, challenge, { device: '9' }))).status).toBe(400);

    const back = async (extra: Record<string, string | undefined>, error: string) => {
      const query = new URLSearchParams(authorizeQuery(client, challenge, { device: index }));
      for (const [name, value] of Object.entries(extra))
        if (value === undefined) query.delete(name);
        else query.set(name, value);
      const answer = await get(query.toString());
      expect([JSON.stringify(extra), answer.status]).toEqual([JSON.stringify(extra), 302]);
      const to = location(answer);
      expect(`${to.origin}${to.pathname}`).toBe(CALLBACK);
      expect([to.searchParams.get('error'), to.searchParams.get('state'), to.searchParams.get('iss')]).toEqual([
        error,
        'st-1',
        relay().baseUrl,
      ]);
      expect(to.searchParams.get('error_description')).toEqual(expect.any(String));
    };
    await back({ response_type: 'token' }, 'unsupported_response_type');
    await back({ code_challenge: undefined }, 'invalid_request');
    await back({ code_challenge_method: 'plain' }, 'invalid_request');
    await back({ code_challenge: 'short' }, 'invalid_request');
    await back({ resource: 'https://elsewhere.example/mcp' }, 'invalid_target');
    await back({ scope: 'notify admin' }, 'invalid_scope');
    expect(socket.ofType('consent')).toHaveLength(0); // nothing reached the computer

    const page = await get(authorizeQuery(client, challenge, { resource: `${relay().baseUrl}/mcp/`, scope: 'notify', device: index }));
    expect(page.status).toBe(200);
    const csp = String(page.headers['content-security-policy']);
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)![1]!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self' http://127.0.0.1:9");
    expect(page.text).toContain(`<script nonce="${nonce}">`);
    expect(page.text).toContain(`<style nonce="${nonce}">`);
    expect(page.headers).toMatchObject({ 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' });
    expect(page.text).toContain('Test connector');
    expect(page.text).toContain('127.0.0.1:9');
    const again = await get(authorizeQuery(client, challenge, { device: index }));
    expect(/script-src 'nonce-([^']+)'/.exec(String(again.headers['content-security-policy']))![1]).not.toBe(nonce);
  });

  test('loopback IP redirects: any port at /authorize, the rest exact; the token exchange asks for that very address', async () => {
    const device = await openComputer(relay());
    const client = (
      await register(relay(), { redirect_uris: ['http://127.0.0.1:9/callback', 'http://[::1]/v6?x=1', 'http://localhost:9/named'] })
    ).client_id;
    const { challenge } = pkce();
    const pageFor = (redirect_uri: string) =>
      relay().call('GET', `/authorize?${authorizeQuery(client, challenge, { redirect_uri, device: device.index })}`);
    for (const allowed of ['http://127.0.0.1:5555/callback', 'http://127.0.0.1/callback', 'http://[::1]:61234/v6?x=1']) {
      const page = await pageFor(allowed);
      expect([allowed, page.status]).toEqual([allowed, 200]);
      expect(String(page.headers['content-security-policy'])).toContain(`form-action 'self' ${new URL(allowed).origin}`);
    }
    for (const refused of [
      'http://localhost:5555/named', // a name, not a loopback IP: exact only
      'http://127.0.0.1:5555/callback/', // the path differs
      'http://127.0.0.1:5555/Callback',
      'http://127.0.0.1:5555/callback?x=1', // a query it did not register
      'http://[::1]:5555/v6', // the query is missing
      'http://127.0.0.1:0/callback', // no port 0
      'https://127.0.0.1:5555/callback', // another scheme
      'http://[::1]:9/callback', // the other loopback address
      'http://127.0.0.1:5555@evil.example/callback',
    ]) {
      const page = await pageFor(refused);
      expect([refused, page.status, page.headers.location]).toEqual([refused, 400, undefined]);
      expect(page.text).toContain('Unknown return address');
    }

    const elsewhere = 'http://127.0.0.1:5555/callback';
    const { code, verifier } = await authorizeAndApprove(relay(), device.token, client, { redirect_uri: elsewhere, device: device.index });
    const status = (await exchange(relay(), client, code, verifier, { redirect_uri: 'http://127.0.0.1:9/callback' })).json;
    expect(status.error).toBe('invalid_grant'); // the registered address is not the one sent to /authorize
    const tokens = await exchange(relay(), client, code, verifier, { redirect_uri: elsewhere });
    expect([tokens.status, tokens.json.token_type]).toEqual([200, 'Bearer']);
  });

  test('a hostile client name is text on the page and in the frame', async () => {
    const { socket, index } = await openComputer(relay());
    const client = (await register(relay(), { client_name: `Tom & "Jerry" 'x' <img src=x onerror=alert(1)>` })).client_id;
    const page = await relay().call('GET', `/authorize?${authorizeQuery(client, pkce().challenge, { device: index })}`);
    expect(page.text).toContain('Tom &amp; &quot;Jerry&quot; &#39;x&#39; img src=x onerror=alert(1)');
    expect(page.text).not.toContain('<img');
    const frame = await consentFrame(socket, pageRid(page.text));
    expect(frame.clientName).toBe(`Tom & "Jerry" 'x' img src=x onerror=alert(1)`);
  });

  test('approval on the computer: the consent frame, the list, the decision, consent_resolved, the connector key', async () => {
    const device = await openComputer(relay(), 'studio');
    const client = (await register(relay(), { client_name: 'Build Bot' })).client_id;
    const { verifier, challenge } = pkce();
    const page = await relay().call('GET', `/authorize?${authorizeQuery(client, challenge, { device: device.index })}`);
    const rid = pageRid(page.text);
    expect(rid.slice(0, 48)).toBe(device.deviceId);
    const frame = await consentFrame(device.socket, rid);
    expect(frame).toEqual({
      type: 'consent',
      id: rid,
      clientId: client,
      clientName: 'Build Bot',
      redirectHost: '127.0.0.1:9',
      scope: 'notify',
      code: expect.stringMatching(/^\d{6}$/),
      status: 'pending',
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
      flow: 'code',
    });
    expect(Date.parse(frame.expiresAt) - Date.parse(frame.createdAt)).toBe(600_000);
    expect(page.text).not.toContain(frame.code); // the page never shows the code
    const listed = await relay().call('GET', '/v1/device/consents', { token: device.token });
    expect(listed.json.consents).toEqual([{ ...frame, type: undefined }].map(({ type: _type, ...view }) => view));
    expect((await relay().call('GET', `/authorize/status?rid=${rid}`)).json).toEqual({ status: 'pending' });

    const approved = await decide(relay(), device.token, rid, 'approve');
    expect(approved.json).toEqual({ status: 'approved', redirect: expect.stringMatching(/^http:\/\/127\.0\.0\.1:9\/callback\?code=hrc_/) });
    const redirect = new URL(approved.json.redirect);
    expect([redirect.searchParams.get('state'), redirect.searchParams.get('iss')]).toEqual(['st-1', relay().baseUrl]);
    expect(await device.socket.waitFor((f) => typeof f === 'object' && f.type === 'consent_resolved', 'resolved')).toEqual({
      type: 'consent_resolved',
      id: rid,
      status: 'approved',
    });
    expect((await relay().call('GET', `/authorize/status?rid=${rid}`)).json).toEqual({
      status: 'approved',
      redirect: approved.json.redirect,
    });
    const keys = (await relay().call('GET', '/v1/device/keys', { token: device.token })).json.keys;
    expect(keys).toEqual([expect.objectContaining({ name: 'build-bot', kind: 'oauth', displayName: 'Build Bot', scope: 'notify' })]);

    const twice = await decide(relay(), device.token, rid, 'deny');
    expect([twice.status, twice.json.error, twice.json.status]).toEqual([409, 'already_decided', 'approved']);
    expect((await decide(relay(), device.token, `${device.deviceId}${'0'.repeat(24)}`, 'approve')).status).toBe(404);
    expect(
      (await relay().call('POST', '/v1/device/consent', { token: device.token, body: { id: rid, decision: 'maybe' } })).json,
    ).toMatchObject({
      fields: ['decision'],
    });
    // Forged ids are 404; a well-formed one nobody knows is 200 unknown.
    expect((await relay().call('GET', `/authorize/status?rid=${'ab'.repeat(36)}`)).status).toBe(404);
    expect((await relay().call('GET', `/authorize/status?rid=${device.deviceId}${'0'.repeat(24)}`)).json).toEqual({ status: 'unknown' });

    // Tokens, once: a second exchange is refused and revokes what the first issued (the connector key stays).
    const tokens = await exchange(relay(), client, redirect.searchParams.get('code')!, verifier);
    expect(tokens.status).toBe(200);
    expect(tokens.headers['cache-control']).toBe('no-store');
    expect(tokens.json).toEqual({
      access_token: expect.stringMatching(new RegExp(`^hra_${device.deviceId}_[0-9a-f]{64}$`)),
      token_type: 'Bearer',
      expires_in: 315360000,
      refresh_token: expect.stringMatching(new RegExp(`^hrr_${device.deviceId}_[0-9a-f]{64}$`)),
      scope: 'notify',
    });
    expect((await relay().call('GET', '/v1/status', { token: tokens.json.access_token })).status).toBe(200);
    const retried = await exchange(relay(), client, redirect.searchParams.get('code')!, verifier);
    expect([retried.status, retried.json.error]).toEqual([400, 'invalid_grant']);
    expect(retried.json.error_description).toContain('used already');
    expect((await relay().call('GET', '/v1/status', { token: tokens.json.access_token })).status).toBe(401);
    expect((await refreshTokens(relay(), client, tokens.json.refresh_token)).json.error).toBe('invalid_grant');
    expect((await relay().call('GET', `/authorize/status?rid=${rid}`)).json).toEqual({ status: 'expired' }); // the code was used
    expect((await relay().call('GET', '/v1/device/keys', { token: device.token })).json.keys[0].revokedAt).toBeUndefined();
  });

  test('an access token works as an agent key on the agent routes and /mcp, and gets 403 on device routes', async () => {
    const device = await openComputer(relay());
    const client = (await register(relay())).client_id;
    const { code, verifier } = await authorizeAndApprove(relay(), device.token, client, { device: device.index });
    const { access_token: access } = (await exchange(relay(), client, code, verifier)).json;
    const sent = await relay().call('POST', '/v1/notify', { token: access, body: { title: 'via OAuth', notificationId: 'o1' } });
    expect(sent.status).toBe(202);
    const frame = await device.socket.notifyFrame('o1');
    expect(frame.key).toEqual({ id: expect.any(String), name: 'test-connector', client: 'other' });
    expect((await relay().call('GET', '/v1/receipts/o1', { token: access })).json).toMatchObject({ notificationId: 'o1' });
    expect((await relay().call('GET', '/v1/status', { token: access })).json.online).toBe(true);
    expect((await mcpList(relay(), access)).json.result.tools).toHaveLength(4);
    const device403 = await relay().call('GET', '/v1/device/info', { token: access });
    expect([device403.status, device403.json.error]).toEqual([403, 'wrong_credential']);
    const forged = `hra_${device.deviceId}_${'0'.repeat(64)}`;
    expect((await relay().call('GET', '/v1/status', { token: forged })).status).toBe(401);
    const challenge = await mcpList(relay(), forged);
    expect(challenge.status).toBe(401);
    expect(challenge.headers['www-authenticate']).toContain('error="invalid_token"');
  });

  test('token errors: verifier, redirect, resource, client, grant type, scope; refresh rotates the refresh token', async () => {
    const device = await openComputer(relay());
    const client = (await register(relay())).client_id;
    const other = (await register(relay())).client_id;
    const { code, verifier } = await authorizeAndApprove(relay(), device.token, client, {
      resource: `${relay().baseUrl}/mcp`,
      device: device.index,
    });
    const refused = async (reply: Promise<{ status: number; json: any }>, status: number, error: string) => {
      const answer = await reply;
      expect([answer.status, answer.json.error]).toEqual([status, error]);
    };
    await refused(exchange(relay(), client, code, pkce().verifier), 400, 'invalid_grant');
    await refused(exchange(relay(), client, code, 'short'), 400, 'invalid_grant');
    await refused(exchange(relay(), client, code, verifier, { redirect_uri: 'http://127.0.0.1:9/other' }), 400, 'invalid_grant');
    await refused(exchange(relay(), client, code, verifier, { resource: 'https://elsewhere.example/mcp' }), 400, 'invalid_target');
    await refused(exchange(relay(), other, code, verifier), 400, 'invalid_grant');
    await refused(exchange(relay(), client, 'hrc_nonsense', verifier), 400, 'invalid_grant');
    await refused(exchange(relay(), 'hc_' + 'f'.repeat(32), code, verifier), 401, 'invalid_client');
    // No client authentication at all (no client_id, no Basic header): 401 invalid_client, wherever the client is authenticated.
    for (const path of ['/token', '/revoke', '/device_authorization']) {
      const fields = { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: CALLBACK, token: 'hra_x' };
      await refused(postForm(relay(), path, fields), 401, 'invalid_client');
      await refused(postForm(relay(), path, { ...fields, client_id: '' }), 401, 'invalid_client');
    }
    await refused(postForm(relay(), '/token', { client_id: client }), 400, 'invalid_request');
    await refused(postForm(relay(), '/token', { client_id: client, grant_type: 'password' }), 400, 'unsupported_grant_type');
    const twice = relay().call('POST', '/token', {
      body: `client_id=${client}&grant_type=refresh_token&grant_type=refresh_token`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    await refused(twice, 400, 'invalid_request');
    await refused(relay().call('POST', '/token', { body: { client_id: client, grant_type: 'refresh_token' } }), 400, 'invalid_request');

    // Wrong attempts did not harm the approval.
    const tokens = (await exchange(relay(), client, code, verifier, { resource: `${relay().baseUrl}/mcp/` })).json;
    const refresh = (refreshToken: string, extra: Record<string, string> = {}) =>
      postForm(relay(), '/token', { grant_type: 'refresh_token', client_id: client, refresh_token: refreshToken, ...extra });
    // Refusals before anything is checked against the token's state do not use it up.
    await refused(refresh(tokens.refresh_token, { scope: 'admin' }), 400, 'invalid_scope');
    await refused(refresh(tokens.refresh_token, { resource: 'https://elsewhere.example/mcp' }), 400, 'invalid_target');
    await refused(
      postForm(relay(), '/token', { grant_type: 'refresh_token', client_id: other, refresh_token: tokens.refresh_token }),
      400,
      'invalid_grant',
    );
    const refreshed = await refresh(tokens.refresh_token, { scope: 'notify' });
    expect(refreshed.json).toMatchObject({ refresh_token: expect.stringMatching(/^hrr_/), token_type: 'Bearer', expires_in: 315360000 });
    expect(refreshed.json.refresh_token).not.toBe(tokens.refresh_token);
    expect(refreshed.json.access_token).not.toBe(tokens.access_token);
    // Every access token stays valid ...
    for (const token of [tokens.access_token, refreshed.json.access_token])
      expect((await relay().call('GET', '/v1/status', { token })).status).toBe(200);
    // ... up to the newest 50 of the connector (two so far: 49 more drop the first), each refresh with the newest token.
    let current = refreshed.json.refresh_token as string;
    for (let i = 0; i < 49; i++) {
      const next = await refresh(current);
      expect(next.status).toBe(200);
      current = next.json.refresh_token;
    }
    expect((await relay().call('GET', '/v1/status', { token: tokens.access_token })).status).toBe(401);
    expect((await relay().call('GET', '/v1/status', { token: refreshed.json.access_token })).status).toBe(200);
  });

  test('confidential clients: the secret in the form or in Basic; failures are 401 invalid_client, Basic ones challenged', async () => {
    const device = await openComputer(relay());
    const client = await register(relay(), { token_endpoint_auth_method: 'client_secret_basic' });
    const { code, verifier } = await authorizeAndApprove(relay(), device.token, client.client_id, { device: device.index });
    const basic = (id: string, secret: string) =>
      `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
    const fields = { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: CALLBACK };

    const wrongBasic = await postForm(relay(), '/token', fields, { Authorization: basic(client.client_id, 'f'.repeat(64)) });
    expect([wrongBasic.status, wrongBasic.json.error]).toEqual([401, 'invalid_client']);
    expect(wrongBasic.headers['www-authenticate']).toMatch(/^Basic /);
    const malformed = await postForm(relay(), '/token', fields, { Authorization: 'Basic !!!' });
    expect([malformed.status, malformed.headers['www-authenticate']]).toEqual([401, expect.stringMatching(/^Basic /)]);
    const missing = await postForm(relay(), '/token', { ...fields, client_id: client.client_id });
    expect([missing.status, missing.json.error, missing.headers['www-authenticate']]).toEqual([401, 'invalid_client', undefined]);

    const viaBasic = await postForm(relay(), '/token', fields, { Authorization: basic(client.client_id, client.client_secret) });
    expect(viaBasic.status).toBe(200);
    const second = await authorizeAndApprove(relay(), device.token, client.client_id, { device: device.index }); // a code works once
    const viaForm = await postForm(relay(), '/token', {
      ...fields,
      code: second.code,
      code_verifier: second.verifier,
      client_id: client.client_id,
      client_secret: client.client_secret,
    });
    expect(viaForm.status).toBe(200);
    const revoke = await postForm(relay(), '/revoke', {
      token: viaForm.json.access_token,
      client_id: client.client_id,
      client_secret: 'x',
    });
    expect([revoke.status, revoke.json.error]).toEqual([401, 'invalid_client']);
  });

  test('revocation: a refresh token ends its grant, an access token only itself; others are ignored; the computer ends them all', async () => {
    const device = await openComputer(relay());
    const client = (await register(relay())).client_id;
    const other = (await register(relay())).client_id;
    const first = await authorizeAndApprove(relay(), device.token, client, { device: device.index });
    const a = (await exchange(relay(), client, first.code, first.verifier)).json;
    const aMore = (await refreshTokens(relay(), client, a.refresh_token)).json;
    const aLast = (await refreshTokens(relay(), client, aMore.refresh_token)).json;

    expect((await postForm(relay(), '/revoke', { token: aLast.access_token, client_id: other })).json).toEqual({}); // another client's: ignored
    expect((await postForm(relay(), '/revoke', { token: aLast.refresh_token, client_id: other })).json).toEqual({});
    expect(await opensAgentRoutes(relay(), aLast.access_token)).toBe(true);
    expect((await postForm(relay(), '/revoke', { token: 'hra_garbage', client_id: client })).status).toBe(200);
    expect((await postForm(relay(), '/revoke', { client_id: client })).json.error).toBe('invalid_request');

    // An access token: only itself.
    expect((await postForm(relay(), '/revoke', { token: aMore.access_token, client_id: client })).status).toBe(200);
    expect([
      await opensAgentRoutes(relay(), a.access_token),
      await opensAgentRoutes(relay(), aMore.access_token),
      await opensAgentRoutes(relay(), aLast.access_token),
    ]).toEqual([true, false, true]);
    // The refresh token in force: the whole grant, with the access tokens of earlier refreshes.
    expect((await postForm(relay(), '/revoke', { token: aLast.refresh_token, client_id: client })).status).toBe(200);
    expect([await opensAgentRoutes(relay(), a.access_token), await opensAgentRoutes(relay(), aLast.access_token)]).toEqual([false, false]);
    for (const token of [aLast.refresh_token, a.refresh_token])
      expect((await refreshTokens(relay(), client, token)).json.error).toBe('invalid_grant');

    // The person revokes the connector on the computer: everything ends at once.
    const second = await authorizeAndApprove(relay(), device.token, client, { device: device.index });
    const b = (await exchange(relay(), client, second.code, second.verifier)).json;
    const bMore = (await refreshTokens(relay(), client, b.refresh_token)).json;
    const key = (await relay().call('GET', '/v1/device/keys', { token: device.token })).json.keys.find(
      (k: { kind: string; revokedAt?: string }) => k.kind === 'oauth' && k.revokedAt === undefined,
    );
    expect((await relay().call('DELETE', `/v1/device/keys/${key.id}`, { token: device.token })).json).toEqual({
      revoked: true,
      id: key.id,
    });
    expect([await opensAgentRoutes(relay(), b.access_token), await opensAgentRoutes(relay(), bMore.access_token)]).toEqual([false, false]);
    expect((await refreshTokens(relay(), client, bMore.refresh_token)).json.error).toBe('invalid_grant');
    expect((await exchange(relay(), client, second.code, second.verifier)).json.error).toBe('invalid_grant');

    // Approving the same client again makes a new key, replacing the earlier one and ending its tokens.
    const again = await authorizeAndApprove(relay(), device.token, client, { device: device.index });
    const c = (await exchange(relay(), client, again.code, again.verifier)).json;
    expect(await opensAgentRoutes(relay(), c.access_token)).toBe(true);
    const third = await authorizeAndApprove(relay(), device.token, client, { device: device.index });
    expect(await opensAgentRoutes(relay(), c.access_token)).toBe(false);
    expect((await exchange(relay(), client, third.code, third.verifier)).status).toBe(200);
    const oauthKeys = (await relay().call('GET', '/v1/device/keys', { token: device.token })).json.keys.filter(
      (k: { kind: string }) => k.kind === 'oauth',
    );
    expect(oauthKeys.map((k: { revokedAt?: string }) => k.revokedAt === undefined)).toEqual([false, false, false, true]);
  });

  test('the same refresh token, or code, presented twice at once: one winner; the other is a reuse that ends the grant', async () => {
    const device = await openComputer(relay());
    const client = (await register(relay())).client_id;

    const { code, verifier } = await authorizeAndApprove(relay(), device.token, client, { device: device.index });
    const exchanged = await Promise.all([exchange(relay(), client, code, verifier), exchange(relay(), client, code, verifier)]);
    expect(outcomes(exchanged)).toEqual([200, 'invalid_grant']);
    expect(await opensAgentRoutes(relay(), exchanged.find((reply) => reply.status === 200)!.json.access_token)).toBe(false);

    const again = await authorizeAndApprove(relay(), device.token, client, { device: device.index });
    const tokens = (await exchange(relay(), client, again.code, again.verifier)).json;
    const twice = await Promise.all([
      refreshTokens(relay(), client, tokens.refresh_token),
      refreshTokens(relay(), client, tokens.refresh_token),
    ]);
    expect(outcomes(twice)).toEqual([200, 'invalid_grant']);
    const winner = twice.find((reply) => reply.status === 200)!.json;
    expect((await refreshTokens(relay(), client, winner.refresh_token)).json.error).toBe('invalid_grant');
    expect([await opensAgentRoutes(relay(), tokens.access_token), await opensAgentRoutes(relay(), winner.access_token)]).toEqual([
      false,
      false,
    ]);
  });

  test('after the computer unpairs, its access tokens answer 401 device_unpaired and its refresh tokens invalid_grant saying so', async () => {
    const device = await openComputer(relay());
    const client = (await register(relay())).client_id;
    const { code, verifier } = await authorizeAndApprove(relay(), device.token, client, { device: device.index });
    const tokens = (await exchange(relay(), client, code, verifier)).json;
    expect((await relay().call('DELETE', '/v1/device', { token: device.token })).status).toBe(200);
    const status = await relay().call('GET', '/v1/status', { token: tokens.access_token });
    expect([status.status, status.json.error]).toEqual([401, 'device_unpaired']);
    expect(status.json.message).toContain('the computer this access token belonged to was unpaired');
    const mcp = await mcpList(relay(), tokens.access_token);
    expect([mcp.status, mcp.json.error]).toEqual([401, 'device_unpaired']);
    const refreshed = await refreshTokens(relay(), client, tokens.refresh_token);
    expect([refreshed.status, refreshed.json.error]).toEqual([400, 'invalid_grant']);
    expect(refreshed.json.error_description).toContain('was unpaired');
  });

  test('the page: a wrong code leaves tries, the fifth denies; the right code approves; Deny; the same client takes its request over', async () => {
    const device = await openComputer(relay());
    const client = (await register(relay())).client_id;
    const { challenge } = pkce();
    const rid = pageRid((await relay().call('GET', `/authorize?${authorizeQuery(client, challenge, { device: device.index })}`)).text);
    const first = await consentFrame(device.socket, rid);
    const wrongCode = first.code === '000000' ? '111111' : '000000';
    const typed = (code: string) => postForm(relay(), '/authorize/code', { rid, code });

    // The same client asks again: the same request, new code, banner updated in place.
    const again = await relay().call('GET', `/authorize?${authorizeQuery(client, challenge, { state: 'st-2', device: device.index })}`);
    expect(pageRid(again.text)).toBe(rid);
    const updated = await consentFrame(device.socket, rid, (f) => f.code !== first.code);
    expect(updated.redelivered).toBeUndefined();
    if (updated.code !== first.code) {
      const stale = await typed(first.code);
      expect(stale.text).toContain('4 tries left');
    }
    for (let i = 0; i < 3; i++) expect((await typed(wrongCode)).status).toBe(200);
    const right = await typed(updated.code.slice(0, 3) + ' ' + updated.code.slice(3));
    expect(right.status).toBe(302);
    expect(location(right).searchParams.get('code')).toMatch(/^hrc_/);
    expect(location(right).searchParams.get('state')).toBe('st-2');

    // Five wrong codes deny.
    const rid2 = pageRid((await relay().call('GET', `/authorize?${authorizeQuery(client, challenge, { device: device.index })}`)).text);
    let answer;
    for (let i = 0; i < 5; i++) answer = await postForm(relay(), '/authorize/code', { rid: rid2, code: 'abc' });
    expect(answer!.status).toBe(302);
    expect(location(answer!).searchParams.get('error')).toBe('access_denied');
    expect((await relay().call('GET', `/authorize/status?rid=${rid2}`)).json.status).toBe('denied');

    // Deny closes only that request; a connector already working is untouched.
    const rid3 = pageRid((await relay().call('GET', `/authorize?${authorizeQuery(client, challenge, { device: device.index })}`)).text);
    const denied = await postForm(relay(), '/authorize/deny', { rid: rid3 });
    expect([denied.status, location(denied).searchParams.get('error')]).toEqual([302, 'access_denied']);
    expect(
      await device.socket.waitFor((f) => typeof f === 'object' && f.type === 'consent_resolved' && f.id === rid3, 'denied'),
    ).toMatchObject({
      status: 'denied',
    });
    expect((await postForm(relay(), '/authorize/deny', { rid: 'nonsense' })).status).toBe(400);
  });

  test('limits: 3 requests waiting on one computer, 12 begun per hour', async () => {
    const device = await openComputer(relay());
    const begin = async () =>
      relay().call('GET', `/authorize?${authorizeQuery((await register(relay())).client_id, pkce().challenge, { device: device.index })}`);
    const rids: string[] = [];
    for (let i = 0; i < 3; i++) rids.push(pageRid((await begin()).text));
    const fourth = await begin();
    expect([fourth.status, fourth.headers['content-type']]).toEqual([429, 'text/html; charset=utf-8']);
    for (const rid of rids) await decide(relay(), device.token, rid, 'deny');
    for (let i = 3; i < 12; i++) {
      const rid = pageRid((await begin()).text);
      await decide(relay(), device.token, rid, 'deny');
    }
    expect((await begin()).status).toBe(429);
  });

  test('a request begun while the computer is away reaches it on connect, and again (redelivered) on the next connect', async () => {
    const device = await pairDevice(relay(), 'laptop');
    const client = (await register(relay())).client_id;
    const query = authorizeQuery(client, pkce().challenge, { device: await deviceIndex(relay(), device.token) });
    const rid = pageRid((await relay().call('GET', `/authorize?${query}`)).text);
    const first = await DeviceSocket.connect(relay().port, device.token);
    expect((await consentFrame(first, rid)).redelivered).toBeUndefined();
    await first.close();
    const second = await DeviceSocket.connect(relay().port, device.token);
    expect((await consentFrame(second, rid)).redelivered).toBe(true);
  });

  test('the device flow by hand: the answer, the frame with the user code, approve on the computer, polls, deny, bad codes', async () => {
    const device = await openComputer(relay(), 'workstation');
    const client = (await register(relay(), { client_name: 'CI job', grant_types: [DEVICE_GRANT] })).client_id;
    const started = await postForm(relay(), '/device_authorization', { client_id: client, scope: 'notify', device: device.index });
    expect(started.status).toBe(200);
    expect(started.json).toEqual({
      device_code: expect.stringMatching(new RegExp(`^hrv_${device.deviceId}_[0-9a-f]{64}$`)),
      user_code: expect.stringMatching(/^[BCDFGHJKMNPQRTWXZ]{4}-[BCDFGHJKMNPQRTWXZ]{4}$/),
      verification_uri: `${relay().baseUrl}/activate`,
      verification_uri_complete: `${relay().baseUrl}/activate?user_code=${started.json.user_code}`,
      expires_in: 600,
      interval: 5,
      device_name: 'workstation',
      device_count: expect.any(Number),
      device_index: expect.any(Number),
      device_online: true,
    });
    const poll = (deviceCode = started.json.device_code, clientId = client) =>
      postForm(relay(), '/token', { grant_type: DEVICE_GRANT, client_id: clientId, device_code: deviceCode });
    expect((await poll()).json.error).toBe('slow_down'); // the first poll within 5 s of the start counts
    expect((await poll(`hrv_${device.deviceId}_${'0'.repeat(64)}`)).json.error).toBe('expired_token');
    expect((await poll('hrv_nonsense')).json.error).toBe('invalid_grant');
    expect((await poll(undefined, (await register(relay())).client_id)).json.error).toBe('invalid_grant');

    const frame = await userCodeFrame(device.socket, started.json.user_code);
    expect(frame).toMatchObject({ flow: 'device', userCode: started.json.user_code, redirectHost: '', clientName: 'CI job' });
    expect((await decide(relay(), device.token, frame.id, 'approve')).json).toEqual({ status: 'approved' });
    const tokens = await poll();
    expect(tokens.json).toMatchObject({ token_type: 'Bearer', access_token: expect.stringMatching(/^hra_/) });
    expect((await relay().call('POST', '/v1/notify', { token: tokens.json.access_token, body: { title: 'from CI' } })).status).toBe(202);
    // The device code works once, like an authorization code: a second poll is refused and revokes what the first got.
    const again = await poll();
    expect([again.status, again.json.error]).toEqual([400, 'invalid_grant']);
    expect((await relay().call('GET', '/v1/status', { token: tokens.json.access_token })).status).toBe(401);

    const second = (await postForm(relay(), '/device_authorization', { client_id: client, device: device.index })).json;
    const secondFrame = await userCodeFrame(device.socket, second.user_code);
    await decide(relay(), device.token, secondFrame.id, 'deny');
    expect((await poll(second.device_code)).json.error).toBe('access_denied');

    expect((await postForm(relay(), '/device_authorization', { client_id: client, scope: 'admin' })).json.error).toBe('invalid_scope');
    expect((await postForm(relay(), '/device_authorization', { client_id: client, device: '99' })).json.error).toBe('invalid_request');
    expect((await postForm(relay(), '/device_authorization', { client_id: 'hc_' + '1'.repeat(32) })).status).toBe(401);
  });

  test('/activate: the user code alone approves nothing; with the approval code it does; wrong codes count', async () => {
    const device = await openComputer(relay());
    const client = (await register(relay(), { client_name: 'Nightly', grant_types: [DEVICE_GRANT] })).client_id;
    const started = (await postForm(relay(), '/device_authorization', { client_id: client, device: device.index })).json;
    const frame = await userCodeFrame(device.socket, started.user_code);
    const form = await relay().call('GET', `/activate?user_code=${started.user_code}`);
    expect(form.text).toContain(`value="${started.user_code}"`);
    expect((await postForm(relay(), '/activate', { user_code: 'BBBB-BBBB' })).text).toContain('wrong or expired');
    const confirm = await postForm(relay(), '/activate', { user_code: started.user_code.toLowerCase().replace('-', ' ') });
    expect(confirm.text).toContain('Nightly');
    expect(confirm.text).not.toContain(frame.code);
    const rid = /name="rid" value="([0-9a-f]{72})"/.exec(confirm.text)![1]!;
    expect(rid).toBe(frame.id);
    const wrong = await postForm(relay(), '/activate/approve', { rid, code: frame.code === '000000' ? '111111' : '000000' });
    expect(wrong.text).toContain('4 tries left');
    const poll = () => postForm(relay(), '/token', { grant_type: DEVICE_GRANT, client_id: client, device_code: started.device_code });
    await poll();
    expect((await poll()).json.error).toBe('slow_down');
    const approved = await postForm(relay(), '/activate/approve', { rid, code: frame.code });
    expect(approved.text).toContain('Approved');
    expect((await poll()).json.access_token).toEqual(expect.stringMatching(/^hra_/));
  });
});
