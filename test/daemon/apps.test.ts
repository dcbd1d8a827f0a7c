import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { useDaemon } from '../helpers/daemon.js';

describe('POST /v1/register and GET /v1/apps', () => {
  const daemon = useDaemon();
  const register = (body: unknown) => daemon().api('POST', '/v1/register', { body });
  const apps = async () => (await daemon().api('GET', '/v1/apps')).json.apps as Array<Record<string, unknown>>;

  test('registers an app with every field and lists it; unknown keys are not kept', async () => {
    const full = {
      app: 'org.example.builds',
      appName: 'Builds',
      callbackURL: 'http://127.0.0.1:8080/notifier',
      defaults: { sound: 'Glass', persistent: false, timeout: 20, corner: 'bottomLeft' },
      allowCommands: true,
      icon: 'data:image/png;base64,iVBORw0KGgo=',
      bundleId: 'org.example.Builds',
    };
    expect((await register({ ...full, favouriteColour: 'teal' })).json).toEqual({ ok: true });
    expect(await apps()).toContainEqual(full);
    const file = JSON.parse(await readFile(path.join(daemon().supportDir, 'apps.json'), 'utf8'));
    expect(file.apps).toContainEqual(full);
  });

  test('registering again merges field by field: omitted fields keep their values', async () => {
    await register({ app: 'merge', appName: 'First', callbackURL: 'https://hooks.example/a', defaults: { sound: 'Ping', timeout: 5 } });
    await register({ app: 'merge', appName: 'Second', defaults: { timeout: 9 } });
    expect((await apps()).find((entry) => entry.app === 'merge')).toEqual({
      app: 'merge',
      appName: 'Second',
      callbackURL: 'https://hooks.example/a',
      defaults: { sound: 'Ping', timeout: 9 },
    });
  });

  test('ids starting with cloud. belong to relayed agents: a local app cannot notify, speak or register with one', async () => {
    const reason = 'invalid field: app (ids starting with "cloud." belong to agents of the cloud relay)';
    const attempts = [
      await daemon().api('POST', '/v1/notify', { body: { app: 'cloud.claude', title: 'Your bank asks' } }),
      await daemon().api('POST', '/v1/speak', { body: { app: 'cloud.claude', text: 'hello' } }),
      await register({ app: 'cloud.claude', appName: 'Claude' }),
    ];
    for (const reply of attempts) expect([reply.status, reply.json.error]).toEqual([400, reason]);
    expect((await apps()).map((entry) => entry.app)).not.toContain('cloud.claude');
    expect((await daemon().api('POST', '/v1/notify', { body: { app: 'cloudy.app', title: 't' } })).status).toBe(200);
  });

  test('the registered name is the app name of its notifications', async () => {
    await register({ app: 'named-app', appName: 'Radar' });
    await daemon().api('POST', '/v1/notify', { body: { app: 'named-app', title: 't' } });
    const [record] = (await daemon().api('GET', '/v1/history?app=named-app')).json.items;
    expect(record.fields.appName).toBe('Radar');
  });

  test.each([
    [{}, 'missing field: app'],
    [{ app: '' }, 'invalid field: app'],
    [{ app: 'x', appName: 3 }, 'invalid field: appName'],
    [{ app: 'x', allowCommands: 'yes' }, 'invalid field: allowCommands'],
    [{ app: 'x', defaults: { timeout: -1 } }, 'invalid field: defaults.timeout'],
    [{ app: 'x', defaults: { timeout: 86401 } }, 'invalid field: defaults.timeout'],
    [{ app: 'x', defaults: { corner: 'middle' } }, 'invalid field: defaults.corner'],
    [{ app: 'x', defaults: 'loud' }, 'invalid field: defaults'],
    [{ app: 'x', callbackURL: 'ftp://example.com' }, 'invalid field: callbackURL'],
    [{ app: 'x', callbackURL: 'not a url' }, 'invalid field: callbackURL'],
  ])('%j is 400: %s', async (body, message) => {
    const reply = await register(body);
    expect(reply.status).toBe(400);
    expect(reply.json.error.startsWith(message)).toBe(true);
  });

  test.each([
    ['app', 128],
    ['appName', 2048],
    ['bundleId', 2048],
    ['icon', 262144],
  ])('%s over %i bytes is 413 naming it', async (field, limit) => {
    const body: Record<string, string> = { app: 'sizes', [field]: 'x'.repeat(limit + 1) };
    const reply = await register(body);
    expect(reply.status).toBe(413);
    expect(reply.json).toEqual({ error: `${field} is too large (at most ${limit} bytes)`, code: 'field_too_large', field });
  });

  test('a new app beyond 200 registered apps is 429, for register and for notify; known apps still work', async () => {
    const known = (await apps()).length;
    for (let n = known; n < 200; n++) {
      expect((await register({ app: `filler-${n}` })).status).toBe(200);
    }
    expect(await apps()).toHaveLength(200);
    expect(await register({ app: 'one-too-many' })).toMatchObject({ status: 429, json: { error: 'too many apps (at most 200)' } });
    const notify = await daemon().api('POST', '/v1/notify', { body: { app: 'also-too-many', title: 't' } });
    expect(notify).toMatchObject({ status: 429, json: { error: 'too many apps (at most 200)' } });
    expect((await daemon().api('POST', '/v1/notify', { body: { app: 'filler-199', title: 'still fine' } })).status).toBe(200);
    expect((await register({ app: 'filler-199', appName: 'Still updatable' })).status).toBe(200);
    expect((await daemon().api('GET', '/v1/history?app=also-too-many')).json.items).toEqual([]);
  });
});
