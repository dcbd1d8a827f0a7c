import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { type DaemonProcess, startDaemon, tempFolder } from '../helpers/daemon.js';
import { writeSupportFile } from '../helpers/support.js';

// docs/api/notifications.md#n4, #n5 and #n15: which template draws a notification, and where its buttons come
// from. Manifests and templates are put through their routes; one manifest is a file written before the daemon
// starts (files in the support folder load, whoever wrote them).

describe('templates and manifests on the notification path', () => {
  let daemon: DaemonProcess;

  beforeAll(async () => {
    const supportDir = await tempFolder();
    await writeSupportFile(supportDir, 'manifests/named.json', { app: 'named', appName: 'From Manifest' });
    daemon = await startDaemon({ supportDir });
    const put = async (path: string, body: unknown) => expect((await daemon.api('PUT', path, { body })).json).toEqual({ ok: true });
    await put('/v1/manifest', {
      app: 'ci',
      appName: 'Continuous Integration',
      defaultTemplate: 'build',
      actions: [
        { id: 'rerun', label: 'Re-run', kind: 'callback' },
        { id: 'logs', label: 'Logs', kind: 'url', url: 'https://ci.example/logs' },
        { id: 'page', label: 'Page', kind: 'command', command: 'page-oncall' },
      ],
    });
    await put('/v1/templates', {
      app: 'ci',
      name: 'build',
      title: 'Build {status}: {project}',
      body: 'Branch {branch}',
      url: 'https://ci.example/{project}',
      priority: 'high',
    });
    await put('/v1/templates', { app: 'ci', name: 'quiet', sound: 'none' });
  });

  afterAll(async () => {
    await daemon.stop();
    await rm(daemon.supportDir, { recursive: true, force: true });
  });

  const notify = (body: unknown) => daemon.api('POST', '/v1/notify', { body });
  const latest = async (app: string) => (await daemon.api('GET', `/v1/history?app=${app}&limit=1`)).json.items[0];

  test("N4: the manifest's default template supplies the title, filled from the sender's fields", async () => {
    const reply = await notify({ app: 'ci', status: 'passed', project: 'api', branch: 'main' });
    expect(reply.status).toBe(200);
    const record = await latest('ci');
    expect(record.notification).toMatchObject({
      title: 'Build passed: api',
      body: 'Branch main',
      url: 'https://ci.example/api',
      priority: 'high',
      template: 'build',
      metadata: { status: 'passed', project: 'api', branch: 'main' },
    });
    expect(record.fields).toMatchObject({ appName: 'Continuous Integration', status: 'passed' });
  });

  test("the sender's own values win over the template's and are never token-filled", async () => {
    await notify({ app: 'ci', title: 'Mine {status}', status: 'x', priority: 'low' });
    expect((await latest('ci')).notification).toMatchObject({ title: 'Mine {status}', priority: 'low', body: 'Branch' });
  });

  test("N4: the notification's template comes before the manifest's default", async () => {
    await notify({ app: 'ci', title: 'Hush', template: 'quiet' });
    expect((await latest('ci')).notification).toMatchObject({ template: 'quiet', sound: 'none', title: 'Hush' });
  });

  test('a built-in layout can be named directly', async () => {
    await notify({ app: 'ci', title: 'Hero', template: 'builtin.hero' });
    expect((await latest('ci')).notification.template).toBe('builtin.hero');
  });

  test('N4: an unknown template name is not an error while there is a title; the built-in layout draws it', async () => {
    expect((await notify({ app: 'ci', title: 'Fallback', template: 'nope', layout: 'compact' })).status).toBe(200);
    expect((await latest('ci')).notification).toMatchObject({ title: 'Fallback', template: 'builtin.compact' });
  });

  test('an unknown template and no title is 400 naming the title and the template', async () => {
    const reply = await notify({ app: 'ci', template: 'nope' });
    expect(reply.status).toBe(400);
    expect(reply.json.error).toBe('missing field: title (template nope has none or does not exist)');
  });

  test('a template without a title does not supply one', async () => {
    const reply = await notify({ app: 'ci', template: 'quiet' });
    expect(reply.status).toBe(400);
    expect(reply.json.error).toMatch(/^missing field: title/);
  });

  test('N15: without buttons, actionIds pick manifest actions (any case, unknown ids skipped)', async () => {
    await notify({ app: 'ci', title: 't', actionIds: ['LOGS', 'unknown', 'rerun', 'broken'] });
    expect((await latest('ci')).notification.buttons).toEqual([
      { id: 'logs', label: 'Logs', url: 'https://ci.example/logs' },
      { id: 'rerun', label: 'Re-run', callback: {} },
    ]);
  });

  test('a manifest action that does not fit the button rules is refused when the manifest is put', async () => {
    const reply = await daemon.api('PUT', '/v1/manifest', {
      body: { app: 'ci2', actions: [{ id: 'broken', label: 'Broken', kind: 'url' }] },
    });
    expect(reply.status).toBe(400);
    expect(reply.json.error).toBe('invalid manifest: actions[0]: a url button needs its url field');
  });

  test('N15: buttons: [] means no buttons even with actionIds', async () => {
    await notify({ app: 'ci', title: 't', buttons: [], actionIds: ['logs'] });
    expect((await latest('ci')).notification.buttons).toEqual([]);
  });

  test('N15: sent buttons win over actionIds', async () => {
    await notify({ app: 'ci', title: 't', buttons: [{ label: 'Mine' }], actionIds: ['logs'] });
    expect((await latest('ci')).notification.buttons).toEqual([{ id: 'mine', label: 'Mine' }]);
  });

  test('a follow-up may name a manifest action', async () => {
    const reply = await notify({ app: 'ci', title: 't', followUp: { after: 60, actionRef: 'page' } });
    expect(reply.status).toBe(200);
  });

  test('actionIds without a manifest give no buttons', async () => {
    await notify({ app: 'no-manifest', title: 't', actionIds: ['logs'] });
    expect((await latest('no-manifest')).notification.buttons).toBeUndefined();
  });

  test("a manifest's appName names the app until a registration names it", async () => {
    await notify({ app: 'named', title: 't' });
    expect((await latest('named')).fields.appName).toBe('From Manifest');
    expect((await daemon.api('POST', '/v1/register', { body: { app: 'named', appName: 'Registered' } })).status).toBe(200);
    await notify({ app: 'named', title: 't2' });
    expect((await latest('named')).fields.appName).toBe('Registered');
    const search = await daemon.api('GET', '/v1/history/search?q=registered&app=named');
    expect(search.json.count).toBe(2);
  });
});
