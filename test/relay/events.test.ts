// Reply events (docs/relay-api.md#ra200 to #ra212), black-box against real relay processes on both backends: the
// 2026-07-28 era of /mcp and its checks, events/subscribe (every refusal, the challenge, renewal, the limit,
// the cursor), the deliveries (signed, once, to the right connector, what each answer does), and the computer's
// list. Webhooks go over real TLS: the relay reaches public-looking names through a CONNECT proxy (HTTPS_PROXY)
// that tunnels them to a local server whose certificate it trusts through NODE_EXTRA_CA_CERTS; that server checks
// every request with the official `standardwebhooks` library.

import { describe, expect, test } from '@jest/globals';
import { DeviceSocket } from '../helpers/device-socket.js';
import { eventually } from '../helpers/in-process.js';
import { BACKENDS, makeKey, pairWithKey, startRelay, useRelay, type RelayProcess } from '../helpers/relay.js';
import {
  HOOK_NAMES,
  modernCall as rpc,
  modernRequest,
  subscribeHook as subscribe,
  useWebhookRig,
  webhookDelivery as delivery,
} from '../helpers/webhooks.js';

const rig = useWebhookRig();

/** A notification that expects a reply, sent by `key`, and its frame on the computer's socket. */
async function ask(relay: RelayProcess, key: string, socket: DeviceSocket, notificationId: string): Promise<string> {
  const sent = await relay.call('POST', '/v1/notify', { token: key, body: { title: 'Deploy?', notificationId, expectReply: true } });
  expect(sent.status).toBe(202);
  return (await socket.notifyFrame(notificationId)).id as string;
}

const subscriptions = async (relay: RelayProcess, token: string) => (await relay.call('GET', '/v1/device/events', { token })).json;

