// OAuth connectors and reply events together (docs/relay-api.md#ra107, #ra109, #ra204 to #ra212), black-box on both
// backends: an agent connected through the relay's OAuth server (browser or device flow) uses its access token in
// the 2026-07-28 era of /mcp, subscribes a webhook (real TLS through a CONNECT proxy; the receiver verifies each
// request with `standardwebhooks`), and hears of the person's answers to its own notifications only. A refresh
// (a new refresh token in place of the old) keeps the connector and its subscriptions; the person revoking the
// connector (or approving its client again) ends its tokens, its subscriptions and their waiting deliveries;
// `POST /revoke` ends a grant's tokens but not the connector, whose subscriptions stay until the person ends them
// or the webhook answers 410.

import { describe, expect, test } from '@jest/globals';
import { waitFor } from '../../rigs/wait.js';
import type { DeviceSocket } from '../helpers/device-socket.js';
import {
  authorizeAndApprove,
  connectByDeviceFlow,
  DEVICE_GRANT,
  exchange,
  openComputer,
  postForm,
  refreshTokens,
  register,
  type Computer,
} from '../helpers/oauth.js';
import { BACKENDS, makeKey, storedRows, useRelay } from '../helpers/relay.js';
import { modernCall, subscribeHook, useWebhookRig, type ReceivedWebhook } from '../helpers/webhooks.js';

const rig = useWebhookRig();

