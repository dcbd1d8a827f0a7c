import { mkdir, readFile, stat, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { strToU8, zipSync } from 'fflate';
import { ROOT, tempFolderSync, useDaemon } from '../helpers/daemon.js';
import { expectError } from '../helpers/http.js';
import { IMAGES, filesUnder } from '../helpers/support.js';

// docs/api/templates.md: manifests (PUT/GET/DELETE /v1/manifest, GET /v1/manifests), an app's Rive files and images
// (GET/POST/DELETE /v1/assets), the Rive check (POST /v1/rive/check) and template bundles carrying Rive files
// (GET /v1/templates/export, POST /v1/templates/import). docs/api/templates.md#t18 to #t23 and #t28, #t29 give the
// details and messages. Every test speaks HTTP to a real daemon; files are checked in its support folder.

const RIVE_FIXTURE = path.join(ROOT, 'fixtures', 'rive', 'pulse.riv');
const PNG = path.join(IMAGES, 'sample.png');
const MB = 1024 * 1024;

/** A Rive header (RIVE, major 7, minor 0, file id 0) and some contents: different tails make different files. */
const riveBytes = (tail: string): Buffer => Buffer.concat([Buffer.from('RIVE', 'latin1'), Buffer.from([7, 0, 0]), Buffer.from(tail)]);
const b64 = (bytes: Buffer | Uint8Array): string => Buffer.from(bytes).toString('base64');

/** A one-row template of rive cells (one per component). */
const riveTemplate = (app: string, name: string, components: Array<Record<string, unknown>>) => ({
  app,
  name,
  grid: { rows: 1, cols: components.length },
  cells: components.map((component, col) => ({ id: `c${col}`, row: 0, col, component: { type: 'rive', ...component } })),
});

/** A zip in the bundle's shape (docs/api/templates.md#t18), built here so a test can make it hostile. */
function bundleZip(
  entries: Record<string, Uint8Array>,
  manifest: Record<string, unknown> = {},
  template: unknown = riveTemplate('from', 'hostile', [{ path: 'evil.riv' }]),
) {
  return zipSync({
    'bundle.json': strToU8(
      JSON.stringify({ format: 'notifiertemplate', version: 1, app: 'from', name: 'hostile', assets: [], ...manifest }),
    ),
    'template.json': strToU8(JSON.stringify(template)),
    ...entries,
  });
}

describe('manifests', () => {
  const daemon = useDaemon();

  const put = (body: unknown) => daemon().api('PUT', '/v1/manifest', { body });
  const get = (app: string) => daemon().api('GET', `/v1/manifest?app=${encodeURIComponent(app)}`);

  test('PUT answers {ok: true} and GET returns the normalised form', async () => {
    const reply = await put({
      app: 'deploys',
      fields: [{ key: 'env', type: 'text', required: true, sample: 'prod' }, { key: 'link', type: 'url' }, { key: 'n' }],
      actions: [
        { label: 'Open Logs', kind: 'url', url: 'https://ci.example/logs' },
        { id: 'rerun', label: 'Re-run', kind: 'callback' },
        { id: 'page', label: 'Page', kind: 'command', command: 'page-oncall', style: 'destructive' },
      ],
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ ok: true });

    const read = await get('deploys');
    expect(read.status).toBe(200);
    expect(read.json).toEqual({
      app: 'deploys',
      appName: 'deploys',
      version: 1,
      fields: [
        { key: 'env', type: 'text', required: true, sample: 'prod' },
        { key: 'link', type: 'url', required: false },
        { key: 'n', type: 'text', required: false },
      ],
      actions: [
        { id: 'open-logs', label: 'Open Logs', kind: 'url', url: 'https://ci.example/logs' },
        { id: 'rerun', label: 'Re-run', kind: 'callback', callback: {} },
        { id: 'page', label: 'Page', kind: 'command', command: 'page-oncall', style: 'destructive' },
      ],
      assets: [],
    });
  });

  test('every problem is reported at once, each with its path', async () => {
    const reply = await put({
      app: 'broken',
      appName: 'x'.repeat(2049),
      fields: [{ key: 'bad key!' }, { key: 'kind', type: 'colour' }, { key: 'dup' }, { key: 'dup' }],
      actions: [
        { id: 'nolabel' },
        { id: 'go', label: 'Go', kind: 'url' },
        { id: 'fine', label: 'Fine', kind: 'url', url: 'https://x.example' },
      ],
      assets: [
        { id: 'img', type: 'png', path: '/tmp/a.png' },
        { id: 'far', type: 'rive', path: 'https://cdn.example/a.riv' },
      ],
      followUp: { after: 2, actionRef: 'fine' },
    });
    expect(reply.status).toBe(400);
    const error: string = reply.json.error;
    expect(error.startsWith('invalid manifest: ')).toBe(true);
    const problems = error.slice('invalid manifest: '.length).split('; ');
    expect(problems).toEqual([
      'appName: at most 2048 bytes',
      'fields[0].key: letters, digits, _ . - only',
      expect.stringMatching(/^fields\[1\]\.type: one of text, .*url/),
      'actions[0].label: an action needs a label',
      'actions[1]: a url button needs its url field',
      'assets[0].type: asset type "png" is not supported (only rive)',
      'assets[1].path: remote assets are not supported: https://cdn.example/a.riv',
      "fields[3].key: 'dup' is used twice",
      expect.stringMatching(/^followUp\.after: .*5 to 604800 seconds/),
    ]);
    expect((await get('broken')).status).toBe(404);
  });

  test.each<[string, Record<string, unknown>, string | RegExp]>([
    [
      'an actionRef naming no manifest action',
      { after: 60, actionRef: 'nothing' },
      "followUp.actionRef: no button or manifest action is named 'nothing'",
    ],
    [
      'a url action',
      { after: 60, actionRef: 'web' },
      "followUp.actionRef: a follow-up cannot be a 'url' action; use shortcut, script, command or callback",
    ],
    ['an after above 7 days', { after: 604801, actionRef: 'hook' }, /^invalid manifest: followUp\.after: .*5 to 604800 seconds/],
    ['an after that is not a duration', { after: 'soon', actionRef: 'hook' }, /^invalid manifest: followUp\.after: not a duration/],
    [
      'both actionRef and action',
      { after: 60, actionRef: 'hook', action: { label: 'x', kind: 'command', command: 'y' } },
      'followUp: give exactly one of actionRef and action',
    ],
  ])('a follow-up with %s is refused', async (_what, followUp, message) => {
    const reply = await put({
      app: 'follow',
      actions: [
        { id: 'web', label: 'Web', kind: 'url', url: 'https://x.example' },
        { id: 'hook', label: 'Hook', kind: 'callback' },
      ],
      followUp,
    });
    expect(reply.status).toBe(400);
    if (typeof message === 'string') expect(reply.json.error).toBe(`invalid manifest: ${message}`);
    else expect(reply.json.error).toMatch(message);
  });

  test('a follow-up naming a callback action is kept', async () => {
    const body = {
      app: 'follow-ok',
      actions: [{ id: 'hook', label: 'Hook', kind: 'callback' }],
      followUp: { after: '10m', actionRef: 'hook' },
    };
    expect((await put(body)).status).toBe(200);
    expect((await get('follow-ok')).json.followUp).toEqual({ after: 600, actionRef: 'hook' });
  });

  test('more than 32 actions is 400', async () => {
    const actions = Array.from({ length: 33 }, (_, i) => ({ id: `a${i}`, label: `A ${i}`, kind: 'callback' }));
    const reply = await put({ app: 'many-actions', actions });
    expect(reply.status).toBe(400);
    expect(reply.json.error).toBe('invalid manifest: actions: at most 32 items (got 33)');
    expect((await put({ app: 'many-actions', actions: actions.slice(0, 32) })).status).toBe(200);
  });

  test('a body that is not an object, or without app, is 400', async () => {
    expectError(await put([{ app: 'x' }]), 400, /^invalid manifest: /);
    expectError(await put('"just text"'), 400, /^invalid manifest: /);
    expectError(await put({ appName: 'Nobody' }), 400, 'invalid manifest: app: required, a non-empty string');
    expectError(await daemon().api('PUT', '/v1/manifest'), 400, 'invalid manifest: app: required, a non-empty string');
  });

  test('a manifest is replaced whole, listed, and deleted', async () => {
    expect((await put({ app: 'replace-me', appName: 'First', fields: [{ key: 'a' }], defaultTemplate: 'builtin.hero' })).status).toBe(200);
    expect((await put({ app: 'replace-me', appName: 'Second', version: 3 })).status).toBe(200);
    expect((await get('replace-me')).json).toEqual({
      app: 'replace-me',
      appName: 'Second',
      version: 3,
      fields: [],
      actions: [],
      assets: [],
    });

    const list = await daemon().api('GET', '/v1/manifests');
    expect(list.status).toBe(200);
    const apps = list.json.items.map((item: { app: string }) => item.app);
    expect(apps).toEqual(expect.arrayContaining(['deploys', 'follow-ok', 'many-actions', 'replace-me']));
    expect(apps).not.toContain('broken');
    expect(list.json.items.find((item: { app: string }) => item.app === 'replace-me').appName).toBe('Second');

    expect((await daemon().api('DELETE', '/v1/manifest?app=replace-me')).json).toEqual({ ok: true });
    expect(await filesUnder(path.join(daemon().supportDir, 'manifests'))).not.toContain('replace-me.json');
    expect((await get('replace-me')).status).toBe(404);
    const again = await daemon().api('DELETE', '/v1/manifest?app=replace-me');
    expect(again.status).toBe(404);
    expect(again.json.error).toBe('replace-me has no manifest');
    const missing = await daemon().api('DELETE', '/v1/manifest');
    expect(missing.status).toBe(400);
    expect(missing.json.error).toBe('missing field: app');
    expect((await daemon().api('GET', '/v1/manifest')).status).toBe(400);
  });

  test("the manifest's appName names the app in History", async () => {
    expect((await put({ app: 'named-app', appName: 'Nightly Builds' })).status).toBe(200);
    expect((await daemon().api('POST', '/v1/notify', { body: { app: 'named-app', title: 'done' } })).status).toBe(200);
    const history = await daemon().api('GET', '/v1/history?app=named-app&limit=1');
    expect(history.json.items[0].fields.appName).toBe('Nightly Builds');
  });
});

describe('the manifest count limit', () => {
  const daemon = useDaemon();

  test('the 201st new app gets 429; existing ones can still be replaced', async () => {
    for (let i = 0; i < 200; i++) {
      const reply = await daemon().api('PUT', '/v1/manifest', { body: { app: `app-${i}` } });
      expect(reply.status).toBe(200);
    }
    const over = await daemon().api('PUT', '/v1/manifest', { body: { app: 'one-too-many' } });
    expect(over.status).toBe(429);
    expect(over.json.error).toMatch(/at most 200/);
    expect((await daemon().api('GET', '/v1/manifest?app=one-too-many')).status).toBe(404);
    const again = await daemon().api('PUT', '/v1/manifest', { body: { app: 'app-7', appName: 'Seven' } });
    expect(again.status).toBe(200);
    expect((await daemon().api('GET', '/v1/manifests')).json.items).toHaveLength(200);
    // Room again once one goes.
    expect((await daemon().api('DELETE', '/v1/manifest?app=app-0')).status).toBe(200);
    expect((await daemon().api('PUT', '/v1/manifest', { body: { app: 'one-too-many' } })).status).toBe(200);
  });

  test('with 200 registered apps, a manifest for a new app is 429; one for a registered app is not', async () => {
    for (let i = 0; i < 10; i++) expect((await daemon().api('DELETE', `/v1/manifest?app=app-${i + 1}`)).status).toBe(200);
    for (let i = 0; i < 200; i++)
      expect((await daemon().api('POST', '/v1/register', { body: { app: `registered-${i}` } })).status).toBe(200);
    const stranger = await daemon().api('PUT', '/v1/manifest', { body: { app: 'stranger' } });
    expect(stranger.status).toBe(429);
    expect(stranger.json.error).toBe('too many apps (at most 200)');
    expect((await daemon().api('PUT', '/v1/manifest', { body: { app: 'registered-3', appName: 'Three' } })).status).toBe(200);
  });
});

describe('assets and the Rive check', () => {
  const work = tempFolderSync('notifier-assets-');
  const daemon = useDaemon({ supportDir: path.join(work, 'support') });

  const add = (body: Record<string, unknown>) => daemon().api('POST', '/v1/assets', { body });
  const list = (app: string) => daemon().api('GET', `/v1/assets?app=${encodeURIComponent(app)}`);
  const check = (body: Record<string, unknown>) => daemon().api('POST', '/v1/rive/check', { body });
  const folderOf = (app: string) => path.join(daemon().supportDir, 'assets', app);

  test('a manifest copies its declared Rive files into the app folder; DELETE removes only those copies', async () => {
    const own = await add({ app: 'anim', base64: b64(riveBytes('mine')), name: 'mine.riv' });
    expect(own.status).toBe(200);
    const put = await daemon().api('PUT', '/v1/manifest', {
      body: { app: 'anim', assets: [{ id: 'pulse', type: 'rive', path: RIVE_FIXTURE }] },
    });
    expect(put.status).toBe(200);
    expect((await daemon().api('GET', '/v1/manifest?app=anim')).json.assets).toEqual([{ id: 'pulse', type: 'rive', path: RIVE_FIXTURE }]);

    const listed = await list('anim');
    expect(listed.status).toBe(200);
    const fixture = await readFile(RIVE_FIXTURE);
    expect(listed.json.assets).toEqual([
      {
        kind: 'rive',
        id: 'mine',
        file: 'mine.riv',
        path: path.join(folderOf('anim'), 'mine.riv'),
        bytes: 11,
        declared: false,
        usedBy: [],
        component: { type: 'rive', asset: 'mine' },
      },
      {
        kind: 'rive',
        id: 'pulse',
        file: 'pulse.riv',
        path: path.join(folderOf('anim'), 'pulse.riv'),
        bytes: fixture.length,
        declared: true,
        usedBy: [],
        component: { type: 'rive', asset: 'pulse' },
      },
    ]);
    expect(await readFile(path.join(folderOf('anim'), 'pulse.riv'))).toEqual(fixture);
    expect((await check({ app: 'anim', component: { type: 'rive', asset: 'pulse' } })).json).toMatchObject({ loaded: true });

    expect((await daemon().api('DELETE', '/v1/manifest?app=anim')).status).toBe(200);
    expect(await filesUnder(folderOf('anim'))).toEqual(['mine.riv']);
    expect(await stat(RIVE_FIXTURE)).toBeTruthy(); // the source stays where it was
  });

  test('a declared plain name is a file already in the app folder; DELETE leaves it', async () => {
    expect((await add({ app: 'plain', path: RIVE_FIXTURE, name: 'anim.riv' })).status).toBe(200);
    expect((await daemon().api('PUT', '/v1/manifest', { body: { app: 'plain', assets: [{ id: 'hero', path: 'anim.riv' }] } })).status).toBe(
      200,
    );
    expect((await list('plain')).json.assets).toEqual([expect.objectContaining({ file: 'anim.riv', declared: true })]);
    expect((await check({ app: 'plain', component: { type: 'rive', asset: 'hero' } })).json).toMatchObject({ loaded: true });
    expect((await daemon().api('DELETE', '/v1/manifest?app=plain')).status).toBe(200);
    expect(await filesUnder(folderOf('plain'))).toEqual(['anim.riv']);
    expect((await check({ app: 'plain', component: { type: 'rive', asset: 'hero' } })).json).toMatchObject({
      loaded: false,
      error: 'asset "hero" is not declared by the manifest and is not installed',
    });
  });

  test('a replaced manifest that no longer declares a file removes its copy', async () => {
    const declare = (assets: unknown[]) => daemon().api('PUT', '/v1/manifest', { body: { app: 'swap', assets } });
    expect(
      (
        await declare([
          { id: 'one', path: RIVE_FIXTURE },
          { id: 'two', path: RIVE_FIXTURE },
        ])
      ).status,
    ).toBe(200);
    expect(await filesUnder(folderOf('swap'))).toEqual(['one.riv', 'two.riv']);
    expect((await declare([{ id: 'two', path: RIVE_FIXTURE }])).status).toBe(200);
    expect(await filesUnder(folderOf('swap'))).toEqual(['two.riv']);
  });

  test('an asset id with capitals is found by its id', async () => {
    expect(
      (await daemon().api('PUT', '/v1/manifest', { body: { app: 'caps', assets: [{ id: 'Bell', type: 'rive', path: RIVE_FIXTURE }] } }))
        .status,
    ).toBe(200);
    const listed = await list('caps');
    expect(listed.json.assets).toEqual([expect.objectContaining({ id: 'Bell', file: 'Bell.riv', declared: true })]);
    expect((await check({ app: 'caps', component: { type: 'rive', asset: 'Bell' } })).json).toMatchObject({ loaded: true });
    const uploaded = await add({ app: 'caps', base64: b64(riveBytes('wave')), name: 'Wave.riv' });
    expect(uploaded.json).toMatchObject({ id: 'Wave', component: { type: 'rive', asset: 'Wave' } });
    expect((await check({ app: 'caps', component: uploaded.json.component })).json).toMatchObject({ loaded: true });
  });

  test('a declared file that cannot be copied does not block the manifest; the Rive check says why', async () => {
    const missing = path.join(work, 'nowhere', 'gone.riv');
    const reply = await daemon().api('PUT', '/v1/manifest', {
      body: {
        app: 'lost',
        assets: [
          { id: 'gone', type: 'rive', path: missing },
          { id: 'folder', path: work },
        ],
      },
    });
    expect(reply.status).toBe(200);
    expect((await list('lost')).json.assets).toEqual([]);
    const result = await check({ app: 'lost', component: { type: 'rive', asset: 'gone' } });
    expect(result.status).toBe(200);
    expect(result.json).toMatchObject({ loaded: false, error: `file not found: ${missing}` });
    expect((await check({ app: 'lost', component: { type: 'rive', asset: 'folder' } })).json).toMatchObject({ loaded: false });
  });

  test('a file:// URL naming another computer, or an id starting with a dot, is refused', async () => {
    const reply = await daemon().api('PUT', '/v1/manifest', {
      body: {
        app: 'odd',
        assets: [
          { id: 'far', path: 'file://elsewhere/x.riv' },
          { id: '.hidden', path: RIVE_FIXTURE },
          { id: 'near', path: `file://${RIVE_FIXTURE}` },
        ],
      },
    });
    expect(reply.status).toBe(400);
    expect(reply.json.error).toBe(
      'invalid manifest: assets[0].path: a file:// URL must name a file on this computer: file://elsewhere/x.riv; assets[1].id: cannot start with . (the file <id>.riv would be hidden)',
    );
    const good = await daemon().api('PUT', '/v1/manifest', {
      body: { app: 'odd', assets: [{ id: 'near', path: `file://${RIVE_FIXTURE}` }] },
    });
    expect(good.status).toBe(200);
    expect(await filesUnder(folderOf('odd'))).toEqual(['near.riv']);
  });

  test('GET /v1/assets gives the folder and the limits; app is required', async () => {
    const reply = await list('empty-app');
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({
      app: 'empty-app',
      folder: folderOf('empty-app'),
      limits: { bytes: 10 * MB, riveFiles: 32, images: 100 },
      assets: [],
    });
    const missing = await daemon().api('GET', '/v1/assets');
    expect(missing.status).toBe(400);
    expect(missing.json.error).toBe('missing field: app');
  });

  test('an image by path and by base64; the second time replaces', async () => {
    const png = await readFile(PNG);
    const byPath = await add({ app: 'pics', path: PNG });
    expect(byPath.status).toBe(200);
    const stored = path.join(folderOf('pics'), 'sample.png');
    expect(byPath.json).toEqual({
      ok: true,
      kind: 'image',
      app: 'pics',
      file: 'sample.png',
      path: stored,
      format: 'png',
      bytes: png.length,
      replaced: false,
      usage: { type: 'image', binding: stored },
    });
    expect(await readFile(stored)).toEqual(png);

    const jpg = await readFile(path.join(IMAGES, 'sample.jpg'));
    const byBase64 = await add({ app: 'pics', base64: b64(jpg), name: 'photo.jpg' });
    expect(byBase64.json).toMatchObject({ ok: true, kind: 'image', file: 'photo.jpg', format: 'jpg', bytes: jpg.length, replaced: false });
    expect((await add({ app: 'pics', base64: b64(jpg), name: 'photo.jpg' })).json.replaced).toBe(true);

    const listed = await list('pics');
    expect(listed.json.assets).toEqual([
      { kind: 'image', file: 'photo.jpg', path: path.join(folderOf('pics'), 'photo.jpg'), bytes: jpg.length, format: 'jpg', usedBy: [] },
      { kind: 'image', file: 'sample.png', path: stored, bytes: png.length, format: 'png', usedBy: [] },
    ]);
  });

  test('a Rive file by base64: id, component, replaced', async () => {
    const bytes = riveBytes('pulse');
    const first = await add({ app: 'rives', base64: b64(bytes), name: 'pulse.riv' });
    expect(first.status).toBe(200);
    const stored = path.join(folderOf('rives'), 'pulse.riv');
    expect(first.json).toEqual({
      ok: true,
      kind: 'rive',
      app: 'rives',
      id: 'pulse',
      file: 'pulse.riv',
      path: stored,
      bytes: bytes.length,
      replaced: false,
      component: { type: 'rive', asset: 'pulse' },
    });
    expect(await readFile(stored)).toEqual(bytes);
    expect((await add({ app: 'rives', path: RIVE_FIXTURE, name: 'pulse.riv' })).json).toMatchObject({
      replaced: true,
      bytes: (await readFile(RIVE_FIXTURE)).length,
    });
  });

  test.each([
    [
      'both sources',
      { path: PNG, base64: 'AAAA', name: 'a.png' },
      'give exactly one of base64 (with name) or path (a file on this computer)',
    ],
    ['no source', { name: 'a.png' }, 'give exactly one of base64 (with name) or path (a file on this computer)'],
    ['base64 without name', { base64: 'AAAA' }, /^missing field: name/],
    [
      'a name with folders',
      { base64: 'AAAA', name: '../a.png' },
      'invalid file name: use a plain name without folders, for example logo.png',
    ],
    ['a hidden name', { base64: 'AAAA', name: '.a.png' }, 'invalid file name: use a plain name without folders, for example logo.png'],
    ['an unknown extension', { base64: 'AAAA', name: 'notes.txt' }, /^cannot tell the kind from the name/],
    ['an invalid kind', { base64: 'AAAA', name: 'a.png', kind: 'video' }, 'invalid field: kind (rive or image)'],
    ['a kind the name contradicts', { path: PNG, name: 'pic.riv', kind: 'image' }, /pic\.riv/],
    ['a missing file', { path: '/nonexistent/where/pic.png' }, 'no such file: /nonexistent/where/pic.png'],
    ['an empty file', { base64: '', name: 'blank.png' }, 'blank.png is empty'],
    [
      'bytes that are not an image',
      { base64: b64(Buffer.from('plain text, not pixels')), name: 'fake.png' },
      /^not an image this computer can draw: fake\.png/,
    ],
    [
      'a .riv that is not a Rive file',
      { base64: b64(Buffer.from('PNG? no, text')), name: 'fake.riv' },
      '"fake.riv" is not a Rive file (it does not start with RIVE)',
    ],
    [
      'a Rive file of another format version',
      { base64: b64(Buffer.from([0x52, 0x49, 0x56, 0x45, 6, 0, 0])), name: 'old.riv' },
      '"old.riv" is Rive format 6.0; this computer reads format 7.x',
    ],
  ])('POST /v1/assets with %s is 400', async (_what, body, message) => {
    const reply = await add({ app: 'refused', ...body });
    expect(reply.status).toBe(400);
    if (typeof message === 'string') expect(reply.json.error).toBe(message);
    else expect(reply.json.error).toMatch(message);
    expect(await filesUnder(folderOf('refused')).catch(() => [])).toEqual([]);
  });

  test('a kind given for a name without a known extension gets that extension', async () => {
    const rive = await add({ app: 'kinds', base64: b64(riveBytes('k')), name: 'spinner', kind: 'rive' });
    expect(rive.status).toBe(200);
    expect(rive.json).toMatchObject({ kind: 'rive', file: 'spinner.riv', id: 'spinner' });
    const image = await add({ app: 'kinds', path: PNG, name: 'logo', kind: 'image' });
    expect(image.status).toBe(200);
    expect(image.json).toMatchObject({ kind: 'image', file: 'logo.png', format: 'png' });
    expect(await filesUnder(folderOf('kinds'))).toEqual(['logo.png', 'spinner.riv']);
  });

  test('a file over 10 MB is 413 (image and Rive)', async () => {
    const big = path.join(work, 'big.png');
    await writeFile(big, '');
    await truncate(big, 10 * MB + 1);
    const image = await add({ app: 'large', path: big });
    expect(image.status).toBe(413);
    expect(image.json.error).toMatch(/10485760 bytes/);
    const rive = await add({ app: 'large', path: big, name: 'big.riv' });
    expect(rive.status).toBe(413);
    // Exactly 10 MB is not too large (it fails later, as it is not an image).
    await truncate(big, 10 * MB);
    expect((await add({ app: 'large', path: big })).status).toBe(400);
    expect(await filesUnder(folderOf('large')).catch(() => [])).toEqual([]);
  });

  test('the 101st image of an app is 429, even when they arrive together', async () => {
    const png = b64(await readFile(PNG));
    const replies = await Promise.all(Array.from({ length: 101 }, (_, i) => add({ app: 'gallery', base64: png, name: `pic-${i}.png` })));
    const statuses = replies.map((reply) => reply.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(100);
    const refused = replies.filter((reply) => reply.status === 429);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.json.error).toBe('an app can hold at most 100 images');
    expect(await filesUnder(folderOf('gallery'))).toHaveLength(100);
    // Replacing one of them is not a new image; a Rive file is not an image.
    const stored = (await filesUnder(folderOf('gallery')))[0]!;
    expect((await add({ app: 'gallery', base64: png, name: stored })).json.replaced).toBe(true);
    expect((await add({ app: 'gallery', base64: b64(riveBytes('r')), name: 'r.riv' })).status).toBe(200);
    expect((await add({ app: 'gallery', base64: png, name: 'one-more.png' })).status).toBe(429);
  });

  test('the 33rd Rive file of an app is 429', async () => {
    for (let i = 0; i < 32; i++) expect((await add({ app: 'reel', base64: b64(riveBytes(`r${i}`)), name: `r${i}.riv` })).status).toBe(200);
    const over = await add({ app: 'reel', base64: b64(riveBytes('r32')), name: 'r32.riv' });
    expect(over.status).toBe(429);
    expect(over.json.error).toBe('an app can have at most 32 animation assets');
  });

  test('DELETE /v1/assets names the templates still using the file', async () => {
    expect((await add({ app: 'used', base64: b64(riveBytes('p')), name: 'pulse.riv' })).status).toBe(200);
    const image = await add({ app: 'used', path: PNG });
    expect(image.status).toBe(200);
    const saveTemplate = (body: unknown) => daemon().api('PUT', '/v1/templates', { body });
    expect((await saveTemplate(riveTemplate('used', 'animated', [{ asset: 'pulse' }]))).status).toBe(200);
    const pictured = {
      app: 'used',
      name: 'pictured',
      grid: { rows: 1, cols: 1 },
      cells: [{ id: 'pic', row: 0, col: 0, component: { type: 'image', binding: image.json.usage.binding } }],
    };
    expect((await saveTemplate(pictured)).status).toBe(200);

    const listed = await list('used');
    expect(listed.json.assets.map((asset: { file: string; usedBy: string[] }) => [asset.file, asset.usedBy])).toEqual([
      ['pulse.riv', ['animated']],
      ['sample.png', ['pictured']],
    ]);

    const rive = await daemon().api('DELETE', '/v1/assets?app=used&file=pulse.riv');
    expect(rive.status).toBe(200);
    expect(rive.json).toEqual({ ok: true, deleted: 'pulse.riv', stillReferencedBy: ['animated'] });
    const png = await daemon().api('DELETE', '/v1/assets?app=used&file=sample.png');
    expect(png.json).toEqual({ ok: true, deleted: 'sample.png', stillReferencedBy: ['pictured'] });
    expect(await filesUnder(folderOf('used'))).toEqual([]);

    const again = await daemon().api('DELETE', '/v1/assets?app=used&file=pulse.riv');
    expect(again.status).toBe(404);
    expect(again.json.error).toBe('no such asset: pulse.riv');
    for (const file of ['notes.txt', '..%2Fx.png', 'manifest']) {
      const refused = await daemon().api('DELETE', `/v1/assets?app=used&file=${file}`);
      expect(refused.status).toBe(400);
    }
    expect((await daemon().api('DELETE', '/v1/assets?app=used')).json.error).toBe('missing field: file');
  });

  describe('POST /v1/rive/check', () => {
    let empty: string;
    beforeAll(async () => {
      expect((await add({ app: 'checks', path: RIVE_FIXTURE })).status).toBe(200);
      empty = path.join(work, 'empty.riv');
      await writeFile(empty, '');
    });

    test.each([
      ['an installed asset id', { asset: 'pulse' }],
      ['an absolute path', { path: RIVE_FIXTURE }],
      ['a file:// URL', { path: `file://${RIVE_FIXTURE}` }],
      ['a plain name in the app folder', { path: 'pulse.riv' }],
    ])('a valid Rive file by %s is loaded', async (_what, component) => {
      const reply = await check({ app: 'checks', component: { type: 'rive', ...component } });
      expect(reply.status).toBe(200);
      expect(reply.json).toMatchObject({
        loaded: true,
        inputs: {},
        applied: {},
        artboards: [],
        takesClicks: false,
        pointerWrites: [],
        clickedActions: [],
      });
      expect(reply.json.error).toBeUndefined();
    });

    test.each<[string, Record<string, unknown> | 'EMPTY', string | RegExp]>([
      ['no asset or path', {}, 'the Rive component has no asset or path'],
      ['an asset neither declared nor installed', { asset: 'ghost' }, 'asset "ghost" is not declared by the manifest and is not installed'],
      ['a missing file', { path: '/nonexistent/place/anim.riv' }, 'file not found: /nonexistent/place/anim.riv'],
      ['a file that is not .riv', { path: PNG }, '"sample.png" is not a .riv file'],
      ['an empty file', 'EMPTY', '"empty.riv" is empty'],
      ['a remote URL', { path: 'https://cdn.example/anim.riv' }, 'remote assets are not supported: https://cdn.example/anim.riv'],
      ['a relative path climbing out', { path: '../other/pulse.riv' }, "a relative asset path cannot leave the app's assets folder"],
      [
        'a file:// URL of another computer',
        { path: 'file://elsewhere/pulse.riv' },
        /^not a file on this computer: file:\/\/elsewhere\/pulse\.riv/,
      ],
    ])('%s is loaded: false with the reason', async (_what, component, message) => {
      const given = component === 'EMPTY' ? { path: empty } : component;
      const reply = await check({ app: 'checks', component: { type: 'rive', ...given } });
      expect(reply.status).toBe(200);
      expect(reply.json.loaded).toBe(false);
      if (typeof message === 'string') expect(reply.json.error).toBe(message);
      else expect(reply.json.error).toMatch(message);
    });

    test('a file that is not a Rive file is loaded: false', async () => {
      const fake = path.join(work, 'fake.riv');
      await writeFile(fake, 'this is not an animation');
      expect((await check({ app: 'checks', component: { type: 'rive', path: fake } })).json).toMatchObject({
        loaded: false,
        error: '"fake.riv" is not a Rive file (it does not start with RIVE)',
      });
    });

    test('applied fills tokens from fields; pointer inputs are listed', async () => {
      const reply = await check({
        app: 'checks',
        component: {
          type: 'rive',
          asset: 'pulse',
          inputBindings: { count: '{count}', label: 'Hi {name}', level: '3', isHover: 'hover', isDown: 'pressed' },
        },
        fields: { count: 7, name: 'Ann' },
      });
      expect(reply.status).toBe(200);
      expect(reply.json.applied).toEqual({ count: '7', label: 'Hi Ann', level: '3' });
      expect(reply.json.pointerWrites).toEqual(['isHover', 'isDown']);
    });

    test('a press down and up on an animation with an action clicks it', async () => {
      const component = { type: 'rive', asset: 'pulse', action: { id: 'open', label: 'Open', url: 'https://example.com' } };
      const clicked = await check({ app: 'checks', component, simulate: ['hoverIn', 'pressDown', 'pressUp', 'hoverOut'] });
      expect(clicked.status).toBe(200);
      expect(clicked.json).toMatchObject({ takesClicks: true, clickedActions: ['open'] });
      expect((await check({ app: 'checks', component })).json).toMatchObject({ takesClicks: true, clickedActions: [] });
      expect((await check({ app: 'checks', component, simulate: ['pressDown'] })).json.clickedActions).toEqual([]);
      expect((await check({ app: 'checks', component, simulate: ['pressUp'] })).json.clickedActions).toEqual([]);
      expect((await check({ app: 'checks', component, simulate: ['pressDown', 'hoverOut', 'pressUp'] })).json.clickedActions).toEqual([]);
      expect(
        (await check({ app: 'checks', component, simulate: ['pressDown', 'pressUp', 'pressDown', 'pressUp'] })).json.clickedActions,
      ).toEqual(['open', 'open']);
      const byRef = await check({
        app: 'checks',
        component: { type: 'rive', asset: 'pulse', actionRef: 'rerun' },
        simulate: ['pressDown', 'pressUp'],
      });
      expect(byRef.json.clickedActions).toEqual(['rerun']);
      const labelOnly = await check({
        app: 'checks',
        component: { type: 'rive', asset: 'pulse', action: { label: 'Show More', url: 'https://example.com' } },
        simulate: ['pressDown', 'pressUp'],
      });
      expect(labelOnly.json.clickedActions).toEqual(['show-more']);
      const none = await check({ app: 'checks', component: { type: 'rive', asset: 'pulse' }, simulate: ['pressDown', 'pressUp'] });
      expect(none.json).toMatchObject({ takesClicks: false, clickedActions: [] });
    });

    test.each([
      [
        'a component that is not rive',
        { component: { type: 'text', binding: '{title}' } },
        'invalid field: component (a rive component object)',
      ],
      ['no component', {}, 'invalid field: component (a rive component object)'],
      [
        'an unknown simulate step',
        { component: { type: 'rive', asset: 'pulse' }, simulate: ['click'] },
        'invalid field: simulate (a list of hoverIn, hoverOut, pressDown, pressUp)',
      ],
      [
        'simulate that is not a list',
        { component: { type: 'rive', asset: 'pulse' }, simulate: 'pressDown' },
        'invalid field: simulate (a list of hoverIn, hoverOut, pressDown, pressUp)',
      ],
      [
        'input bindings that are not text',
        { component: { type: 'rive', asset: 'pulse', inputBindings: { count: 3 } } },
        /^invalid field: component/,
      ],
      ['an asset that is not text', { component: { type: 'rive', asset: 12 } }, /^invalid field: component/],
    ])('%s is 400', async (_what, body, message) => {
      const reply = await check({ app: 'checks', ...body });
      expect(reply.status).toBe(400);
      if (typeof message === 'string') expect(reply.json.error).toBe(message);
      else expect(reply.json.error).toMatch(message);
    });

    test('app is required', async () => {
      const reply = await check({ component: { type: 'rive', asset: 'pulse' } });
      expect(reply.status).toBe(400);
      expect(reply.json.error).toBe('missing field: app');
    });
  });
});

describe('template bundles with Rive files', () => {
  const work = tempFolderSync('notifier-bundles-');
  const daemon = useDaemon({ supportDir: path.join(work, 'support') });
  const loose = path.join(work, 'a', 'wave.riv');
  const otherLoose = path.join(work, 'b', 'wave.riv');
  beforeAll(async () => {
    await mkdir(path.join(work, 'a'));
    await mkdir(path.join(work, 'b'));
    await writeFile(loose, riveBytes('wave a'));
    await writeFile(otherLoose, riveBytes('wave b'));
    expect((await daemon().api('POST', '/v1/assets', { body: { app: 'src', path: RIVE_FIXTURE } })).status).toBe(200);
    // The loose-path cell comes first: its file must not take the name the asset's file needs.
    const template = riveTemplate('src', 'animated', [
      { path: path.join(work, 'a', 'pulse.riv') },
      { asset: 'pulse' },
      { path: loose },
      { path: otherLoose },
    ]);
    await writeFile(path.join(work, 'a', 'pulse.riv'), riveBytes('a loose pulse'));
    expect((await daemon().api('PUT', '/v1/templates', { body: template })).status).toBe(200);
  });

  const folderOf = (app: string) => path.join(daemon().supportDir, 'assets', app);
  const exportBundle = async (app: string, name: string) => {
    const reply = await daemon().api('GET', `/v1/templates/export?app=${app}&name=${encodeURIComponent(name)}`);
    expect(reply.status).toBe(200);
    return reply.json;
  };
  const importBundle = (body: Record<string, unknown>) => daemon().api('POST', '/v1/templates/import', { body });
  const templateOf = async (app: string, name: string) =>
    (await daemon().api('GET', `/v1/templates?app=${app}`)).json.items.find((item: { name: string }) => item.name === name);
  const components = async (app: string, name: string) =>
    (await templateOf(app, name)).cells.map((cell: { component: unknown }) => cell.component);

  test('export packs the asset as <id>.riv and loose paths under free names', async () => {
    const bundle = await exportBundle('src', 'animated');
    expect(bundle).toMatchObject({ ok: true, app: 'src', name: 'animated', file: 'animated.notifiertemplate', warnings: [] });
    expect([...bundle.assets].sort()).toEqual(['pulse-2.riv', 'pulse.riv', 'wave-2.riv', 'wave.riv']);

    const imported = await importBundle({ base64: bundle.base64, app: 'dst' });
    expect(imported.status).toBe(200);
    expect(imported.json).toMatchObject({
      ok: true,
      app: 'dst',
      name: 'animated',
      renamedFrom: null,
      replaced: false,
      reusedAssets: [],
      missingAssets: [],
    });
    expect([...imported.json.installedAssets].sort()).toEqual(['pulse-2.riv', 'pulse.riv', 'wave-2.riv', 'wave.riv']);

    const cells = await components('dst', 'animated');
    expect(cells).toEqual([
      expect.objectContaining({ type: 'rive', path: 'pulse-2.riv' }),
      expect.objectContaining({ type: 'rive', asset: 'pulse' }),
      expect.objectContaining({ type: 'rive', path: 'wave.riv' }),
      expect.objectContaining({ type: 'rive', path: 'wave-2.riv' }),
    ]);
    // Each component draws the file it drew in the source app.
    expect(await readFile(path.join(folderOf('dst'), 'pulse.riv'))).toEqual(await readFile(RIVE_FIXTURE));
    expect(await readFile(path.join(folderOf('dst'), 'pulse-2.riv'))).toEqual(riveBytes('a loose pulse'));
    expect(await readFile(path.join(folderOf('dst'), 'wave.riv'))).toEqual(riveBytes('wave a'));
    expect(await readFile(path.join(folderOf('dst'), 'wave-2.riv'))).toEqual(riveBytes('wave b'));
    for (const component of cells) {
      expect((await daemon().api('POST', '/v1/rive/check', { body: { app: 'dst', component } })).json).toMatchObject({ loaded: true });
    }
  });

  test('importing again reuses identical files', async () => {
    const bundle = await exportBundle('src', 'animated');
    const again = await importBundle({ base64: bundle.base64, app: 'dst' });
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ name: 'animated 2', renamedFrom: 'animated', installedAssets: [] });
    expect([...again.json.reusedAssets].sort()).toEqual(['pulse-2.riv', 'pulse.riv', 'wave-2.riv', 'wave.riv']);
    expect(await filesUnder(folderOf('dst'))).toEqual(['pulse-2.riv', 'pulse.riv', 'wave-2.riv', 'wave.riv']);
  });

  test('a different file of the same name is installed as <name>-2.riv, and stays the one drawn on re-import', async () => {
    const mine = riveBytes('the pulse clash already has');
    expect((await daemon().api('POST', '/v1/assets', { body: { app: 'clash', base64: b64(mine), name: 'pulse.riv' } })).status).toBe(200);
    expect((await daemon().api('PUT', '/v1/templates', { body: riveTemplate('src', 'solo', [{ asset: 'pulse' }]) })).status).toBe(200);
    const bundle = await exportBundle('src', 'solo');
    expect(bundle.assets).toEqual(['pulse.riv']);

    const first = await importBundle({ base64: bundle.base64, app: 'clash' });
    expect(first.json).toMatchObject({ installedAssets: ['pulse-2.riv'], reusedAssets: [] });
    expect(await components('clash', 'solo')).toEqual([expect.objectContaining({ asset: 'pulse-2' })]);
    expect(await readFile(path.join(folderOf('clash'), 'pulse.riv'))).toEqual(mine);
    expect(await readFile(path.join(folderOf('clash'), 'pulse-2.riv'))).toEqual(await readFile(RIVE_FIXTURE));

    const second = await importBundle({ base64: bundle.base64, app: 'clash', onConflict: 'replace' });
    expect(second.json).toMatchObject({ name: 'solo', replaced: true, installedAssets: [], reusedAssets: ['pulse-2.riv'] });
    expect(await components('clash', 'solo')).toEqual([expect.objectContaining({ asset: 'pulse-2' })]);
    expect(await filesUnder(folderOf('clash'))).toEqual(['pulse-2.riv', 'pulse.riv']);
  });

  test('an asset the manifest declares is packed from its copy', async () => {
    expect(
      (await daemon().api('PUT', '/v1/manifest', { body: { app: 'decl', assets: [{ id: 'beat', path: RIVE_FIXTURE }] } })).status,
    ).toBe(200);
    expect((await daemon().api('PUT', '/v1/templates', { body: riveTemplate('decl', 'beating', [{ asset: 'beat' }]) })).status).toBe(200);
    const bundle = await exportBundle('decl', 'beating');
    expect(bundle).toMatchObject({ assets: ['beat.riv'], warnings: [] });
    const imported = await importBundle({ base64: bundle.base64, app: 'decl-copy' });
    expect(imported.json.installedAssets).toEqual(['beat.riv']);
  });

  test('missing files are warnings on export and missingAssets on import', async () => {
    const template = riveTemplate('src', 'broken', [{ asset: 'ghost' }, { path: path.join(work, 'gone.riv') }]);
    expect((await daemon().api('PUT', '/v1/templates', { body: template })).status).toBe(200);
    const bundle = await exportBundle('src', 'broken');
    expect(bundle.assets).toEqual([]);
    expect(bundle.warnings).toEqual([expect.stringContaining('asset "ghost"'), expect.stringContaining(path.join(work, 'gone.riv'))]);
    expect(bundle.warnings.every((warning: string) => warning.includes('missing'))).toBe(true);

    const listed = bundleZip({}, { assets: ['ghost.riv'] }, riveTemplate('from', 'listed', [{ asset: 'ghost' }]));
    const imported = await importBundle({ base64: b64(listed), app: 'missing' });
    expect(imported.status).toBe(200);
    expect(imported.json).toMatchObject({ installedAssets: [], missingAssets: ['ghost.riv'] });
  });

  test('export to a path writes the file, and import reads it back', async () => {
    const target = path.join(work, 'out.notifiertemplate');
    const reply = await daemon().api('GET', `/v1/templates/export?app=src&name=solo&path=${encodeURIComponent(target)}`);
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ path: target, assets: ['pulse.riv'], bytes: (await stat(target)).size });
    expect(reply.json.base64).toBeUndefined();
    const imported = await importBundle({ path: target, app: 'from-file' });
    expect(imported.json).toMatchObject({ ok: true, installedAssets: ['pulse.riv'] });
    const wrong = await daemon().api(
      'GET',
      `/v1/templates/export?app=src&name=solo&path=${encodeURIComponent(path.join(work, 'out.zip'))}`,
    );
    expect(wrong.status).toBe(400);
    expect(wrong.json.error).toBe('path must end in .notifiertemplate');
  });

  describe('hostile bundles', () => {
    const everything = async () => filesUnder(work);
    let before: string[];
    beforeAll(async () => {
      before = await everything();
    });

    test.each([
      ['../evil.riv', 'unsafe name in the bundle: ../evil.riv'],
      ['assets/../../evil.riv', 'unsafe name in the bundle: assets/../../evil.riv'],
      ['assets/../../../../evil.riv', 'unsafe name in the bundle: assets/../../../../evil.riv'],
      ['/tmp/evil.riv', 'unsafe name in the bundle: /tmp/evil.riv'],
      ['assets\\..\\..\\evil.riv', 'unsafe name in the bundle: assets\\..\\..\\evil.riv'],
    ])('an entry named %s is 400 and nothing is written', async (name, message) => {
      const zip = bundleZip({ 'assets/evil.riv': riveBytes('harmless'), [name]: riveBytes('evil') });
      const reply = await importBundle({ base64: b64(zip), app: 'victim' });
      expect(reply.status).toBe(400);
      expect(reply.json.error).toBe(message);
      expect(await everything()).toEqual(before);
      expect((await daemon().api('GET', '/v1/templates?app=victim')).json.items).toEqual([]);
    });

    test('a bundle whose template is invalid installs none of its files', async () => {
      const zip = bundleZip(
        { 'assets/evil.riv': riveBytes('e') },
        {},
        { app: 'from', name: 'bad', grid: { rows: 1, cols: 1, gap: 99 }, cells: [] },
      );
      const reply = await importBundle({ base64: b64(zip), app: 'victim' });
      expect(reply.status).toBe(400);
      expect(reply.json.error).toMatch(/^the bundle cannot be read: invalid template: .*gap/);
      expect(await everything()).toEqual(before);
    });

    test('format version 2 is 400 with the version message', async () => {
      const zip = bundleZip({}, { version: 2 });
      const reply = await importBundle({ base64: b64(zip), app: 'victim' });
      expect(reply.status).toBe(400);
      expect(reply.json.error).toBe('the bundle is format version 2; this Notifier reads version 1');
    });

    test('bytes that are not a zip are 400', async () => {
      const reply = await importBundle({ base64: b64(Buffer.from('certainly not a zip file')), app: 'victim' });
      expect(reply.status).toBe(400);
      expect(reply.json.error).toBe('the bundle cannot be read: it is not a zip file');
    });

    test('a path to a file over 64 MB is 413 (before reading it)', async () => {
      const huge = path.join(work, 'huge.notifiertemplate');
      await writeFile(huge, '');
      await truncate(huge, 64 * MB + 1); // sparse: costs no disk
      before = await everything();
      const reply = await importBundle({ path: huge });
      expect(reply.status).toBe(413);
      expect(reply.json.error).toMatch(/^the bundle is too large/);
    });

    test('a path with the wrong ending, or to no file, is 400; so are both or neither sources', async () => {
      const zip = path.join(work, 'bundle.zip');
      await writeFile(zip, bundleZip({}));
      const wrong = await importBundle({ path: zip });
      expect(wrong.status).toBe(400);
      expect(wrong.json.error).toBe('path must end in .notifiertemplate');
      const missing = await importBundle({ path: path.join(work, 'nothing.notifiertemplate') });
      expect(missing.status).toBe(400);
      expect(missing.json.error).toBe(`no such file: ${path.join(work, 'nothing.notifiertemplate')}`);
      for (const body of [{}, { path: zip, base64: 'AAAA' }]) {
        const reply = await importBundle(body);
        expect(reply.status).toBe(400);
        expect(reply.json.error).toBe('give exactly one of base64 or path (a .notifiertemplate file on this computer)');
      }
    });
  });
});