describe.each(BACKENDS)('reply events (%s)', (backend) => {
  const relay = useRelay(() => ({ backend, env: { ...rig().env, RATE_LIMIT_PER_KEY: '1000' } }));

  test('the 2026-07-28 era: server/discover, ping, the tools, events/list; each answer complete and signed with serverInfo', async () => {
    const { key } = await pairWithKey(relay());
    const serverInfo = { name: 'notifier-relay', title: 'Notifier relay', version: expect.any(String) };
    const standard = { resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo } };

    const discover = await rpc(relay(), key, 'server/discover');
    expect([discover.status, discover.json.id]).toEqual([200, 1]);
    expect(discover.json.result).toEqual({
      supportedVersions: ['2026-07-28', '2025-06-18', '2025-03-26', '2024-11-05'],
      capabilities: { tools: { listChanged: false }, events: {} },
      serverInfo,
      instructions: expect.stringContaining('events/subscribe'),
      ...standard,
    });
    expect((await rpc(relay(), key, 'ping')).json.result).toEqual(standard);
    const tools = (await rpc(relay(), key, 'tools/list')).json.result;
    expect(tools).toMatchObject(standard);
    expect(tools.tools.map((tool: { name: string }) => tool.name)).toEqual([
      'send_notification',
      'get_receipt',
      'wait_for_reply',
      'herald_status',
    ]);

    const sent = await rpc(relay(), key, 'tools/call', {
      name: 'send_notification',
      arguments: { title: 'from the modern era', notificationId: 'm1' },
    });
    expect(sent.json.result).toMatchObject({ ...standard, structuredContent: { duplicate: false, notificationId: 'm1', queued: true } });
    const refused = await rpc(relay(), key, 'tools/call', { name: 'send_notification', arguments: { title: 't', script: 'x' } });
    expect(refused.json.result).toMatchObject({ isError: true, structuredContent: { error: 'forbidden_fields' } });
    const unknownTool = await rpc(relay(), key, 'tools/call', { name: 'approve_connector', arguments: {} });
    expect([unknownTool.status, unknownTool.json.error]).toEqual([200, { code: -32602, message: 'unknown tool: approve_connector' }]);

    const events = (await rpc(relay(), key, 'events/list')).json.result;
    expect(events).toEqual({
      events: [
        {
          name: 'notification.reply',
          description: expect.any(String),
          delivery: ['webhook'],
          inputSchema: { type: 'object', additionalProperties: false, properties: {} },
          payloadSchema: {
            type: 'object',
            additionalProperties: false,
            required: ['notificationId', 'id', 'kind'],
            properties: {
              notificationId: expect.objectContaining({ type: 'string' }),
              id: expect.objectContaining({ type: 'string' }),
              kind: expect.objectContaining({ type: 'string', enum: ['text', 'voice'] }),
            },
          },
        },
      ],
      ...standard,
    });
  });

  test('the checks of a 2026-07-28 request, in order; notifications 202; unknown methods 404; events are not in the legacy era', async () => {
    const { key } = await pairWithKey(relay());
    const { body, headers } = modernRequest('server/discover');
    const call = (b: unknown, h: Record<string, string>) => relay().call('POST', '/mcp', { token: key, body: b, headers: h });
    const outcome = async (b: unknown, h: Record<string, string>) => {
      const answer = await call(b, h);
      return [answer.status, answer.json?.error?.code];
    };
    const params = body.params as Record<string, any>;
    const withMeta = (meta: Record<string, unknown>) => ({ ...body, params: { _meta: meta } });

    // 1. A version header the relay does not know, whatever the body says.
    const unknown = await call(body, { ...headers, 'MCP-Protocol-Version': '2099-01-01' });
    expect([unknown.status, unknown.json.error.code, unknown.json.error.data]).toEqual([
      400,
      -32022,
      { supported: ['2026-07-28', '2025-06-18', '2025-03-26', '2024-11-05'], requested: '2099-01-01' },
    ]);
    // 2. `_meta` without the version or the capabilities (even with a wrong Mcp-Method: this comes first).
    expect(await outcome(withMeta({}), { ...headers, 'Mcp-Method': 'ping' })).toEqual([400, -32602]);
    expect(await outcome(withMeta({ 'io.modelcontextprotocol/protocolVersion': '2026-07-28' }), headers)).toEqual([400, -32602]);
    expect(await outcome({ ...body, params: undefined }, headers)).toEqual([400, -32602]);
    // 3. The header's version is not the body's.
    const legacyMeta = withMeta({ ...params._meta, 'io.modelcontextprotocol/protocolVersion': '2025-06-18' });
    expect(await outcome(legacyMeta, headers)).toEqual([400, -32020]);
    // 4. The body's version is not 2026-07-28 (and no header says otherwise).
    const old = await call(legacyMeta, { 'Mcp-Method': 'server/discover' });
    expect([old.status, old.json.error.code, old.json.error.data.requested]).toEqual([400, -32022, '2025-06-18']);
    // 5. Mcp-Method is not the method.
    expect(await outcome(body, { ...headers, 'Mcp-Method': 'ping' })).toEqual([400, -32020]);
    // 6. tools/call needs Mcp-Name, equal to the tool (plain or =?base64?...?=).
    const toolCall = modernRequest('tools/call', { name: 'herald_status', arguments: {} });
    expect(await outcome(toolCall.body, { ...toolCall.headers, 'Mcp-Name': 'get_receipt' })).toEqual([400, -32020]);
    const { 'Mcp-Name': _name, ...withoutName } = toolCall.headers;
    expect(await outcome(toolCall.body, withoutName)).toEqual([400, -32020]);
    const encoded = await call(toolCall.body, {
      ...toolCall.headers,
      'Mcp-Name': `=?base64?${Buffer.from('herald_status').toString('base64')}?=`,
    });
    expect(encoded.json.result.structuredContent).toMatchObject({ online: false });
    // 7. A header that is missing is a header that does not match: each request carries both.
    const { 'Mcp-Method': _method, ...withoutMethod } = headers;
    const { 'MCP-Protocol-Version': _version, ...withoutVersion } = headers;
    for (const missing of [{}, withoutMethod, withoutVersion]) {
      const refused = await call(body, missing);
      expect([Object.keys(missing), refused.status, refused.json.error.code]).toEqual([Object.keys(missing), 400, -32020]);
      expect(refused.json.error.message).toMatch(/header is missing/);
    }
    expect(await outcome(modernRequest('ping', {}, null).body, withoutMethod)).toEqual([400, -32020]); // a notification too
    // A legacy request (no _meta version, no 2026-07-28 header) needs neither header.
    const legacyList = await relay().call('POST', '/mcp', { token: key, body: { jsonrpc: '2.0', id: 2, method: 'tools/list' } });
    expect(legacyList.json.result.tools).toHaveLength(4);

    // 8. Without an id: a notification.
    const notification = modernRequest('ping', {}, null);
    expect((await call(notification.body, notification.headers)).status).toBe(202);
    const initialize = await rpc(relay(), key, 'initialize');
    expect([initialize.status, initialize.json.error.code]).toEqual([404, -32601]);
    const legacy = await relay().call('POST', '/mcp', {
      token: key,
      body: { jsonrpc: '2.0', id: 1, method: 'events/subscribe', params: {} },
    });
    expect([legacy.status, legacy.json.error.code]).toEqual([200, -32601]);
    const discoverLegacy = await relay().call('POST', '/mcp', { token: key, body: { jsonrpc: '2.0', id: 1, method: 'server/discover' } });
    expect(discoverLegacy.json.error.code).toBe(-32601);
    // Credentials come first, as in the legacy era.
    expect((await relay().call('POST', '/mcp', { body, headers })).status).toBe(401);
  });

  test('events/subscribe refuses each bad request with its message (-32602, HTTP 200) and creates nothing', async () => {
    const device = await pairWithKey(relay());
    const good = rig().hook(`/${backend}/refusals`);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: 'notification.sent' }, 'unknown event: notification.sent'],
      [{ arguments: { notificationId: 'x' } }, 'notification.reply takes no arguments'],
      [{ arguments: [] }, 'notification.reply takes no arguments'],
      [{ delivery: { ...delivery(good), mode: 'sse' } }, 'delivery.mode must be webhook'],
      [{ delivery: { ...delivery(good), url: 'not a url' } }, 'delivery.url must be an https URL'],
      [{ delivery: { ...delivery(good), url: 'http://hooks.example.com/x' } }, 'delivery.url must be an https URL without credentials'],
      [
        { delivery: { ...delivery(good), url: 'https://me:pw@hooks.example.com/x' } },
        'delivery.url must be an https URL without credentials',
      ],
      [
        { delivery: { ...delivery(good), url: `https://hooks.example.com/${'x'.repeat(2048)}` } },
        'delivery.url must be an https URL without credentials',
      ],
      [{ delivery: { ...delivery(good), url: 'https://hooks.example.com:443/x' } }, 'delivery.url must use the default https port'],
      [{ delivery: { ...delivery(good), url: 'https://hooks.example.com:8443/x' } }, 'delivery.url must use the default https port'],
      ...[
        'localhost',
        'LOCALHOST.',
        'api.localhost',
        'printer.local',
        'db.internal',
        'nas.home.arpa',
        'intranet',
        '10.1.2.3',
        '127.0.0.1',
        '169.254.169.254',
        '100.64.0.1',
        '0x7f.1',
        '[::1]',
        '[fd00::1]',
        '[::ffff:127.0.0.1]',
      ].map((host): [Record<string, unknown>, string] => [
        { delivery: { ...delivery(good), url: `https://${host}/x` } },
        'delivery.url must be a public address',
      ]),
      [{ delivery: { ...delivery(good), secret: 'not-a-secret' } }, 'delivery.secret must be whsec_ followed by base64 of 24-64 bytes'],
      [
        { delivery: { ...delivery(good), secret: `whsec_${Buffer.alloc(16).toString('base64')}` } },
        'delivery.secret must be whsec_ followed by base64 of 24-64 bytes',
      ],
      [
        { delivery: { ...delivery(good), secret: `whsec_${Buffer.alloc(65).toString('base64')}` } },
        'delivery.secret must be whsec_ followed by base64 of 24-64 bytes',
      ],
      [{ ttlMs: 0 }, 'ttlMs must be a positive integer number of milliseconds'],
      [{ ttlMs: 1.5 }, 'ttlMs must be a positive integer number of milliseconds'],
      [{ ttlMs: '60000' }, 'ttlMs must be a positive integer number of milliseconds'],
    ];
    for (const [params, message] of cases) {
      const answer = await rpc(relay(), device.key, 'events/subscribe', {
        name: 'notification.reply',
        delivery: delivery(good),
        ...params,
      });
      expect([answer.status, answer.json.error]).toEqual([200, { code: -32602, message }]);
    }
    // The order: the first broken rule is the one named.
    const twoWrong = await rpc(relay(), device.key, 'events/subscribe', { name: 'x', delivery: { mode: 'sse' } });
    expect(twoWrong.json.error.message).toBe('unknown event: x');
    expect((await subscriptions(relay(), device.token)).subscriptions).toEqual([]);
    expect(rig().receiver.on(`/${backend}/refusals`, { challenges: true })).toEqual([]); // nothing was sent anywhere
    // A ttlMs that is a positive integer is accepted (and ignored).
    expect((await subscribe(relay(), device.key, good, { ttlMs: 60_000 })).json.result.id).toMatch(/^sub_[0-9a-f]{20}$/);
  });

  test('the challenge is signed like an event; a failed one (-32015: unreachable, bad_status, challenge_mismatch) creates nothing', async () => {
    const device = await pairWithKey(relay());
    const good = rig().hook(`/${backend}/challenge/good`);
    const made = await subscribe(relay(), device.key, good);
    expect(made.json.result).toEqual({
      id: expect.stringMatching(/^sub_[0-9a-f]{20}$/),
      refreshBefore: expect.any(String),
      cursor: '0',
      truncated: false,
      resultType: 'complete',
      _meta: expect.any(Object),
    });
    expect(Date.parse(made.json.result.refreshBefore) - Date.now()).toBeGreaterThan(9 * 365 * 24 * 3600_000);
    const [challenge] = rig().receiver.on(`/${backend}/challenge/good`, { challenges: true });
    expect(challenge!.verified).toBe(true);
    expect(challenge!.json).toEqual({ type: 'verification', challenge: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(challenge!.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Notifier-Relay/1.0',
      'webhook-id': expect.stringMatching(/^ver_[0-9a-f]{16}$/),
      'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]+=*$/),
      'x-mcp-subscription-id': made.json.result.id,
    });
    expect(challenge!.host).toBe('hooks.example.com');

    const failing = async (path: string, host = HOOK_NAMES[0]) => {
      const answer = await subscribe(relay(), device.key, rig().hook(path, host));
      return [answer.status, answer.json.error.code, answer.json.error.data];
    };
    const { receiver } = rig();
    const echo = receiver.answer;
    receiver.answer = (request) => {
      if (request.path === `/${backend}/challenge/500`) return { status: 500 };
      if (request.path === `/${backend}/challenge/redirect`)
        return { status: 302, headers: { location: 'https://hooks.example.com/challenge/good' } };
      if (request.path === `/${backend}/challenge/wrong`) return { status: 200, body: JSON.stringify({ challenge: 'something else' }) };
      if (request.path === `/${backend}/challenge/text`) return { status: 200, body: request.json.challenge };
      return echo(request);
    };
    try {
      expect(await failing(`/${backend}/challenge/500`)).toEqual([200, -32015, { reason: 'bad_status' }]);
      expect(await failing(`/${backend}/challenge/redirect`)).toEqual([200, -32015, { reason: 'bad_status' }]);
      expect(await failing(`/${backend}/challenge/wrong`)).toEqual([200, -32015, { reason: 'challenge_mismatch' }]);
      expect(await failing(`/${backend}/challenge/text`)).toEqual([200, -32015, { reason: 'challenge_mismatch' }]);
      // The proxy refuses a name it does not serve: the callback cannot be reached.
      expect(await failing(`/${backend}/challenge/nowhere`, 'nowhere.example.com')).toEqual([200, -32015, { reason: 'unreachable' }]);
    } finally {
      receiver.answer = echo;
    }
    expect(rig().proxy.targets).toContain('nowhere.example.com:443');
    const list = await subscriptions(relay(), device.token);
    expect(list.subscriptions.map((sub: { id: string }) => sub.id)).toEqual([made.json.result.id]);
  });

  test('a reply fires notification.reply once, signed, only to the subscriptions of the connector that sent it', async () => {
    const device = await pairWithKey(relay());
    const other = await makeKey(relay(), device.token, 'other-agent');
    const mine = rig().hook(`/${backend}/reply/mine`);
    const second = rig().hook(`/${backend}/reply/mine-too`, 'agent.example.org');
    const theirs = rig().hook(`/${backend}/reply/theirs`);
    const subId = (await subscribe(relay(), device.key, mine)).json.result.id;
    await subscribe(relay(), device.key, second);
    await subscribe(relay(), other, theirs);
    const socket = await DeviceSocket.online(relay().port, device.token);

    // Typed, over the socket.
    const rid = await ask(relay(), device.key, socket, 'deploy-1');
    socket.send({ type: 'receipt', id: rid, kind: 'replied', text: 'yes' });
    const [event] = await rig().receiver.events(`/${backend}/reply/mine`, 1);
    expect(event!.verified).toBe(true);
    expect(event!.json).toEqual({
      eventId: expect.stringMatching(new RegExp(`^evt_\\d+_${subId.slice(4)}$`)),
      name: 'notification.reply',
      timestamp: expect.any(String),
      data: { notificationId: 'deploy-1', id: rid, kind: 'text' },
      cursor: expect.stringMatching(/^\d+$/),
    });
    expect(event!.json.eventId).toBe(`evt_${event!.json.cursor}_${subId.slice(4)}`);
    expect(JSON.stringify(event!.json)).not.toContain('yes'); // ids only, never the answer
    expect(event!.headers).toMatchObject({
      'webhook-id': event!.json.eventId,
      'x-mcp-subscription-id': subId,
      'user-agent': 'Notifier-Relay/1.0',
      'content-type': 'application/json',
    });
    expect(Math.abs(Number(event!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    expect((await rig().receiver.events(`/${backend}/reply/mine-too`, 1))[0]!.json.data.id).toBe(rid);

    // A second answer sends nothing; a voice-only answer over HTTP is `voice`.
    socket.send({ type: 'receipt', id: rid, kind: 'replied', text: 'no, wait' });
    const voiced = await ask(relay(), device.key, socket, 'deploy-2');
    expect(
      (await relay().call('POST', '/v1/device/reply', { token: device.token, body: { id: voiced, transcript: 'ship it' } })).status,
    ).toBe(200);
    const events = await rig().receiver.events(`/${backend}/reply/mine`, 2);
    expect(events[1]!.json.data).toEqual({ notificationId: 'deploy-2', id: voiced, kind: 'voice' });
    expect(Number(events[1]!.json.cursor)).toBe(Number(events[0]!.json.cursor) + 1);
    await new Promise((resolve) => setTimeout(resolve, 300)); // time for anything that should not come
    expect(rig().receiver.on(`/${backend}/reply/mine`)).toHaveLength(2);
    expect(rig().receiver.on(`/${backend}/reply/theirs`)).toEqual([]); // the other connector's notifications only

    // The other connector's reply goes to its own subscription.
    const theirRid = await ask(relay(), other, socket, 'theirs-1');
    socket.send({ type: 'receipt', id: theirRid, kind: 'replied', text: 'ok' });
    expect((await rig().receiver.events(`/${backend}/reply/theirs`, 1))[0]!.json.data.notificationId).toBe('theirs-1');
    expect(rig().receiver.on(`/${backend}/reply/mine`)).toHaveLength(2);
    await socket.close();
  });

  test('the same connector and URL keep their id with the new secret in force; at most 5 per connector; unsubscribe', async () => {
    const device = await pairWithKey(relay());
    const hook = rig().hook(`/${backend}/renew`);
    const first = (await subscribe(relay(), device.key, hook)).json.result;
    const newSecret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const again = (await subscribe(relay(), device.key, { url: hook.url, secret: newSecret })).json.result;
    expect(again.id).toBe(first.id);
    expect(rig().receiver.on(`/${backend}/renew`, { challenges: true })).toHaveLength(1); // not verified again
    rig().receiver.secrets.set(`/${backend}/renew`, newSecret);
    const socket = await DeviceSocket.online(relay().port, device.token);
    socket.send({ type: 'receipt', id: await ask(relay(), device.key, socket, 'renewed'), kind: 'replied', text: 'ok' });
    expect((await rig().receiver.events(`/${backend}/renew`, 1))[0]!.verified).toBe(true); // signed with the secret in force

    for (let i = 1; i < 5; i++)
      expect((await subscribe(relay(), device.key, rig().hook(`/${backend}/renew/${i}`))).json.result.id).toBeDefined();
    const sixth = await subscribe(relay(), device.key, rig().hook(`/${backend}/renew/6`));
    expect(sixth.json.error).toEqual({ code: -32602, message: 'at most 5 subscriptions per connector' });
    expect(rig().receiver.on(`/${backend}/renew/6`, { challenges: true })).toEqual([]);
    expect((await subscribe(relay(), device.key, hook)).json.result.id).toBe(first.id); // renewing one is still fine
    const otherKey = await makeKey(relay(), device.token, 'second-connector');
    expect((await subscribe(relay(), otherKey, rig().hook(`/${backend}/renew/other`))).json.result.id).toBeDefined();

    const unsubscribe = (url: string, name = 'notification.reply') =>
      rpc(relay(), device.key, 'events/unsubscribe', { name, delivery: { url } });
    const gone = await unsubscribe(hook.url);
    expect([gone.status, gone.json.result]).toEqual([200, { resultType: 'complete', _meta: expect.any(Object) }]);
    expect((await unsubscribe(hook.url)).json.result.resultType).toBe('complete'); // nothing left: fine too
    expect((await unsubscribe('https://10.0.0.1/whatever')).json.result.resultType).toBe('complete'); // host rules do not apply
    expect((await unsubscribe('nonsense')).json.error).toEqual({ code: -32602, message: 'delivery.url must be an https URL' });
    expect((await unsubscribe(hook.url, 'other.event')).json.error).toEqual({ code: -32602, message: 'unknown event: other.event' });
    const left = (await subscriptions(relay(), device.token)).subscriptions;
    expect(left.map((sub: { id: string }) => sub.id)).not.toContain(first.id);
    expect(left).toHaveLength(5); // 4 of this connector, 1 of the other
    await socket.close();
  });

  test("a cursor replays the connector's later replies, up to 100, oldest first; the answer says where to go on", async () => {
    const device = await pairWithKey(relay());
    const socket = await DeviceSocket.online(relay().port, device.token);
    const live = rig().hook(`/${backend}/cursor/live`);
    await subscribe(relay(), device.key, live);
    const other = await makeKey(relay(), device.token, 'not-replayed');
    for (let i = 0; i < 103; i++) {
      const rid = await ask(relay(), device.key, socket, `c${i}`);
      socket.send({ type: 'receipt', id: rid, kind: 'replied', text: `answer ${i}` });
      // Another connector's reply in between: numbered too, but never replayed to this one.
      if (i === 50) socket.send({ type: 'receipt', id: await ask(relay(), other, socket, 'other'), kind: 'replied', text: 'x' });
    }
    const delivered = await rig().receiver.events(`/${backend}/cursor/live`, 103, 30_000);
    const seqs = delivered.map((event) => Number(event.json.cursor));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b)); // in order
    const firstSeq = seqs[0]!;

    const replay = rig().hook(`/${backend}/cursor/replay`);
    const replayed = (await subscribe(relay(), device.key, replay, { cursor: String(firstSeq - 1) })).json.result;
    expect(seqs[51]! - seqs[50]!).toBe(2); // the other connector's event lies between them
    expect(replayed).toMatchObject({ truncated: false, cursor: String(seqs[99]) }); // 100 replayed: go on from the last
    const events = await rig().receiver.events(`/${backend}/cursor/replay`, 100, 30_000);
    expect(events.map((event) => Number(event.json.cursor))).toEqual(seqs.slice(0, 100));
    expect(events.every((event) => event.verified === true)).toBe(true);
    const rest = (await subscribe(relay(), device.key, replay, { cursor: String(seqs[99]) })).json.result;
    expect(rest.cursor).toBe(String(seqs.at(-1)));
    expect(
      (await rig().receiver.events(`/${backend}/cursor/replay`, 103, 30_000)).slice(100).map((e) => e.json.data.notificationId),
    ).toEqual(['c100', 'c101', 'c102']);
    // A cursor that is not 1 to 15 digits replays nothing.
    const ignored = (await subscribe(relay(), device.key, rig().hook(`/${backend}/cursor/ignored`), { cursor: 'abc' })).json.result;
    expect(ignored).toMatchObject({ truncated: false, cursor: String(seqs.at(-1)) });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(rig().receiver.on(`/${backend}/cursor/ignored`)).toEqual([]);
    await socket.close();
  });

  test('410 ends the subscription; another 4xx drops only that event; the computer lists (host only) and ends them; revoking ends them', async () => {
    const device = await pairWithKey(relay());
    const socket = await DeviceSocket.online(relay().port, device.token);
    const goneHook = rig().hook(`/${backend}/answers/gone`);
    const notFoundHook = rig().hook(`/${backend}/answers/404`, 'agent.example.org');
    const gone = (await subscribe(relay(), device.key, goneHook)).json.result.id;
    const dropping = (await subscribe(relay(), device.key, notFoundHook)).json.result.id;

    const list = await subscriptions(relay(), device.token);
    expect(list).toEqual({
      restrictedTo: [],
      subscriptions: [
        {
          id: gone,
          event: 'notification.reply',
          host: 'hooks.example.com',
          key: { id: expect.any(String), name: expect.any(String) },
          createdAt: expect.any(String),
          pending: 0,
        },
        {
          id: dropping,
          event: 'notification.reply',
          host: 'agent.example.org',
          key: expect.any(Object),
          createdAt: expect.any(String),
          pending: 0,
        },
      ],
    });
    const listed = JSON.stringify(list);
    expect(listed).not.toContain(`/${backend}/answers`);
    expect(listed).not.toContain(goneHook.secret.slice(6));

    const { receiver } = rig();
    const echo = receiver.answer;
    let notFoundCount = 0;
    receiver.answer = (request) => {
      if (request.json?.type === 'verification') return echo(request);
      if (request.path === `/${backend}/answers/gone`) return { status: 410 };
      if (request.path === `/${backend}/answers/404`) return { status: ++notFoundCount === 1 ? 404 : 200 };
      return echo(request);
    };
    try {
      for (const nid of ['a1', 'a2'])
        socket.send({ type: 'receipt', id: await ask(relay(), device.key, socket, nid), kind: 'replied', text: 'ok' });
      const notFound = await receiver.events(`/${backend}/answers/404`, 2);
      expect(notFound.map((event) => event.json.data.notificationId)).toEqual(['a1', 'a2']); // a1 dropped, a2 still sent
      await receiver.events(`/${backend}/answers/gone`, 1);
      const after = await subscriptions(relay(), device.token);
      expect(after.subscriptions.map((sub: { id: string }) => sub.id)).toEqual([dropping]);
      expect(receiver.on(`/${backend}/answers/gone`)).toHaveLength(1); // a2 was not sent to the ended one
    } finally {
      receiver.answer = echo;
    }

    // The computer ends one (absent ones too); a bad id shape is 404.
    const end = (id: string) => relay().call('DELETE', `/v1/device/events/subscriptions/${id}`, { token: device.token });
    expect((await end(dropping)).json).toEqual({ removed: true, id: dropping });
    expect((await end(dropping)).json).toEqual({ removed: true, id: dropping });
    expect((await end('sub_nope')).status).toBe(404);
    expect((await subscriptions(relay(), device.token)).subscriptions).toEqual([]);

    // Revoking the connector ends its subscriptions and drops what waits for them.
    const waiting = rig().hook(`/${backend}/answers/waiting`);
    await subscribe(relay(), device.key, waiting);
    receiver.answer = (request) =>
      request.path === `/${backend}/answers/waiting` && request.json?.type !== 'verification' ? { status: 503 } : echo(request);
    try {
      for (const nid of ['w1', 'w2'])
        socket.send({ type: 'receipt', id: await ask(relay(), device.key, socket, nid), kind: 'replied', text: 'ok' });
      await receiver.events(`/${backend}/answers/waiting`, 1);
      // w1 waits for its retry, w2 behind it (w2's reply may land just after w1's first attempt).
      await eventually(async () => (await subscriptions(relay(), device.token)).subscriptions[0].pending === 2, 'two events waiting');
      const keyId = device.key.split('_')[2];
      expect((await relay().call('DELETE', `/v1/device/keys/${keyId}`, { token: device.token })).status).toBe(200);
      expect((await subscriptions(relay(), device.token)).subscriptions).toEqual([]);
    } finally {
      receiver.answer = echo;
    }
    await socket.close();
  });
});

