// ntfy's and Gotify's publishing dialects on a real daemon (docs/senders.md): the curl lines of their own
// documentation, run as written but for the host, land in History as the topic's (or the key's) app; every refusal
// answers in the dialect's own error shape.

import { describe, expect, test } from '@jest/globals';
import { useDaemon } from '../helpers/daemon.js';

const NTFY_ERROR = (http: number, code: number) => ({ code, http, error: expect.any(String) });

describe("ntfy's dialect", () => {
  const daemon = useDaemon();
  let key = '';
  const publish = (
    method: string,
    route: string,
    options: { body?: string; headers?: Record<string, string>; auth?: string | null } = {},
  ) =>
    daemon().api(method, route, {
      token: null,
      ...(options.body !== undefined ? { body: options.body } : {}),
      headers: {
        ...(options.auth === null ? {} : { Authorization: `Bearer ${options.auth ?? key}` }),
        ...(options.body !== undefined ? { 'Content-Type': 'text/plain' } : {}),
        ...options.headers,
      },
    });
  const latest = async (app: string) => (await daemon().api('GET', `/v1/history?app=${app}&limit=1`)).json.items[0];

  test('a key for the topics of this suite', async () => {
    for (const app of ['mytopic', 'phil_alerts']) {
      const made = await daemon().api('POST', '/v1/keys', { body: { app } });
      expect(made.status).toBe(201);
      if (app === 'mytopic') key = made.json.key;
    }
  });

  test('curl -d "Backup successful 😀" host/mytopic: the message is the title, ntfy\'s message JSON is the answer', async () => {
    const reply = await publish('POST', '/mytopic', { body: 'Backup successful 😀' });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({
      id: expect.any(String),
      time: expect.any(Number),
      expires: reply.json.time + 43200,
      event: 'message',
      topic: 'mytopic',
      message: 'Backup successful 😀',
    });
    const record = await latest('mytopic');
    expect(record.id).toBe(reply.json.id);
    expect(record.notification).toMatchObject({ app: 'mytopic', title: 'Backup successful 😀' });
  });

  test('title, priority and tags as headers: emoji tags before the title, urgent stays until closed, other tags kept', async () => {
    const token = daemon().token;
    const reply = await publish('POST', '/phil_alerts', {
      auth: token,
      headers: { Title: 'Unauthorized access detected', Priority: 'urgent', Tags: 'warning,skull,ops' },
      body: 'Remote access to phils-laptop detected. Act right away.',
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ title: 'Unauthorized access detected', priority: 5, tags: ['warning', 'skull', 'ops'] });
    expect((await latest('phil_alerts')).notification).toMatchObject({
      title: '⚠️ 💀 Unauthorized access detected',
      body: 'Remote access to phils-laptop detected. Act right away.',
      priority: 'urgent',
      persistent: true,
      metadata: { tags: ['ops'] },
    });
  });

  test('publishing by GET with the message in the query, and a click and view action', async () => {
    const auth = Buffer.from(`Bearer ${key}`).toString('base64url');
    const reply = await publish('GET', `/mytopic/publish?message=Webhook+triggered&priority=high&tags=warning&auth=${auth}`, {
      auth: null,
    });
    expect(reply.status).toBe(200);
    expect((await latest('mytopic')).notification).toMatchObject({ title: '⚠️ Webhook triggered', priority: 'high' });

    const click = await publish('PUT', '/mytopic', {
      headers: { Click: 'https://home.nest.com/', Actions: 'view, Open portal, https://home.nest.com/, clear=true' },
      body: 'Somebody is at the door',
    });
    expect(click.status).toBe(200);
    expect((await latest('mytopic')).notification).toMatchObject({
      url: 'https://home.nest.com/',
      buttons: [{ label: 'Open portal', url: 'https://home.nest.com/' }],
    });
  });

  test("ntfy's JSON publishing at the root", async () => {
    const reply = await publish('POST', '/', {
      body: JSON.stringify({
        topic: 'mytopic',
        message: 'Disk space is low at 5.1 GB',
        title: 'Low disk space alert',
        tags: ['warning', 'cd'],
        priority: 4,
      }),
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ topic: 'mytopic', title: 'Low disk space alert', priority: 4, tags: ['warning', 'cd'] });
    expect((await latest('mytopic')).notification).toMatchObject({
      title: '⚠️ 💿 Low disk space alert',
      body: 'Disk space is low at 5.1 GB',
      priority: 'high',
    });
  });

  test('a sequence id sent again replaces the earlier notification', async () => {
    const first = await publish('POST', '/mytopic', { headers: { 'X-Sequence-ID': 'backup-run' }, body: 'Backup running' });
    const second = await publish('POST', '/mytopic', { headers: { 'X-Sequence-ID': 'backup-run' }, body: 'Backup done' });
    expect([first.json.id, second.json.id]).toEqual(['backup-run', 'backup-run']);
    const items = (await daemon().api('GET', '/v1/history?app=mytopic')).json.items.filter((item: any) => item.id === 'backup-run');
    expect(items.map((item: any) => item.notification.title)).toEqual(['Backup done']);
  });

  test("ntfy's clear closes the sequence id's banner; its delete takes it from History, twice without error", async () => {
    expect((await publish('POST', '/mytopic', { headers: { 'X-Sequence-ID': 'door-1', Title: 'Door open' }, body: 'x' })).status).toBe(200);
    const cleared = await publish('PUT', '/mytopic/door-1/clear');
    expect([cleared.status, cleared.json]).toEqual([
      200,
      { id: 'door-1', time: expect.any(Number), event: 'message_clear', topic: 'mytopic', sequence_id: 'door-1' },
    ]);
    const record = (await daemon().api('GET', '/v1/history?app=mytopic')).json.items.find((item: any) => item.id === 'door-1');
    expect(record.dismissedAt).toEqual(expect.any(String));
    for (let time = 0; time < 2; time++) {
      const deleted = await publish('DELETE', '/mytopic/door-1');
      expect([deleted.status, deleted.json.event]).toEqual([200, 'message_delete']);
    }
    const ids = (await daemon().api('GET', '/v1/history?app=mytopic')).json.items.map((item: any) => item.id);
    expect(ids).not.toContain('door-1');
    const otherTopic = await publish('DELETE', '/phil_alerts/anything');
    expect([otherTopic.status, otherTopic.json.code]).toEqual([403, 40301]);
  });

  test("every refusal is in ntfy's error shape, and nothing is kept", async () => {
    const before = (await daemon().api('GET', '/v1/history?app=mytopic')).json.items.length;
    const cases: Array<[string, Promise<any>, number, number]> = [
      ['no credentials', publish('POST', '/mytopic', { auth: null, body: 'x' }), 401, 40101],
      ['a wrong key', publish('POST', '/mytopic', { auth: `tk_${'0'.repeat(29)}`, body: 'x' }), 401, 40101],
      ['a key of another topic', publish('POST', '/phil_alerts', { body: 'x' }), 403, 40301],
      ['an unknown priority', publish('POST', '/mytopic', { headers: { Priority: 'loud' }, body: 'x' }), 400, 40007],
      ['a reserved topic', publish('POST', '/metrics', { body: 'x' }), 400, 40010],
      ['e-mail', publish('POST', '/mytopic', { headers: { Email: 'phil@example.com' }, body: 'x' }), 400, 40001],
      ['a phone call', publish('POST', '/mytopic', { headers: { Call: 'yes' }, body: 'x' }), 400, 40035],
      ['a broadcast action', publish('POST', '/mytopic', { headers: { Actions: 'broadcast, Take picture' }, body: 'x' }), 400, 40018],
      ['a title over its limit', publish('POST', '/mytopic', { headers: { Title: 't'.repeat(1025) }, body: 'x' }), 413, 41301],
      ['a body over the limit', publish('POST', '/mytopic', { body: 'x'.repeat(2 * 1024 * 1024) }), 413, 41301],
      ['a page from the web', publish('POST', '/mytopic', { headers: { Origin: 'https://evil.example' }, body: 'x' }), 403, 40301],
    ];
    for (const [what, pending, http, code] of cases) {
      const reply = await pending;
      expect({ what, status: reply.status, body: reply.json }).toEqual({ what, status: http, body: NTFY_ERROR(http, code) });
    }
    expect((await daemon().api('GET', '/v1/history?app=mytopic')).json.items.length).toBe(before);
  });

  test('cache, firebase, unifiedpush and poll-id are accepted and ignored', async () => {
    const reply = await publish('POST', '/mytopic', {
      headers: { Cache: 'no', Firebase: 'no', UnifiedPush: '1' },
      body: 'Ignored headers',
    });
    expect(reply.status).toBe(200);
  });
});

