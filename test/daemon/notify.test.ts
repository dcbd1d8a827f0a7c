import { describe, expect, test } from '@jest/globals';
import { useDaemon } from '../helpers/daemon.js';
import { nullsIn } from '../helpers/support.js';
import { missingField } from '../helpers/http.js';

const UPPERCASE_UUID = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/;

describe('POST /v1/notify', () => {
  const daemon = useDaemon();
  const notify = (body: unknown) => daemon().api('POST', '/v1/notify', { body });
  const latest = async (app: string) => (await daemon().api('GET', `/v1/history?app=${encodeURIComponent(app)}&limit=1`)).json.items[0];

  test('a minimal notification is acknowledged with a generated id and kept in History', async () => {
    const reply = await notify({ app: 'minimal', title: 'Build finished' });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ ok: true, id: expect.stringMatching(UPPERCASE_UUID) });
    const record = await latest('minimal');
    expect(record).toEqual({
      id: reply.json.id,
      app: 'minimal',
      notification: { app: 'minimal', id: reply.json.id, title: 'Build finished', template: 'builtin.imageLeft' },
      deliveredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      fields: expect.objectContaining({ app: 'minimal', title: 'Build finished', appName: 'minimal' }),
    });
  });

  test("the sender's id is returned, and an empty id counts as absent", async () => {
    expect((await notify({ app: 'ids', id: 'job-42', title: 'x' })).json).toEqual({ ok: true, id: 'job-42' });
    expect((await notify({ app: 'ids', id: '', title: 'x' })).json.id).toMatch(UPPERCASE_UUID);
  });

  test('every field of the notification object is kept on the record, and no field is ever null', async () => {
    const sent = {
      app: 'full',
      id: 'all-fields',
      title: 'Deploy',
      subtitle: 'production',
      body: 'See [the log](https://example.com/log).',
      url: 'https://example.com/deploys/7',
      group: 'deploys',
      persistent: false,
      timeout: 30,
      sound: 'none',
      priority: 'high',
      snooze: true,
      reminder: { title: 'Check deploy', due: '2026-12-01T09:00:00Z' },
      buttons: [
        { label: 'Open', url: 'https://example.com' },
        { label: 'Ack', callback: { url: 'http://127.0.0.1:9/cb', payload: { n: 1 } }, style: 'default' },
        { label: 'Reply', reply: { placeholder: 'Why?', voice: false } },
        { label: 'Run', command: 'echo hi', style: 'destructive' },
        { label: 'Script', script: 'deploy.sh', input: '{title}' },
        { label: 'Shortcut', shortcut: 'Log deploy' },
        { label: 'App', openApp: { bundleId: 'org.example.App' } },
        { label: 'Got it' },
      ],
      followUp: { after: '10m', actionRef: 'ack' },
      speak: { text: 'Deploy done', voice: 'en-us', speed: 1.2, lang: 'en-us' },
      audio: '/tmp/voice.wav',
      presentation: 'both',
      layout: 'hero',
      accentColor: '#FF8800',
      showSubtitle: false,
      showBody: true,
      showTimestamp: false,
      maxBodyLines: 4,
      metadata: { build: 7 },
    };
    expect((await notify(sent)).status).toBe(200);
    const record = await latest('full');
    const { buttons, followUp, ...rest } = sent;
    expect(record.notification).toMatchObject({ ...rest, template: 'builtin.hero' });
    expect(record.notification.followUp).toEqual({ after: 600, actionRef: 'ack' });
    expect(record.notification.buttons).toEqual(buttons.map((button) => ({ ...button, id: expect.any(String) })));
    expect(record.notification.buttons.map((b: { id: string }) => b.id)).toEqual([
      'open',
      'ack',
      'reply',
      'run',
      'script',
      'shortcut',
      'app',
      'got-it',
    ]);
    expect(nullsIn(record)).toEqual([]);
    expect(record.fields).toMatchObject({ subtitle: 'production', group: 'deploys', priority: 'high', build: '7' });
  });

  describe('N1: unknown top-level keys are template fields', () => {
    test('they move into metadata, and a top-level key wins over the same key inside metadata', async () => {
      await notify({ app: 'rule1', title: 't', project: 'apollo', status: 'green', metadata: { status: 'red', owner: 'ana' } });
      const record = await latest('rule1');
      expect(record.notification.metadata).toEqual({ project: 'apollo', status: 'green', owner: 'ana' });
      expect(record.notification.project).toBeUndefined();
      expect(record.fields).toMatchObject({ project: 'apollo', status: 'green', owner: 'ana' });
    });

    test('nested metadata is flattened into dotted fields and lists are joined', async () => {
      await notify({ app: 'rule1', title: 't', metadata: { ci: { job: { id: 9, ok: true } }, tags: ['a', 'b'] } });
      expect((await latest('rule1')).fields).toMatchObject({ 'ci.job.id': '9', 'ci.job.ok': 'true', tags: 'a, b' });
    });

    test('metadata that is not an object is 400 naming it', async () => {
      const reply = await notify({ app: 'rule1', title: 't', metadata: 'x' });
      expect(reply.status).toBe(400);
      expect(reply.json.error).toMatch(/^invalid field: metadata/);
    });
  });

  describe('required fields and types', () => {
    test('app missing or empty is 400 naming app', async () => {
      expect((await notify({ title: 't' })).json).toEqual(missingField('app'));
      const empty = await notify({ app: ' ', title: 't' });
      expect(empty.status).toBe(400);
      expect(empty.json.error).toMatch(/^invalid field: app/);
    });

    test('no title and no template is 400 naming title', async () => {
      expect(await notify({ app: 'x' })).toMatchObject({ status: 400, json: { error: 'missing field: title' } });
      expect(await notify({ app: 'x', title: '' })).toMatchObject({ status: 400, json: { error: 'missing field: title' } });
    });

    test.each([
      [{ timeout: 'soon' }, 'timeout'],
      [{ timeout: -1 }, 'timeout'],
      [{ persistent: 'yes' }, 'persistent'],
      [{ priority: 'bogus' }, 'priority'],
      [{ layout: 'diagonal' }, 'layout'],
      [{ presentation: 'hologram' }, 'presentation'],
      [{ accentColor: 'orange' }, 'accentColor'],
      [{ maxBodyLines: 0 }, 'maxBodyLines'],
      [{ maxBodyLines: 31 }, 'maxBodyLines'],
      [{ maxBodyLines: 2.5 }, 'maxBodyLines'],
      [{ buttons: 'Open' }, 'buttons'],
      [{ buttons: [{ url: 'https://example.com' }] }, 'buttons[0].label'],
      [{ actionIds: [1] }, 'actionIds[0]'],
      [{ reminder: 'tomorrow' }, 'reminder'],
      [{ reminder: { due: 'next week' } }, 'reminder.due'],
      [{ snooze: 1 }, 'snooze'],
      [{ title: 5 }, 'title'],
    ])('%j is 400 naming %s', async (fields, field) => {
      const reply = await notify({ app: 'types', title: 'ok', ...fields });
      expect(reply.status).toBe(400);
      expect(reply.json.error).toMatch(new RegExp(`^(invalid|missing) field: ${field.replace(/[[\].]/g, '\\$&')}( |$)`));
    });

    test('priority is read in any case and stored in lower case', async () => {
      await notify({ app: 'types', title: 'p', priority: 'URGENT' });
      expect((await latest('types')).notification.priority).toBe('urgent');
    });
  });

  describe('links', () => {
    test.each(['https://example.com/x', 'http://localhost:3000/', 'mailto:ana@example.com'])('url %s is accepted', async (url) => {
      expect((await notify({ app: 'links', title: 't', url })).status).toBe(200);
    });

    test.each(['javascript:alert(1)', 'file:///etc/passwd', 'ftp://example.com/x', 'https://', 'not a url', 'vscode://file/x'])(
      'url %s is 400: only http, https and mailto open',
      async (url) => {
        const reply = await notify({ app: 'links', title: 't', url });
        expect(reply.status).toBe(400);
        expect(reply.json.error).toMatch(/^invalid field: url \(only http, https and mailto/);
      },
    );

    test('a button link follows the same rule', async () => {
      const reply = await notify({ app: 'links', title: 't', buttons: [{ label: 'x', url: 'file:///etc/passwd' }] });
      expect(reply.status).toBe(400);
      expect(reply.json.error).toMatch(/^invalid field: buttons\[0\]\.url/);
    });
  });

  describe('buttons', () => {
    test('a button with two kinds is 400 naming the button', async () => {
      const reply = await notify({
        app: 'buttons',
        title: 't',
        buttons: [{ label: 'ok' }, { label: 'x', url: 'https://a.example', command: 'ls' }],
      });
      expect(reply.status).toBe(400);
      expect(reply.json.error).toMatch(
        /^invalid field: buttons\[1\] \(give exactly one of url, command, script, shortcut, callback, openApp, reply; got url, command\)/,
      );
    });

    test('more than 8 buttons is 413', async () => {
      const buttons = Array.from({ length: 9 }, (_, index) => ({ label: `B${index}` }));
      expect(await notify({ app: 'buttons', title: 't', buttons })).toMatchObject({
        status: 413,
        json: { error: 'too many buttons (at most 8)' },
      });
      expect((await notify({ app: 'buttons', title: 't', buttons: buttons.slice(0, 8) })).status).toBe(200);
    });

    test('N13: a snooze is not a button an app can send', async () => {
      const reply = await notify({ app: 'buttons', title: 't', buttons: [{ label: 'Later', kind: 'snooze' }] });
      expect(reply.status).toBe(400);
      expect(reply.json.error).toMatch(/snooze/);
    });

    test('a script must be a plain file name', async () => {
      for (const script of ['../x.sh', '/bin/sh', 'a/b.sh', '~/x.sh', '..']) {
        const reply = await notify({ app: 'buttons', title: 't', buttons: [{ label: 's', script }] });
        expect(reply.status).toBe(400);
        expect(reply.json.error).toMatch(/^invalid field: buttons\[0\]\.script/);
      }
    });

    test('an `actions` list (the older spelling) is read as buttons, with manifest-style kinds', async () => {
      await notify({
        app: 'buttons',
        title: 't',
        actions: [
          { id: 'ack', label: 'Acknowledge', kind: 'callback' },
          { label: 'Close', kind: 'dismiss' },
        ],
      });
      expect((await latest('buttons')).notification.buttons).toEqual([
        { id: 'ack', label: 'Acknowledge', callback: {} },
        { id: 'close', label: 'Close' },
      ]);
    });

    test('a callback URL must be http or https', async () => {
      const reply = await notify({ app: 'buttons', title: 't', buttons: [{ label: 'cb', callback: { url: 'ftp://x.example/' } }] });
      expect(reply.status).toBe(400);
      expect(reply.json.error).toMatch(/^invalid field: buttons\[0\]\.callback\.url/);
    });
  });

  describe('follow-up', () => {
    const buttons = [
      { label: 'Page on-call', callback: {} },
      { label: 'Docs', url: 'https://example.com' },
    ];

    test.each([
      [
        { after: 90, actionRef: 'page-on-call' },
        { after: 90, actionRef: 'page-on-call' },
      ],
      [
        { after: '1.5h', actionRef: 'Page on-call' },
        { after: 5400, actionRef: 'Page on-call' },
      ],
      [
        { after: '10 min', action: { label: 'Ping', kind: 'command', command: 'true' } },
        { after: 600, action: { id: 'ping', label: 'Ping', kind: 'command', command: 'true' } },
      ],
      [{ enabled: false }, { enabled: false }],
    ])('%j is accepted and stored as %j', async (followUp, stored) => {
      expect((await notify({ app: 'follow', title: 't', buttons, followUp })).status).toBe(200);
      expect((await latest('follow')).notification.followUp).toEqual(stored);
    });

    test.each([
      [{ actionRef: 'page-on-call' }, 'followUp.after'],
      [{ after: 4, actionRef: 'page-on-call' }, 'followUp.after'],
      [{ after: 604801, actionRef: 'page-on-call' }, 'followUp.after'],
      [{ after: 'soon', actionRef: 'page-on-call' }, 'followUp.after'],
      [{ after: 60 }, 'followUp'],
      [{ after: 60, actionRef: 'page-on-call', action: { label: 'x', kind: 'command', command: 'true' } }, 'followUp'],
      [{ after: 60, actionRef: 'nope' }, 'followUp.actionRef'],
      [{ after: 60, actionRef: 'docs' }, 'followUp.actionRef'],
      [{ after: 60, action: { label: 'x', kind: 'url' } }, 'followUp.action.kind'],
      [{ after: 60, action: { label: 'x', kind: 'reply' } }, 'followUp.action.kind'],
      [{ after: 60, action: { label: 'x', kind: 'script' } }, 'followUp.action.script'],
      [{ after: 60, action: { kind: 'command', command: 'true' } }, 'followUp.action.label'],
    ])('%j is 400 naming %s', async (followUp, field) => {
      const reply = await notify({ app: 'follow', title: 't', buttons, followUp });
      expect(reply.status).toBe(400);
      expect(reply.json.error).toMatch(new RegExp(`^(invalid|missing) field: ${field.replace(/\./g, '\\.')}( |$)`));
    });
  });

  describe('speak', () => {
    test.each([
      [true, {}],
      ['Say this', { text: 'Say this' }],
      [
        { voice: 'en-gb_x.1', speed: 0.5, lang: 'en-gb' },
        { voice: 'en-gb_x.1', speed: 0.5, lang: 'en-gb' },
      ],
      [{ speed: 2 }, { speed: 2 }],
    ])('%j is accepted', async (speak, stored) => {
      expect((await notify({ app: 'speak', title: 't', speak })).status).toBe(200);
      expect((await latest('speak')).notification.speak).toEqual(stored);
    });

    test('false means no speech', async () => {
      await notify({ app: 'speak', title: 'quiet', speak: false });
      expect((await latest('speak')).notification.speak).toBeUndefined();
    });

    test.each([
      [{ voice: 'bad voice!' }, 'speak.voice'],
      [{ voice: 'x'.repeat(65) }, 'speak.voice'],
      [{ lang: 'en us' }, 'speak.lang'],
      [{ lang: 'x'.repeat(17) }, 'speak.lang'],
      [{ speed: 0.4 }, 'speak.speed'],
      [{ speed: 2.1 }, 'speak.speed'],
      [{ speed: 'fast' }, 'speak.speed'],
      [{ text: 5 }, 'speak.text'],
      [7, 'speak'],
    ])('%j is 400 naming %s', async (speak, field) => {
      const reply = await notify({ app: 'speak', title: 't', speak });
      expect(reply.status).toBe(400);
      expect(reply.json.error).toMatch(new RegExp(`^invalid field: ${field.replace(/\./g, '\\.')} `));
    });
  });

  describe('size limits give 413 naming the field', () => {
    const multiByte = (bytes: number) => 'é'.repeat(Math.ceil(bytes / 2)); // 2 bytes each in UTF-8
    test.each([
      ['app', 128, (v: string) => ({ app: v, title: 't' })],
      ['id', 256, (v: string) => ({ id: v })],
      ['title', 1024, (v: string) => ({ title: v })],
      ['subtitle', 1024, (v: string) => ({ subtitle: v })],
      ['body', 16384, (v: string) => ({ body: v })],
      ['sound', 2048, (v: string) => ({ sound: v })],
      ['group', 2048, (v: string) => ({ group: v })],
      ['template', 2048, (v: string) => ({ template: v })],
      ['reminder.title', 1024, (v: string) => ({ reminder: { title: v } })],
      ['metadata', 65536, (v: string) => ({ metadata: { blob: v } })],
      ['buttons', 65536, (v: string) => ({ buttons: [{ label: 'x', command: v }] })],
    ])('%s over %i bytes', async (field, limit, make) => {
      const over = await notify({ app: 'sizes', title: 't', ...make(multiByte(limit + 1)) });
      expect(over.status).toBe(413);
      expect(over.json).toEqual({ error: `${field} is too large (at most ${limit} bytes)`, code: 'field_too_large', field });
    });

    test('a title of exactly 1024 bytes is fine; one byte more is not', async () => {
      expect((await notify({ app: 'sizes', title: 'a'.repeat(1024) })).status).toBe(200);
      expect((await notify({ app: 'sizes', title: 'a'.repeat(1023) + 'é' })).status).toBe(413);
    });
  });

  test('a new app is registered on its first notification', async () => {
    await notify({ app: 'first-contact', title: 'hello' });
    const apps = (await daemon().api('GET', '/v1/apps')).json.apps;
    expect(apps).toContainEqual({ app: 'first-contact' });
  });

  test('reusing an id replaces the record in place: one record, the newest content, on top', async () => {
    await notify({ app: 'reuse', id: 'build', title: 'Building…' });
    await notify({ app: 'reuse', id: 'other', title: 'Other' });
    await notify({ app: 'reuse', id: 'build', title: 'Build passed' });
    const items = (await daemon().api('GET', '/v1/history?app=reuse')).json.items;
    expect(items.map((item: { id: string; notification: { title: string } }) => [item.id, item.notification.title])).toEqual([
      ['build', 'Build passed'],
      ['other', 'Other'],
    ]);
  });
});