describe.each(BACKENDS)('EVENT_CALLBACK_HOSTS (%s)', (backend) => {
  test('only the listed hosts may be subscribed; the computer sees the list', async () => {
    const relay = await startRelay({ backend, env: { ...rig().env, EVENT_CALLBACK_HOSTS: 'Agent.Example.org., hooks.example.com' } });
    const device = await pairWithKey(relay);
    const refused = await subscribe(relay, device.key, rig().hook(`/${backend}/allowed/no`, 'elsewhere.example.net'));
    expect(refused.json.error).toEqual({
      code: -32602,
      message: "delivery.url host is not on this relay's EVENT_CALLBACK_HOSTS list",
      data: { reason: 'host_not_allowed', host: 'elsewhere.example.net' },
    });
    expect((await subscribe(relay, device.key, rig().hook(`/${backend}/allowed/yes`, 'agent.example.org'))).json.result.id).toBeDefined();
    expect((await subscriptions(relay, device.token)).restrictedTo).toEqual(['agent.example.org', 'hooks.example.com']);
    await relay.stop();

    const bad = await startRelay({ backend, env: { EVENT_CALLBACK_HOSTS: 'localhost' } }).catch((error: Error) => error);
    expect(String(bad)).toContain('EVENT_CALLBACK_HOSTS must list public host names');
  });
});