describe("Gotify's dialect", () => {
  const daemon = useDaemon();

  test('GET /version answers as Gotify does, without credentials', async () => {
    const reply = await daemon().api('GET', '/version', { token: null });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ version: expect.any(String), commit: expect.any(String), buildDate: expect.any(String) });
  });

  test("the curl line of Gotify's documentation: a form with the key in the query; the message lands in the key's app", async () => {
    const { key } = (await daemon().api('POST', '/v1/keys', { body: { app: 'gotify-app' } })).json;
    const reply = await daemon().api('POST', `/message?token=${key}`, {
      token: null,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'title=my+title&message=my+message&priority=5',
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({
      id: expect.any(Number),
      appid: expect.any(Number),
      message: 'my message',
      title: 'my title',
      priority: 5,
      date: expect.any(String),
    });
    const item = (await daemon().api('GET', '/v1/history?app=gotify-app&limit=1')).json.items[0];
    expect(item.notification).toMatchObject({ title: 'my title', body: 'my message' });
  });

  test('JSON with extras and X-Gotify-Key; the API token sends as the app gotify', async () => {
    const reply = await daemon().api('POST', '/message', {
      token: null,
      headers: { 'X-Gotify-Key': daemon().token },
      body: {
        title: 'Deploy',
        message: '**done**',
        priority: 8,
        extras: { 'client::display': { contentType: 'text/markdown' }, 'client::notification': { click: { url: 'https://ci.example/9' } } },
      },
    });
    expect(reply.status).toBe(200);
    const item = (await daemon().api('GET', '/v1/history?app=gotify&limit=1')).json.items[0];
    expect(item.notification).toMatchObject({ title: 'Deploy', body: '**done**', priority: 'high', url: 'https://ci.example/9' });
  });

  test("refusals in Gotify's error shape", async () => {
    const none = await daemon().api('POST', '/message', { token: null, body: { message: 'x' } });
    expect(none.status).toBe(401);
    expect(none.json).toEqual({ error: 'Unauthorized', errorCode: 401, errorDescription: expect.any(String) });
    const empty = await daemon().api('POST', '/message', {
      token: null,
      headers: { 'X-Gotify-Key': daemon().token },
      body: { message: '' },
    });
    expect(empty.status).toBe(400);
    expect(empty.json).toEqual({ error: 'Bad Request', errorCode: 400, errorDescription: expect.any(String) });
    const priority = await daemon().api('POST', '/message', {
      token: null,
      headers: { 'X-Gotify-Key': daemon().token },
      body: { message: 'x', priority: 11 },
    });
    expect(priority.json).toMatchObject({ errorCode: 400 });
  });
});