/** Time for anything that should not come. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

const isChallenge = (request: ReceivedWebhook) => request.json?.type === 'verification';

describe.each(BACKENDS)('OAuth connectors and reply events (%s)', (backend) => {
  const relay = useRelay(() => ({ backend, env: { ...rig().env, REGISTER_PER_HOUR: '10000' } }));

  /** A connector made in the browser flow: a client registered, approved on the computer, its code exchanged. */
  async function browserConnector(computer: Computer, clientName: string) {
    const clientId = (await register(relay(), { client_name: clientName })).client_id as string;
    const approval = await authorizeAndApprove(relay(), computer.token, clientId, { device: computer.index });
    const tokens = (await exchange(relay(), clientId, approval.code, approval.verifier)).json;
    return { clientId, approval, tokens };
  }

  /** The active connector key the client's approval made on the computer. */
  async function connectorKey(computer: Computer, clientName: string): Promise<{ id: string; name: string }> {
    const { keys } = (await relay().call('GET', '/v1/device/keys', { token: computer.token })).json;
    const active = keys.filter((key: Record<string, string>) => key.displayName === clientName && key.revokedAt === undefined);
    expect(active).toHaveLength(1);
    return active[0];
  }

  /** The agent asks, with its credential, in the 2026-07-28 era; returns the relay's id from the computer's frame. */
  async function ask(token: string, socket: DeviceSocket, notificationId: string): Promise<string> {
    const sent = await modernCall(relay(), token, 'tools/call', {
      name: 'send_notification',
      arguments: { title: 'Ship it?', notificationId, expectReply: true },
    });
    expect(sent.json.result.structuredContent).toMatchObject({ duplicate: false, notificationId });
    return (await socket.notifyFrame(notificationId)).id as string;
  }

  const subscriptionIds = async (computer: Computer): Promise<string[]> =>
    (await relay().call('GET', '/v1/device/events', { token: computer.token })).json.subscriptions.map((sub: { id: string }) => sub.id);

  /** Whether an access token still opens /mcp (a revoked one gets 401 with the OAuth challenge). */
  async function opensMcp(accessToken: string): Promise<boolean> {
    const answer = await modernCall(relay(), accessToken, 'ping');
    if (answer.status === 401) expect(answer.headers['www-authenticate']).toContain('error="invalid_token"');
    return answer.status === 200;
  }

  test("a browser-flow connector's access token subscribes; the reply to its notification reaches its webhook once, signed, and no other connector's; a refresh keeps the connector and the subscription", async () => {
    const desk = await openComputer(relay());
    const { clientId, tokens } = await browserConnector(desk, 'Deploy Bot');
    const other = await browserConnector(desk, 'Other Bot');
    const staticKey = await makeKey(relay(), desk.token, 'static-agent');
    const mine = rig().hook(`/${backend}/connector/mine`);
    const theirs = rig().hook(`/${backend}/connector/theirs`, 'agent.example.org');
    const keyHook = rig().hook(`/${backend}/connector/static`, 'elsewhere.example.net');

    const subscribed = await subscribeHook(relay(), tokens.access_token, mine);
    expect([subscribed.status, subscribed.json.result?.resultType]).toEqual([200, 'complete']);
    const subId = subscribed.json.result.id as string;
    expect((await subscribeHook(relay(), other.tokens.access_token, theirs)).json.result.id).not.toBe(subId);
    expect((await subscribeHook(relay(), staticKey, keyHook)).json.result.id).toEqual(expect.any(String));
    const [challenge] = rig().receiver.on(mine.path, { challenges: true });
    expect([challenge!.verified, challenge!.headers['x-mcp-subscription-id']]).toEqual([true, subId]);

    // The computer sees the subscription under the connector's key.
    const connector = await connectorKey(desk, 'Deploy Bot');
    const listed = (await relay().call('GET', '/v1/device/events', { token: desk.token })).json.subscriptions;
    expect(listed.find((sub: { id: string }) => sub.id === subId).key).toEqual({
      id: connector.id,
      name: 'deploy-bot',
      displayName: 'Deploy Bot',
    });

    // It asks with its token; the person answers on the computer; its webhook hears of it, and reads the answer.
    const rid = await ask(tokens.access_token, desk.socket, `${backend}-deploy-1`);
    desk.socket.send({ type: 'receipt', id: rid, kind: 'replied', text: 'ship it' });
    const [event] = await rig().receiver.events(mine.path, 1);
    expect(event!.verified).toBe(true);
    expect(event!.headers).toMatchObject({ 'x-mcp-subscription-id': subId, 'webhook-id': event!.json.eventId });
    expect(event!.json).toMatchObject({
      name: 'notification.reply',
      data: { notificationId: `${backend}-deploy-1`, id: rid, kind: 'text' },
    });
    const receipt = await modernCall(relay(), tokens.access_token, 'tools/call', {
      name: 'get_receipt',
      arguments: { notificationId: `${backend}-deploy-1` },
    });
    expect(receipt.json.result.structuredContent).toMatchObject({ replied: true, reply: 'ship it' });
    await settle();
    expect(rig().receiver.on(mine.path)).toHaveLength(1);
    expect([rig().receiver.on(theirs.path), rig().receiver.on(keyHook.path)]).toEqual([[], []]);

    // A refresh: a new access token and a new refresh token, the same connector and subscription.
    const refreshed = (await refreshTokens(relay(), clientId, tokens.refresh_token)).json;
    expect(refreshed.refresh_token).toMatch(/^hrr_/);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect((await connectorKey(desk, 'Deploy Bot')).id).toBe(connector.id);
    expect((await subscribeHook(relay(), refreshed.access_token, mine)).json.result.id).toBe(subId);
    expect(rig().receiver.on(mine.path, { challenges: true }).filter(isChallenge)).toHaveLength(1); // not challenged again
    const rid2 = await ask(refreshed.access_token, desk.socket, `${backend}-deploy-2`);
    expect((await relay().call('POST', '/v1/device/reply', { token: desk.token, body: { id: rid2, text: 'later' } })).status).toBe(200);
    const events = await rig().receiver.events(mine.path, 2);
    expect([events[1]!.verified, events[1]!.json.data.id, events[1]!.headers['x-mcp-subscription-id']]).toEqual([true, rid2, subId]);
    expect(await opensMcp(tokens.access_token)).toBe(true); // the earlier access token stays valid
    await settle();
    expect([rig().receiver.on(theirs.path), rig().receiver.on(keyHook.path)]).toEqual([[], []]);
  });

  test('the person revokes the connector: every token, its subscriptions and their waiting deliveries end; another connector is untouched', async () => {
    const desk = await openComputer(relay());
    const revoked = await browserConnector(desk, 'Revoked Bot');
    const refreshed = (await refreshTokens(relay(), revoked.clientId, revoked.tokens.refresh_token)).json;
    const staying = await browserConnector(desk, 'Staying Bot');
    const failing = rig().hook(`/${backend}/revoked/failing`);
    const kept = rig().hook(`/${backend}/revoked/kept`, 'agent.example.org');
    const failingId = (await subscribeHook(relay(), revoked.tokens.access_token, failing)).json.result.id;
    const keptId = (await subscribeHook(relay(), staying.tokens.access_token, kept)).json.result.id;

    const { receiver } = rig();
    const echo = receiver.answer;
    receiver.answer = (request) => (request.path === failing.path && !isChallenge(request) ? { status: 503 } : echo(request));
    try {
      for (const nid of ['r1', 'r2']) {
        const rid = await ask(revoked.tokens.access_token, desk.socket, `${backend}-${nid}`);
        desk.socket.send({ type: 'receipt', id: rid, kind: 'replied', text: 'ok' });
      }
      const late = await ask(refreshed.access_token, desk.socket, `${backend}-r3`); // answered after the revocation
      await receiver.events(failing.path, 1); // r1's first attempt failed: r1 and r2 wait
      const before = (await relay().call('GET', '/v1/device/events', { token: desk.token })).json.subscriptions;
      expect(before.find((sub: { id: string }) => sub.id === failingId).pending).toBe(2);
      expect(await storedRows(relay(), 'event_outbox', desk.deviceId)).toBe(2);

      const connector = await connectorKey(desk, 'Revoked Bot');
      const answer = await relay().call('DELETE', `/v1/device/keys/${connector.id}`, { token: desk.token });
      expect(answer.json).toEqual({ revoked: true, id: connector.id });

      // Every token of the connector, from before and after its refresh, has ended.
      expect([await opensMcp(revoked.tokens.access_token), await opensMcp(refreshed.access_token)]).toEqual([false, false]);
      expect((await refreshTokens(relay(), revoked.clientId, refreshed.refresh_token)).json.error).toBe('invalid_grant');
      // Its subscription ended and its waiting deliveries were dropped; the other connector's subscription stays.
      expect(await subscriptionIds(desk)).toEqual([keptId]);
      expect(await storedRows(relay(), 'event_outbox', desk.deviceId)).toBe(0);
      desk.socket.send({ type: 'receipt', id: late, kind: 'replied', text: 'too late' });
      const rid = await ask(staying.tokens.access_token, desk.socket, `${backend}-kept`);
      desk.socket.send({ type: 'receipt', id: rid, kind: 'replied', text: 'ok' });
      expect((await receiver.events(kept.path, 1))[0]!.json.data.id).toBe(rid);
      await settle();
      expect(receiver.on(failing.path)).toHaveLength(1); // nothing more: neither the dropped events nor r3's
      expect(await opensMcp(staying.tokens.access_token)).toBe(true);
    } finally {
      receiver.answer = echo;
    }
  });

  test('POST /revoke ends a grant, not the connector: its subscription stays and replies still reach the webhook, until it answers 410', async () => {
    const desk = await openComputer(relay());
    const { clientId, tokens } = await browserConnector(desk, 'Revoking Bot');
    const refreshed = (await refreshTokens(relay(), clientId, tokens.refresh_token)).json;
    const hook = rig().hook(`/${backend}/revoke-token`);
    const subId = (await subscribeHook(relay(), tokens.access_token, hook)).json.result.id;
    const asked = await ask(tokens.access_token, desk.socket, `${backend}-t1`);
    const asked2 = await ask(refreshed.access_token, desk.socket, `${backend}-t2`);
    const asked3 = await ask(refreshed.access_token, desk.socket, `${backend}-t3`);

    const revoke = (token: string) => postForm(relay(), '/revoke', { token, client_id: clientId });
    expect((await revoke(tokens.access_token)).json).toEqual({}); // an access token: only itself
    expect([await opensMcp(tokens.access_token), await opensMcp(refreshed.access_token)]).toEqual([false, true]);
    // The connector stays, and so does its subscription: the answer to a question asked before reaches it.
    expect((await connectorKey(desk, 'Revoking Bot')).id).toEqual(expect.any(String));
    expect(await subscriptionIds(desk)).toEqual([subId]);
    desk.socket.send({ type: 'receipt', id: asked, kind: 'replied', text: 'yes' });
    expect((await rig().receiver.events(hook.path, 1))[0]!.json.data.id).toBe(asked);

    // With no token left at all (the refresh token ends the whole grant), the webhook still hears of answers ...
    expect((await revoke(refreshed.refresh_token)).status).toBe(200);
    expect(await opensMcp(refreshed.access_token)).toBe(false);
    expect((await refreshTokens(relay(), clientId, refreshed.refresh_token)).json.error).toBe('invalid_grant');
    expect((await connectorKey(desk, 'Revoking Bot')).id).toEqual(expect.any(String));
    desk.socket.send({ type: 'receipt', id: asked2, kind: 'replied', text: 'yes' });
    const events = await rig().receiver.events(hook.path, 2);
    expect([events[1]!.verified, events[1]!.json.data.id]).toEqual([true, asked2]);
    // ... until it answers 410 Gone (or the person ends the subscription or the connector).
    const { receiver } = rig();
    const echo = receiver.answer;
    receiver.answer = (request) => (request.path === hook.path ? { status: 410 } : echo(request));
    try {
      desk.socket.send({ type: 'receipt', id: asked3, kind: 'replied', text: 'yes' });
      await receiver.events(hook.path, 3);
      await waitFor(async () => ((await subscriptionIds(desk)).length === 0 ? true : undefined), 'the subscription to end');
    } finally {
      receiver.answer = echo;
    }
  });

  test('a device-flow connector: its token subscribes, the answer reaches its webhook, a refresh keeps it; revoked, its subscription ends', async () => {
    const desk = await openComputer(relay());
    const clientId = (await register(relay(), { client_name: 'Nightly CI', redirect_uris: undefined, grant_types: [DEVICE_GRANT] }))
      .client_id;
    const tokens = await connectByDeviceFlow(relay(), desk, clientId);
    const hook = rig().hook(`/${backend}/device-flow`);
    const subId = (await subscribeHook(relay(), tokens.access_token, hook)).json.result.id;
    expect(rig().receiver.on(hook.path, { challenges: true })[0]!.verified).toBe(true);

    // Asked over plain HTTPS with the token; answered by voice only, over HTTP: a `voice` event.
    const sent = await relay().call('POST', '/v1/notify', {
      token: tokens.access_token,
      body: { title: 'Nightly failed: retry?', notificationId: `${backend}-nightly`, expectReply: true },
    });
    expect(sent.status).toBe(202);
    const rid = (await desk.socket.notifyFrame(`${backend}-nightly`)).id;
    expect(
      (await relay().call('POST', '/v1/device/reply', { token: desk.token, body: { id: rid, transcript: 'yes, retry' } })).status,
    ).toBe(200);
    const [event] = await rig().receiver.events(hook.path, 1);
    expect([event!.verified, event!.json.data]).toEqual([true, { notificationId: `${backend}-nightly`, id: rid, kind: 'voice' }]);

    const refreshed = (await refreshTokens(relay(), clientId, tokens.refresh_token)).json;
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await subscribeHook(relay(), refreshed.access_token, hook)).json.result.id).toBe(subId);

    const connector = await connectorKey(desk, 'Nightly CI');
    expect((await relay().call('DELETE', `/v1/device/keys/${connector.id}`, { token: desk.token })).status).toBe(200);
    expect(await subscriptionIds(desk)).toEqual([]);
    expect([await opensMcp(tokens.access_token), await opensMcp(refreshed.access_token)]).toEqual([false, false]);
  });

  test("approving the same client again replaces its connector: the old one's tokens and subscriptions end", async () => {
    const desk = await openComputer(relay());
    const first = await browserConnector(desk, 'Twice Bot');
    const hook = rig().hook(`/${backend}/twice`);
    const oldId = (await subscribeHook(relay(), first.tokens.access_token, hook)).json.result.id;
    const asked = await ask(first.tokens.access_token, desk.socket, `${backend}-twice`);

    const again = await authorizeAndApprove(relay(), desk.token, first.clientId, { device: desk.index });
    const tokens = (await exchange(relay(), first.clientId, again.code, again.verifier)).json;
    expect(await opensMcp(first.tokens.access_token)).toBe(false);
    expect(await subscriptionIds(desk)).toEqual([]);
    // The new connector subscribes anew (challenged again, a new id); the old connector's question fires nothing.
    const newId = (await subscribeHook(relay(), tokens.access_token, hook)).json.result.id;
    expect(newId).not.toBe(oldId);
    expect(rig().receiver.on(hook.path, { challenges: true }).filter(isChallenge)).toHaveLength(2);
    desk.socket.send({ type: 'receipt', id: asked, kind: 'replied', text: 'ok' });
    await settle();
    expect(rig().receiver.on(hook.path)).toEqual([]);
  });
});