describe.each(BACKENDS)('the modern era and the budget (%s)', (backend) => {
  test("each call costs one request (a refused subscribe too, the era's own checks not); once spent, 503 with -32603", async () => {
    const relay = await startRelay({ backend, env: { ...rig().env, DEVICE_REQUESTS_PER_DAY: '8' } });
    const device = await pairWithKey(relay); // 1
    const used = async () => (await relay.call('GET', '/v1/device/usage', { token: device.token })).json.requests;
    const hook = rig().hook(`/${backend}/budget`);
    const steps: Array<[string, () => Promise<unknown>, number]> = [
      ['ping', () => rpc(relay, device.key, 'ping'), 2],
      ['events/list', () => rpc(relay, device.key, 'events/list'), 3],
      ['events/subscribe', () => subscribe(relay, device.key, hook), 4],
      ['a refused events/subscribe', () => subscribe(relay, device.key, { ...hook, secret: 'x' }), 5],
      [
        'events/unsubscribe',
        () => rpc(relay, device.key, 'events/unsubscribe', { name: 'notification.reply', delivery: { url: 'https://x.example/' } }),
        6,
      ],
      ['a header that differs (not counted)', () => rpc(relay, device.key, 'ping', {}, { 'Mcp-Method': 'tools/list' }), 6],
      ['a notification', () => relay.call('POST', '/mcp', { token: device.key, ...modernRequest('ping', {}, null) }), 7],
      ['tools/call', () => rpc(relay, device.key, 'tools/call', { name: 'herald_status', arguments: {} }), 8],
    ];
    for (const [what, step, after] of steps) {
      await step();
      expect([what, await used()]).toEqual([what, after]);
    }
    const spent = await subscribe(relay, device.key, rig().hook(`/${backend}/budget/2`));
    expect([spent.status, spent.json.error.code, spent.json.error.data.error]).toEqual([503, -32603, 'budget_exhausted']);
    expect(Number(spent.headers['retry-after'])).toBeGreaterThan(0);
    await relay.stop();
  });
});

