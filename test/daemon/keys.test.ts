// Sending keys (docs/api/keys.md), on a real daemon: made with the API token, each sends notifications as its app in
// every form a sender's client sends credentials, opens nothing else, is stored hashed, and stops at its revocation.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { useDaemon } from '../helpers/daemon.js';
import { apiError } from '../helpers/http.js';

const KEY = /^tk_[a-z0-9]{29}$/;

describe('sending keys', () => {
  const daemon = useDaemon();
  const makeKey = async (app: string, name?: string) => {
    const reply = await daemon().api('POST', '/v1/keys', { body: { app, ...(name ? { name } : {}) } });
    expect(reply.status).toBe(201);
    return reply.json;
  };
  const withKey = (key: string, method: string, route: string, body?: unknown, headers: Record<string, string> = {}) =>
    daemon().api(method, route, { token: null, body, headers: { Authorization: `Bearer ${key}`, ...headers } });

  test('a key is shown once, in the shape of an ntfy token, with lines ready for curl and Apprise; the list never shows it', async () => {
    const made = await makeKey('backup', 'Backup on the NAS');
    const port = daemon().port;
    expect(made).toEqual({
      id: expect.stringMatching(/^key-[0-9a-f]{8}$/),
      app: 'backup',
      name: 'Backup on the NAS',
      hint: made.key.slice(0, 7),
      createdAt: expect.any(String),
      key: expect.stringMatching(KEY),
      lines: {
        curl: `curl -u :${made.key} -d "Hello from backup" http://127.0.0.1:${port}/backup`,
        apprise: `ntfy://notifier:${made.key}@127.0.0.1:${port}/backup`,
        ntfyServer: `http://127.0.0.1:${port}`,
      },
    });
    const listed = (await daemon().api('GET', '/v1/keys?app=backup')).json.keys;
    expect(listed).toEqual([{ id: made.id, app: 'backup', name: 'Backup on the NAS', hint: made.hint, createdAt: made.createdAt }]);
    expect(JSON.stringify(listed)).not.toContain(made.key);
    // On disk: the hash, never the key.
    const stored = await readFile(path.join(daemon().supportDir, 'send-keys.json'), 'utf8');
    expect(stored).not.toContain(made.key);
    expect(JSON.parse(stored).keys.find((key: { id: string }) => key.id === made.id).hash).toMatch(/^[0-9a-f]{64}$/);
  });

  test('a key sends as its app on /v1/notify (the app may be left out), and its use is noted', async () => {
    const { key, id } = await makeKey('cron');
    const named = await withKey(key, 'POST', '/v1/notify', { app: 'cron', title: 'Nightly job done' });
    expect(named.status).toBe(200);
    const unnamed = await withKey(key, 'POST', '/v1/notify', { title: 'Another job done' });
    expect(unnamed.status).toBe(200);
    const titles = (await daemon().api('GET', '/v1/history?app=cron')).json.items.map((item: any) => item.notification.title);
    expect(titles).toEqual(['Another job done', 'Nightly job done']);
    const listed = (await daemon().api('GET', '/v1/keys')).json.keys.find((each: { id: string }) => each.id === id);
    expect(Date.parse(listed.lastUsedAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  test('a key of one app cannot send as another, and opens no other route', async () => {
    const { key } = await makeKey('monitor');
    const other = await withKey(key, 'POST', '/v1/notify', { app: 'bank', title: 'Pay now' });
    expect(other.status).toBe(403);
    expect(other.json).toEqual({
      error: "forbidden: app bank is not this sending key's (it sends as monitor only)",
      code: 'send_key_other_app',
      field: 'app',
    });
    for (const [method, route] of [
      ['GET', '/v1/history'],
      ['GET', '/v1/keys'],
      ['POST', '/v1/keys'],
      ['GET', '/v1/replies?app=monitor'],
      ['PUT', '/v1/settings'],
    ] as const) {
      const reply = await withKey(key, method, route, method === 'GET' ? undefined : { app: 'monitor' });
      expect({ route, status: reply.status, code: reply.json.code }).toEqual({ route, status: 403, code: 'send_key_not_here' });
    }
  });

  test('every form of credential a sender sends opens the door', async () => {
    const { key } = await makeKey('forms');
    const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    const body = (title: string) => ({ app: 'forms', title });
    const tries: Array<[string, string, Record<string, string>]> = [
      ['bearer', '/v1/notify', { Authorization: `Bearer ${key}` }],
      ['basic, key as password', '/v1/notify', { Authorization: basic('anyone', key) }],
      ['basic, empty user', '/v1/notify', { Authorization: basic('', key) }],
      ['basic, key as user', '/v1/notify', { Authorization: basic(key, '') }],
      ['gotify header', '/v1/notify', { 'X-Gotify-Key': key }],
      ['ntfy auth query', `/v1/notify?auth=${Buffer.from(`Bearer ${key}`).toString('base64url')}`, {}],
      ['token query', `/v1/notify?token=${key}`, {}],
    ];
    for (const [form, route, headers] of tries) {
      const reply = await daemon().api('POST', route, { token: null, headers, body: body(form) });
      expect({ form, status: reply.status }).toEqual({ form, status: 200 });
    }
    // The API token works in the same forms on the sender's routes.
    const token = await daemon().api('POST', '/v1/notify', {
      token: null,
      headers: { Authorization: basic('', daemon().token) },
      body: body('token'),
    });
    expect(token.status).toBe(200);
  });

  test('a wrong key, no key, or a revoked key is 401; revoking an unknown key is 404', async () => {
    const { key, id } = await makeKey('revoked');
    expect((await withKey(key, 'POST', '/v1/notify', { title: 'before' })).status).toBe(200);
    expect((await daemon().api('DELETE', `/v1/keys/${id}`)).json).toEqual({ ok: true });
    const after = await withKey(key, 'POST', '/v1/notify', { title: 'after' });
    expect(after.status).toBe(401);
    expect(after.json.code).toBe('unauthorized');
    expect((await withKey(`tk_${'a'.repeat(29)}`, 'POST', '/v1/notify', { title: 'guess' })).status).toBe(401);
    expect((await daemon().api('POST', '/v1/notify', { token: null, body: { app: 'revoked', title: 'none' } })).status).toBe(401);
    const unknown = await daemon().api('DELETE', `/v1/keys/${id}`);
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual(apiError(`no sending key ${id}`));
  });

  test('a request for a key is checked: the app, the name, nothing else', async () => {
    const refusals: Array<[unknown, number, string]> = [
      [{}, 400, 'missing_field'],
      [{ app: '' }, 400, 'invalid_field'],
      [{ app: 'cloud.x' }, 400, 'invalid_field'],
      [{ app: 'a', name: 'n'.repeat(129) }, 413, 'field_too_large'],
      [{ app: 'a', scope: 'all' }, 400, 'invalid_field'],
    ];
    for (const [body, status, code] of refusals) {
      const reply = await daemon().api('POST', '/v1/keys', { body });
      expect({ body, status: reply.status, code: reply.json.code }).toEqual({ body, status, code });
    }
  });

  test('removing an app revokes its keys', async () => {
    const { key } = await makeKey('gone');
    expect((await withKey(key, 'POST', '/v1/notify', { title: 'hello' })).status).toBe(200);
    expect((await daemon().api('DELETE', '/v1/apps/gone')).status).toBe(200);
    expect((await withKey(key, 'POST', '/v1/notify', { title: 'again' })).status).toBe(401);
    expect((await daemon().api('GET', '/v1/keys?app=gone')).json.keys).toEqual([]);
  });
});
