import { describe, expect, test } from '@jest/globals';
import { useDaemon } from '../helpers/daemon.js';
import { missingField } from '../helpers/http.js';

type Item = { id: string; dismissedAt?: string; actionUsed?: string };

describe('POST /v1/dismiss and POST /v1/dismissAll', () => {
  const daemon = useDaemon();
  const notify = (app: string, id: string, group?: string) =>
    daemon().api('POST', '/v1/notify', { body: { app, id, title: id, ...(group ? { group } : {}) } });
  const items = async (app: string): Promise<Record<string, Item>> =>
    Object.fromEntries(((await daemon().api('GET', `/v1/history?app=${app}`)).json.items as Item[]).map((item) => [item.id, item]));

  test('dismiss closes one banner; its record stays in History with dismissedAt and actionUsed', async () => {
    await notify('d', 'one');
    await notify('d', 'two');
    expect((await daemon().api('POST', '/v1/dismiss', { body: { app: 'd', id: 'one' } })).json).toEqual({ ok: true });
    const records = await items('d');
    expect(records.one).toMatchObject({ dismissedAt: expect.any(String), actionUsed: 'dismiss' });
    expect(records.two!.dismissedAt).toBeUndefined();
  });

  test('a dismissal is recorded once: a second one changes nothing', async () => {
    await notify('once', 'x');
    await daemon().api('POST', '/v1/dismiss', { body: { app: 'once', id: 'x' } });
    const first = (await items('once')).x!.dismissedAt;
    await new Promise((resolve) => setTimeout(resolve, 5));
    await daemon().api('POST', '/v1/dismiss', { body: { app: 'once', id: 'x' } });
    expect((await items('once')).x!.dismissedAt).toBe(first);
  });

  test('an id that is not on screen is not an error', async () => {
    expect((await daemon().api('POST', '/v1/dismiss', { body: { app: 'd', id: 'never-sent' } })).json).toEqual({ ok: true });
  });

  test('400 when app or id is missing', async () => {
    expect((await daemon().api('POST', '/v1/dismiss', { body: { app: 'd' } })).json).toEqual(missingField('id'));
    expect((await daemon().api('POST', '/v1/dismiss', { body: { id: 'x' } })).json).toEqual(missingField('app'));
    expect((await daemon().api('POST', '/v1/dismiss', {})).status).toBe(400);
  });

  test('dismissAll with app and group closes one stack of one app', async () => {
    await notify('stacks', 'a1', 'alpha');
    await notify('stacks', 'a2', 'alpha');
    await notify('stacks', 'b1', 'beta');
    await notify('stacks', 'plain');
    await notify('stacks-elsewhere', 'alpha-lookalike', 'alpha');
    expect((await daemon().api('POST', '/v1/dismissAll', { body: { app: 'stacks', group: 'alpha' } })).json).toEqual({ ok: true });
    const records = await items('stacks');
    expect(records.a1!.dismissedAt && records.a2!.dismissedAt).toBeTruthy();
    expect(records.b1!.dismissedAt ?? records.plain!.dismissedAt).toBeUndefined();
    expect((await items('stacks-elsewhere'))['alpha-lookalike']!.dismissedAt).toBeUndefined();
  });

  test('a notification without a group stacks under its app id', async () => {
    await daemon().api('POST', '/v1/dismissAll', { body: { app: 'stacks', group: 'stacks' } });
    expect((await items('stacks')).plain!.dismissedAt).toBeDefined();
    expect((await items('stacks')).b1!.dismissedAt).toBeUndefined();
  });

  test('dismissAll with app closes every banner of that app only', async () => {
    await notify('all-a', 'x');
    await notify('all-b', 'y');
    await daemon().api('POST', '/v1/dismissAll', { body: { app: 'all-a' } });
    expect((await items('all-a')).x!.dismissedAt).toBeDefined();
    expect((await items('all-b')).y!.dismissedAt).toBeUndefined();
  });

  test('group without app is 400', async () => {
    const reply = await daemon().api('POST', '/v1/dismissAll', { body: { group: 'alpha' } });
    expect(reply.status).toBe(400);
    expect(reply.json.error).toMatch(/^invalid field: group/);
  });

  test('an empty body closes every banner of every app; the records stay', async () => {
    await notify('empty-a', 'x');
    await notify('empty-b', 'y');
    const reply = await daemon().api('POST', '/v1/dismissAll', { headers: { 'Content-Length': '0' } });
    expect(reply.json).toEqual({ ok: true });
    expect((await items('empty-a')).x).toMatchObject({ actionUsed: 'dismiss' });
    expect((await items('empty-b')).y).toMatchObject({ actionUsed: 'dismiss' });
  });

  test('POST /v1/compose answers ok and shows no banner', async () => {
    const before = (await daemon().api('GET', '/v1/history?limit=1000')).json.items.length;
    expect((await daemon().api('POST', '/v1/compose')).json).toEqual({ ok: true });
    expect((await daemon().api('GET', '/v1/history?limit=1000')).json.items.length).toBe(before);
  });
});