describe('a real retry', () => {
  test('an event answered 503 is sent again a minute later, with the same webhook-id and a fresh timestamp (both backends)', async () => {
    const run = async (backend: (typeof BACKENDS)[number]) => {
      const relay = await startRelay({ backend, env: rig().env });
      const device = await pairWithKey(relay);
      const hook = rig().hook(`/retry/${backend}`);
      await subscribe(relay, device.key, hook);
      const socket = await DeviceSocket.online(relay.port, device.token);
      socket.send({ type: 'receipt', id: await ask(relay, device.key, socket, 'retry-me'), kind: 'replied', text: 'ok' });
      const [first, second] = await rig().receiver.events(hook.path, 2, 90_000);
      expect(second!.at - first!.at).toBeGreaterThan(59_000);
      expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
      expect(Number(second!.headers['webhook-timestamp']) - Number(first!.headers['webhook-timestamp'])).toBeGreaterThanOrEqual(59);
      expect([first!.verified, second!.verified]).toEqual([true, true]);
      expect((await subscriptions(relay, device.token)).subscriptions[0].pending).toBe(0); // the second was taken
      await socket.close();
      await relay.stop();
    };
    const { receiver } = rig();
    const echo = receiver.answer;
    const served = new Set<string>();
    receiver.answer = (request) => {
      if (!request.path.startsWith('/retry/') || request.json?.type === 'verification') return echo(request);
      if (served.has(request.path)) return { status: 200 };
      served.add(request.path);
      return { status: 503, headers: { 'retry-after': '5' } }; // shorter than the backoff: the minute holds
    };
    try {
      await Promise.all(BACKENDS.map(run));
    } finally {
      receiver.answer = echo;
    }
  }, 120_000);
});
