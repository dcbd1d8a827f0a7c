import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { safeFileName } from '../../daemon/store/safe-name.js';
import { startDaemon, tempFolder, useDaemon } from '../helpers/daemon.js';
import { expectError, type Reply } from '../helpers/http.js';
import { type Running, answerQuestion, channel, eventually, startInProcess } from '../helpers/in-process.js';
import { WRITTEN_OUT_CELL_DEFAULTS, WRITTEN_OUT_DEFAULTS, writeSupportFile, exists } from '../helpers/support.js';

// docs/api/templates.md: every template route with every status it lists, spoken over HTTP to the built daemon.
// Messages are those of docs/api/templates.md (#t2, #t6 and the route sections). One daemon serves the first
// block; each test uses its own app ids, so the order of the tests matters only inside a test.

const q = (params: Record<string, string>): string => new URLSearchParams(params).toString();
const templateFile = (supportDir: string, app: string, name: string) =>
  path.join(supportDir, 'templates', safeFileName(app), `${safeFileName(name)}.json`);

/** A 2 x 2 grid with a title cell: sizes written as text, so the normalised form differs from what was sent. */
const gridTemplate = (app: string, name: string, extra: Record<string, unknown> = {}) => ({
  app,
  name,
  grid: { rows: 2, cols: 2, rowSizes: ['48', 'auto'], colSizes: ['72pt', 'fill'] },
  cells: [{ id: 'title', row: 0, col: 1, component: { type: 'text', binding: '{title}', style: 'title' } }],
  ...extra,
});

describe('template routes', () => {
  const daemon = useDaemon();
  const api = (method: string, route: string, body?: unknown): Promise<Reply> =>
    daemon().api(method, route, body === undefined ? {} : { body });
  const list = async (app: string) => (await api('GET', `/v1/templates?${q({ app })}`)).json.items;
  const names = async (app: string) => (await list(app)).map((t: { name: string }) => t.name);
  const one = async (app: string, name: string) => (await list(app)).find((t: { name: string }) => t.name === name);
  const saveOk = async (body: unknown) => {
    const reply = await api('PUT', '/v1/templates', body);
    expect([reply.status, reply.json]).toEqual([200, { ok: true }]);
  };
  const latest = async (app: string) => (await api('GET', `/v1/history?${q({ app, limit: '1' })}`)).json.items[0];

  describe('GET /v1/templates', () => {
    beforeAll(async () => {
      await saveOk(gridTemplate('list.a', 'card'));
      await saveOk({ app: 'list.b', name: 'other', title: 'Other' });
      await saveOk({ app: 'list.a', name: '_draft', title: 'Draft {n}' });
    });

    test('items are full templates with their defaults written out and sizes as numbers', async () => {
      expect(await list('list.a')).toEqual([
        {
          name: 'card',
          app: 'list.a',
          layoutVersion: 2,
          grid: { rows: 2, cols: 2, rowSizes: [48, 'auto'], colSizes: [72, 'fill'], gap: 8, padding: 14, width: 400 },
          cells: [
            {
              id: 'title',
              row: 0,
              col: 1,
              ...WRITTEN_OUT_CELL_DEFAULTS,
              component: { type: 'text', binding: '{title}', style: 'title' },
            },
          ],
          ...WRITTEN_OUT_DEFAULTS,
        },
      ]);
    });

    test('without app, every app is listed; built-in and scratch templates never are', async () => {
      const items: Array<{ app: string; name: string }> = (await api('GET', '/v1/templates')).json.items;
      expect(items.filter((t) => t.app.startsWith('list.')).map((t) => [t.app, t.name])).toEqual([
        ['list.a', 'card'],
        ['list.b', 'other'],
      ]);
      expect(items.filter((t) => t.name.startsWith('_') || t.name.startsWith('builtin.'))).toEqual([]);
    });

    test('a scratch template is saved and usable by name although it is not listed', async () => {
      expect((await api('POST', '/v1/notify', { app: 'list.a', template: '_draft', n: 7 })).status).toBe(200);
      expect((await latest('list.a')).notification).toMatchObject({ template: '_draft', title: 'Draft 7' });
    });
  });

  describe('PUT /v1/templates', () => {
    test('{ok: true}, and the file is templates/<app>/<name>.json with safe names', async () => {
      await saveOk(gridTemplate('Put App', 'Nightly Build'));
      const file = templateFile(daemon().supportDir, 'Put App', 'Nightly Build');
      expect(path.relative(daemon().supportDir, file)).toMatch(/^templates\/put_app-[0-9a-f]{12}\/nightly_build-[0-9a-f]{12}\.json$/);
      expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(await one('Put App', 'Nightly Build'));
    });

    test.each([
      [{ name: 'x' }, 'missing field: app'],
      [{ app: 'put' }, 'missing field: name'],
      [{ app: 'put', name: '' }, 'missing field: name'],
      [{ app: 'a'.repeat(129), name: 'x' }, 'invalid field: app (at most 128 bytes)'],
    ])('400 for %j', async (body, message) => {
      expectError(await api('PUT', '/v1/templates', body), 400, message);
    });

    test.each([
      ['   ', 'the name is empty'],
      ['a/b', 'the name cannot contain / or :'],
      ['a:b', 'the name cannot contain / or :'],
      ['.hidden', 'the name cannot start with . or _ (those are reserved)'],
      ['builtin.mine', 'names starting with builtin. are reserved for the built-in layouts'],
      ['builtin.hero', 'names starting with builtin. are reserved for the built-in layouts'],
      ['é'.repeat(65), 'the name is longer than 128 bytes'], // 65 characters, 130 bytes
    ])('400 invalid template name for %j', async (name, problem) => {
      expectError(await api('PUT', '/v1/templates', { app: 'put.names', name, title: 't' }), 400, `invalid template name: ${problem}`);
    });

    test('128 bytes is the longest name, and a scratch name is accepted here', async () => {
      await saveOk({ app: 'put.names', name: 'é'.repeat(64), title: 't' });
      await saveOk({ app: 'put.names', name: '_scratch', title: 't' });
      expect(await names('put.names')).toEqual(['é'.repeat(64)]);
    });

    test('400 invalid template: every problem at once, a cell problem starting `cell <id>:`; nothing is saved', async () => {
      const reply = await api('PUT', '/v1/templates', {
        app: 'put.bad',
        name: 'bad',
        grid: { rows: 3, cols: 2, rowSizes: ['auto'], gap: 65 },
        cells: [
          { id: 'title', row: 0, col: 0, component: { type: 'text', binding: '{title}', fontSize: 80 } },
          { id: 'title', row: 1, col: 0, component: { type: 'text', binding: '{body}' } },
          { id: 'wide', row: 0, col: 1, rowSpan: 2, component: { type: 'text', binding: '{subtitle}' } },
          { id: 'late', row: 2, col: 1, colSpan: 2, component: { type: 'text', binding: '{x}' } },
          { id: 'over', row: 1, col: 1, component: { type: 'text', binding: '{y}' } },
          { id: 'blank', row: 2, col: 0, component: { type: 'text' } },
        ],
      });
      expectError(
        reply,
        400,
        [
          'invalid template: grid.rowSizes: rowSizes has 1 entries but rows is 3',
          'grid.gap: gap must be 0 to 64',
          'cell title: cells[0].component.fontSize: fontSize must be 6 to 72',
          "cell title: cells[1].id: cell id 'title' is used twice",
          "cell late: cells[3]: cell 'late' (row 2, col 1, 1 x 2) does not fit the 3 x 2 grid",
          "cell over: cells[4]: cell 'over' overlaps cell 'wide' at row 1, col 1",
          'cell blank: cells[5].component.binding: a binding is required, for example "{title}"',
        ].join('; '),
      );
      expect(await list('put.bad')).toEqual([]);
    });

    test('the same name replaces the template', async () => {
      await saveOk({ app: 'put.replace', name: 't', title: 'one', body: 'kept?' });
      await saveOk({ app: 'put.replace', name: 't', title: 'two' });
      const items = await list('put.replace');
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({ title: 'two' });
      expect(items[0].body).toBeUndefined();
    });

    test('500 when the file cannot be written, and then the template is not there', async () => {
      // A file where the app's folder must go: the write fails.
      await mkdir(path.join(daemon().supportDir, 'templates'), { recursive: true });
      await writeFile(path.join(daemon().supportDir, 'templates', 'blocked'), 'not a folder');
      expectError(await api('PUT', '/v1/templates', { app: 'blocked', name: 'n', title: 't' }), 500, /^could not save template n: /);
      expect(await list('blocked')).toEqual([]);
      expectError(
        await api('POST', '/v1/notify', { app: 'blocked', template: 'n' }),
        400,
        'missing field: title (template n has none or does not exist)',
      );
    });
  });

  describe('DELETE /v1/templates', () => {
    test('{ok: true}: the template and its file are gone; a second delete is 404', async () => {
      await saveOk({ app: 'del', name: 'gone', title: 't' });
      expect(await exists(templateFile(daemon().supportDir, 'del', 'gone'))).toBe(true);
      const reply = await api('DELETE', `/v1/templates?${q({ app: 'del', name: 'gone' })}`);
      expect([reply.status, reply.json]).toEqual([200, { ok: true }]);
      expect(await list('del')).toEqual([]);
      expect(await exists(templateFile(daemon().supportDir, 'del', 'gone'))).toBe(false);
      expectError(await api('DELETE', `/v1/templates?${q({ app: 'del', name: 'gone' })}`), 404, 'template not found');
    });

    test.each([
      [{ name: 'gone' }, 'missing field: app'],
      [{ app: 'del' }, 'missing field: name'],
      [{ app: 'del', name: '' }, 'missing field: name'],
    ])('400 for %j', async (params, message) => {
      expectError(await api('DELETE', `/v1/templates?${q(params)}`), 400, message);
    });

    test('404 for a name that was never saved', async () => {
      expectError(await api('DELETE', `/v1/templates?${q({ app: 'del', name: 'never' })}`), 404, 'template not found');
    });

    test('a built-in layout cannot be deleted', async () => {
      expectError(
        await api('DELETE', `/v1/templates?${q({ app: 'del', name: 'builtin.hero' })}`),
        400,
        'builtin.hero is a built-in layout and read-only',
      );
    });
  });

  describe('POST /v1/templates/duplicate', () => {
    const duplicate = (body: Record<string, unknown>) => api('POST', '/v1/templates/duplicate', body);

    beforeAll(async () => {
      await saveOk({ app: 'dup', name: 'card', title: 'Card {n}' });
      await saveOk({ app: 'dup', name: '_draft', title: 'Draft' });
    });

    test('default names `<name> copy`, then `<name> copy 2`; the copy has the source content', async () => {
      const first = await duplicate({ app: 'dup', name: 'card' });
      expect([first.status, first.json]).toEqual([
        200,
        { ok: true, app: 'dup', name: 'card copy', copiedFrom: { app: 'dup', name: 'card' } },
      ]);
      expect((await duplicate({ app: 'dup', name: 'card' })).json).toEqual({
        ok: true,
        app: 'dup',
        name: 'card copy 2',
        copiedFrom: { app: 'dup', name: 'card' },
      });
      expect(await names('dup')).toEqual(['card', 'card copy', 'card copy 2']);
      const { name: _name, ...source } = await one('dup', 'card');
      const { name: _copyName, ...copy } = await one('dup', 'card copy 2');
      expect(copy).toEqual(source);
    });

    test('a built-in layout: `builtin.hero` gives `hero copy`', async () => {
      const reply = await duplicate({ app: 'dup.builtin', name: 'builtin.hero' });
      expect(reply.json).toEqual({
        ok: true,
        app: 'dup.builtin',
        name: 'hero copy',
        copiedFrom: { app: 'dup.builtin', name: 'builtin.hero' },
      });
      expect(await one('dup.builtin', 'hero copy')).toMatchObject({ app: 'dup.builtin', layout: 'hero', layoutVersion: 2 });
    });

    test('a scratch template: the default name drops the `_` and the copy is listed', async () => {
      const reply = await duplicate({ app: 'dup', name: '_draft' });
      expect([reply.status, reply.json]).toEqual([
        200,
        { ok: true, app: 'dup', name: 'draft copy', copiedFrom: { app: 'dup', name: '_draft' } },
      ]);
      expect(await one('dup', 'draft copy')).toMatchObject({ title: 'Draft' });
    });

    test('toApp copies into another app; newName names the copy', async () => {
      const reply = await duplicate({ app: 'dup', name: 'card', toApp: 'dup.to' });
      expect(reply.json).toEqual({ ok: true, app: 'dup.to', name: 'card copy', copiedFrom: { app: 'dup', name: 'card' } });
      expect(await one('dup.to', 'card copy')).toMatchObject({ app: 'dup.to', title: 'Card {n}' });
      expect((await duplicate({ app: 'dup', name: 'card', newName: 'Nightly' })).json).toEqual({
        ok: true,
        app: 'dup',
        name: 'Nightly',
        copiedFrom: { app: 'dup', name: 'card' },
      });
    });

    test.each([
      ['_scratch', 'the name cannot start with . or _ (those are reserved)'],
      ['   ', 'the name is empty'],
      ['a/b', 'the name cannot contain / or :'],
      ['builtin.card', 'names starting with builtin. are reserved for the built-in layouts'],
      ['x'.repeat(129), 'the name is longer than 128 bytes'],
    ])('400 invalid newName %j', async (newName, problem) => {
      expectError(await duplicate({ app: 'dup', name: 'card', newName }), 400, `invalid newName: ${problem}`);
    });

    test('400 without app or name', async () => {
      expectError(await duplicate({ name: 'card' }), 400, 'missing field: app');
      expectError(await duplicate({ app: 'dup' }), 400, 'missing field: name');
    });

    test('404 when the source is missing (saved or built-in)', async () => {
      expectError(await duplicate({ app: 'dup', name: 'nope' }), 404, 'template not found');
      expectError(await duplicate({ app: 'dup', name: 'builtin.nope' }), 404, 'template not found');
      expectError(await duplicate({ app: 'dup.to', name: 'card' }), 404, 'template not found'); // it lives in dup
    });

    test('409 when the name is taken in the receiving app', async () => {
      expectError(
        await duplicate({ app: 'dup', name: 'card', newName: 'card copy' }),
        409,
        'a template named card copy already exists for dup',
      );
      expectError(
        await duplicate({ app: 'dup', name: 'card', toApp: 'dup.to', newName: 'card copy' }),
        409,
        'a template named card copy already exists for dup.to',
      );
    });
  });

  describe('POST /v1/templates/rename', () => {
    const rename = (body: Record<string, unknown>) => api('POST', '/v1/templates/rename', body);

    beforeAll(async () => {
      await saveOk({ app: 'ren', name: 'draft', title: 'Draft' });
      await saveOk({ app: 'ren', name: 'taken', title: 'Taken' });
    });

    test('reply {ok, app, name, renamedFrom, isDefault, note}; the file moves', async () => {
      const reply = await rename({ app: 'ren', name: 'draft', newName: 'final' });
      expect([reply.status, reply.json]).toEqual([
        200,
        {
          ok: true,
          app: 'ren',
          name: 'final',
          renamedFrom: 'draft',
          isDefault: false,
          note: 'Approvals of commands, scripts and shortcuts stay with the old name: the person will be asked again before this template runs code.',
        },
      ]);
      expect(await names('ren')).toEqual(['final', 'taken']);
      expect(await one('ren', 'final')).toMatchObject({ title: 'Draft' });
      expect(await exists(templateFile(daemon().supportDir, 'ren', 'draft'))).toBe(false);
      expect(await exists(templateFile(daemon().supportDir, 'ren', 'final'))).toBe(true);
    });

    test("the manifest's default follows the renamed template", async () => {
      expect((await api('PUT', '/v1/manifest', { app: 'ren.default' })).status).toBe(200);
      await saveOk({ app: 'ren.default', name: 'main', title: 'Main {n}' });
      expect((await api('PUT', '/v1/templates/default', { app: 'ren.default', name: 'main' })).status).toBe(200);
      const reply = await rename({ app: 'ren.default', name: 'main', newName: 'primary' });
      expect(reply.json).toMatchObject({ ok: true, name: 'primary', renamedFrom: 'main', isDefault: true });
      expect((await api('GET', `/v1/manifest?${q({ app: 'ren.default' })}`)).json.defaultTemplate).toBe('primary');
      await api('POST', '/v1/notify', { app: 'ren.default', n: 3 });
      expect((await latest('ren.default')).notification).toMatchObject({ template: 'primary', title: 'Main 3' });
    });

    test('the same name changes nothing: unchanged: true', async () => {
      const reply = await rename({ app: 'ren', name: 'taken', newName: 'taken' });
      expect([reply.status, reply.json]).toEqual([200, { ok: true, app: 'ren', name: 'taken', unchanged: true }]);
    });

    test('400 for a built-in layout', async () => {
      expectError(
        await rename({ app: 'ren', name: 'builtin.hero', newName: 'mine' }),
        400,
        'a built-in template cannot be renamed; duplicate it instead',
      );
    });

    test.each([
      ['_secret', 'the name cannot start with . or _ (those are reserved)'],
      ['   ', 'the name is empty'],
      ['x:y', 'the name cannot contain / or :'],
    ])('400 invalid newName %j', async (newName, problem) => {
      expectError(await rename({ app: 'ren', name: 'taken', newName }), 400, `invalid newName: ${problem}`);
      expect(await names('ren')).toEqual(['final', 'taken']);
    });

    test('400 when a field is missing', async () => {
      expectError(await rename({ app: 'ren', name: 'taken' }), 400, 'missing field: newName');
      expectError(await rename({ app: 'ren', newName: 'x' }), 400, 'missing field: name');
      expectError(await rename({ name: 'taken', newName: 'x' }), 400, 'missing field: app');
    });

    test('404 no such template; 409 new name taken', async () => {
      expectError(await rename({ app: 'ren', name: 'nope', newName: 'x' }), 404, 'template not found');
      expectError(await rename({ app: 'ren', name: 'final', newName: 'taken' }), 409, 'a template named taken already exists for ren');
      expect(await one('ren', 'taken')).toMatchObject({ title: 'Taken' });
    });
  });

  describe('PUT /v1/templates/default', () => {
    const setDefault = (body: Record<string, unknown>) => api('PUT', '/v1/templates/default', body);

    beforeAll(async () => {
      expect((await api('PUT', '/v1/manifest', { app: 'def' })).status).toBe(200);
      await saveOk({ app: 'def', name: 'build', title: 'Build {status}: {project}', body: 'on {branch}' });
      await saveOk({ app: 'def.none', name: 'build', title: 'x' });
    });

    test('400 when the app has no manifest', async () => {
      expectError(
        await setDefault({ app: 'def.none', name: 'build' }),
        400,
        /^def\.none has no manifest; put one first with PUT \/v1\/manifest/,
      );
    });

    test('404 for an unknown name (saved or built-in)', async () => {
      expectError(await setDefault({ app: 'def', name: 'nope' }), 404, 'template not found: nope');
      expectError(await setDefault({ app: 'def', name: 'builtin.nope' }), 404, 'template not found: builtin.nope');
    });

    test('a saved template: stored as the manifest default; a notification with only fields is drawn through it', async () => {
      const reply = await setDefault({ app: 'def', name: 'build' });
      expect([reply.status, reply.json]).toEqual([200, { ok: true, app: 'def', defaultTemplate: 'build' }]);
      expect((await api('GET', '/v1/manifest?app=def')).json.defaultTemplate).toBe('build');
      expect((await api('POST', '/v1/notify', { app: 'def', status: 'passed', project: 'api', branch: 'main' })).status).toBe(200);
      expect((await latest('def')).notification).toMatchObject({ template: 'build', title: 'Build passed: api', body: 'on main' });
    });

    test('a built-in layout', async () => {
      expect((await setDefault({ app: 'def', name: 'builtin.compact' })).json).toEqual({
        ok: true,
        app: 'def',
        defaultTemplate: 'builtin.compact',
      });
      await api('POST', '/v1/notify', { app: 'def', title: 'Small' });
      expect((await latest('def')).notification).toMatchObject({ template: 'builtin.compact', title: 'Small' });
    });

    test('without name it is cleared: defaultTemplate null, and a notification without a title has nothing to fill it', async () => {
      await setDefault({ app: 'def', name: 'build' });
      const reply = await setDefault({ app: 'def' });
      expect([reply.status, reply.json]).toEqual([200, { ok: true, app: 'def', defaultTemplate: null }]);
      expect((await api('GET', '/v1/manifest?app=def')).json).not.toHaveProperty('defaultTemplate');
      expectError(await api('POST', '/v1/notify', { app: 'def', status: 'x' }), 400, /^missing field: title/);
    });

    test('400 without app', async () => {
      expectError(await setDefault({ name: 'build' }), 400, 'missing field: app');
    });
  });

  describe('PUT /v1/templates/follow-up', () => {
    const followUp = (body: Record<string, unknown>) => api('PUT', '/v1/templates/follow-up', body);
    const NOTES = {
      template: "The first time it runs, the banner asks the person to approve this template's code. Nothing runs until they do.",
    };

    beforeAll(async () => {
      const manifest = (app: string) => ({
        app,
        actions: [
          { id: 'open', label: 'Open', kind: 'url', url: 'https://example.com' },
          { id: 'ping', label: 'Ping', kind: 'callback', callback: { url: 'http://127.0.0.1:9/ping' } },
          { id: 'run', label: 'Run', kind: 'command', command: 'echo run' },
        ],
      });
      for (const app of ['fu', 'fu.stranger', 'fu.asker']) expect((await api('PUT', '/v1/manifest', manifest(app))).status).toBe(200);
      expect((await api('POST', '/v1/register', { app: 'fu.asker', allowCommands: true })).status).toBe(200);
      await saveOk({ app: 'fu', name: 'card', title: 'Card' });
      await saveOk({ app: 'fu.taken', name: 'default', title: 'Mine' });
    });

    const base = { app: 'fu', template: 'card' };
    test.each([
      [{ ...base, command: 'ls' }, 'missing field: after (5 to 604800 seconds, or 90s, 10m, 2h)'],
      [{ ...base, after: 4, command: 'ls' }, 'invalid field: after (5 to 604800 seconds, or 90s, 10m, 2h)'],
      [{ ...base, after: 604801, command: 'ls' }, 'invalid field: after (5 to 604800 seconds, or 90s, 10m, 2h)'],
      [{ ...base, after: '4s', command: 'ls' }, 'invalid field: after (5 to 604800 seconds, or 90s, 10m, 2h)'],
      [{ ...base, after: 'soon', command: 'ls' }, 'invalid field: after (5 to 604800 seconds, or 90s, 10m, 2h)'],
      [{ ...base, after: '10 parsecs', command: 'ls' }, 'invalid field: after (5 to 604800 seconds, or 90s, 10m, 2h)'],
      [{ ...base, after: true, command: 'ls' }, 'invalid field: after (seconds, or a duration such as 90s, 10m, 2h)'],
      [{ ...base, after: 10 }, 'give the action: one of shortcut, script, command or actionRef'],
      [
        { ...base, after: 10, command: 'ls', script: 'x.sh' },
        'give the action once: one of shortcut, script, command or actionRef (got script, command)',
      ],
      [
        { ...base, after: 10, shortcut: 'S', actionRef: 'ping' },
        'give the action once: one of shortcut, script, command or actionRef (got shortcut, actionRef)',
      ],
      [{ ...base, after: 10, command: 'ls', input: '{title}' }, 'input goes with a shortcut or a script'],
      [{ ...base, after: 10, actionRef: 'ping', input: '{title}' }, 'input goes with a shortcut or a script'],
      [{ ...base, after: 10, script: '../escape.sh' }, "script must be a plain file name in Notifier's scripts folder, not a path"],
      [{ ...base, after: 10, script: '/usr/local/bin/tidy' }, "script must be a plain file name in Notifier's scripts folder, not a path"],
      [{ ...base, after: 10, script: '~/tidy.sh' }, "script must be a plain file name in Notifier's scripts folder, not a path"],
      [{ ...base, after: 10, script: '.' }, "script must be a plain file name in Notifier's scripts folder, not a path"],
      [{ ...base, after: 10, command: '  ' }, 'invalid field: command (must not be empty)'],
      [{ ...base, after: 10, shortcut: '' }, 'invalid field: shortcut (must not be empty)'],
      [{ ...base, after: 10, command: 'ls', label: ' ' }, 'invalid field: label (must not be empty)'],
      [{ ...base, after: 10, shortcut: '-rf' }, 'invalid field: shortcut (a shortcut name, not starting with -)'],
      [
        { ...base, after: 10, actionRef: 'open' },
        "actionRef 'open' is a 'url' action; a follow-up runs a shortcut, script, command or callback",
      ],
      [{ ...base, after: 10, actionRef: 'nope' }, "actionRef 'nope' is not an action this app offers (open, ping, run)"],
      [
        { app: 'fu.none', after: 10, actionRef: 'nope' },
        "actionRef 'nope' is not an action this app offers (the app declares no actions in its manifest)",
      ],
      [{ ...base, enabled: false, after: 10 }, 'enabled: false switches the follow-up off and takes no other follow-up field'],
      [{ ...base, enabled: false, command: 'ls' }, 'enabled: false switches the follow-up off and takes no other follow-up field'],
      [{ ...base, enabled: false, label: 'x' }, 'enabled: false switches the follow-up off and takes no other follow-up field'],
      [
        { ...base, template: 'builtin.hero', after: 10, command: 'ls' },
        'builtin.hero is a built-in layout and read-only; duplicate it first (POST /v1/templates/duplicate)',
      ],
      [
        { ...base, template: 'builtin.hero', enabled: false },
        'builtin.hero is a built-in layout and read-only; duplicate it first (POST /v1/templates/duplicate)',
      ],
      [{ template: 'card', after: 10, command: 'ls' }, 'missing field: app'],
    ])('400 for %j', async (body, message) => {
      expectError(await followUp(body), 400, message);
    });

    test('404 when the named template does not exist', async () => {
      expectError(await followUp({ app: 'fu', template: 'nope', after: 10, command: 'ls' }), 404, 'template not found: nope');
    });

    test('a refused follow-up changed nothing: no follow-up, no template, no manifest', async () => {
      expect((await one('fu', 'card')).followUp).toBeUndefined();
      expect(await names('fu')).toEqual(['card']);
      expect(await list('fu.none')).toEqual([]);
      expect((await api('GET', '/v1/manifest?app=fu.none')).status).toBe(404);
    });

    test('a command on a saved template: origin template, needs-approval; `after` "10m" is 600 s', async () => {
      const reply = await followUp({ app: 'fu', template: 'card', after: '10m', command: 'echo hi' });
      expect([reply.status, reply.json]).toEqual([
        200,
        {
          saved: true,
          app: 'fu',
          template: 'card',
          createdTemplate: false,
          followUp: { after: 600 },
          action: { id: 'follow-up', label: 'Follow-up', kind: 'command', command: 'echo hi' },
          origin: 'template',
          approval: 'needs-approval',
          needsApproval: true,
          note: NOTES.template,
        },
      ]);
      expect((await one('fu', 'card')).followUp).toEqual({
        after: 600,
        action: { id: 'follow-up', label: 'Follow-up', kind: 'command', command: 'echo hi' },
      });
    });

    test('a shortcut with input: the label defaults to its name; 90s and 2h are durations', async () => {
      const reply = await followUp({ app: 'fu', template: 'card', after: '90s', shortcut: 'Make task', input: '{title}' });
      expect(reply.json).toMatchObject({
        followUp: { after: 90 },
        action: { id: 'follow-up', label: 'Make task', kind: 'shortcut', shortcut: 'Make task', input: '{title}' },
        origin: 'template',
        approval: 'needs-approval',
      });
      expect((await followUp({ app: 'fu', template: 'card', after: '2h', script: 'tidy.sh', label: 'Tidy up' })).json).toMatchObject({
        followUp: { after: 7200 },
        action: { label: 'Tidy up', kind: 'script', script: 'tidy.sh' },
      });
    });

    test("actionRef to the manifest's callback action: origin issuer, approval none", async () => {
      const reply = await followUp({ app: 'fu', template: 'card', after: 30, actionRef: 'PING' });
      expect(reply.status).toBe(200);
      expect(reply.json).toMatchObject({
        saved: true,
        template: 'card',
        createdTemplate: false,
        followUp: { after: 30 },
        action: { id: 'ping', label: 'Ping', kind: 'callback', callback: { url: 'http://127.0.0.1:9/ping' } },
        origin: 'issuer',
        approval: 'none',
        needsApproval: false,
      });
      expect((await one('fu', 'card')).followUp).toEqual({ after: 30, actionRef: 'PING' });
    });

    test('enabled: false switches it off: action null, origin null, approval none', async () => {
      const reply = await followUp({ app: 'fu', template: 'card', enabled: false });
      expect(reply.json).toEqual({
        saved: true,
        app: 'fu',
        template: 'card',
        createdTemplate: false,
        followUp: { enabled: false },
        action: null,
        origin: null,
        approval: 'none',
        needsApproval: false,
        note: 'The follow-up is off.',
      });
      expect((await one('fu', 'card')).followUp).toEqual({ enabled: false });
    });

    test('an app without templates or manifest: `default` is created from its layout and becomes the default', async () => {
      const reply = await followUp({ app: 'fu.fresh', after: 5, command: 'echo fresh' });
      expect(reply.json).toMatchObject({
        saved: true,
        app: 'fu.fresh',
        template: 'default',
        createdTemplate: true,
        manifestCreated: true,
        defaultTemplate: 'default',
        origin: 'template',
        approval: 'needs-approval',
      });
      expect((await api('GET', '/v1/manifest?app=fu.fresh')).json).toMatchObject({ app: 'fu.fresh', defaultTemplate: 'default' });
      expect(await one('fu.fresh', 'default')).toMatchObject({ layout: 'imageLeft', layoutVersion: 2, followUp: { after: 5 } });
      // The next call (template omitted, or empty) edits that default.
      const again = await followUp({ app: 'fu.fresh', template: '', after: 6, command: 'echo again' });
      expect(again.json).toMatchObject({ template: 'default', createdTemplate: false });
      expect(again.json).not.toHaveProperty('manifestCreated');
      expect(await names('fu.fresh')).toEqual(['default']);
    });

    test('an app id no manifest can have (over 128 bytes) is refused before a template or manifest is made for it', async () => {
      const app = 'a'.repeat(129);
      expectError(await followUp({ app, after: 5, command: 'echo' }), 400, 'invalid field: app (at most 128 bytes)');
      expect(await list(app)).toEqual([]);
      expect((await api('GET', `/v1/manifest?${q({ app })}`)).status).toBe(404);
    });

    test('when `default` is taken the created template is `default-2`', async () => {
      const reply = await followUp({ app: 'fu.taken', after: 5, command: 'echo' });
      expect(reply.json).toMatchObject({
        template: 'default-2',
        createdTemplate: true,
        manifestCreated: true,
        defaultTemplate: 'default-2',
      });
      expect(await one('fu.taken', 'default')).toMatchObject({ title: 'Mine' });
      expect(await one('fu.taken', 'default')).not.toHaveProperty('followUp');
    });

    test('issuer code of an app not registered with allowCommands: app-not-allowed (manifest kept, template created)', async () => {
      const reply = await followUp({ app: 'fu.stranger', after: 5, actionRef: 'run' });
      expect(reply.json).toMatchObject({
        template: 'default',
        createdTemplate: true,
        manifestCreated: false,
        origin: 'issuer',
        action: { id: 'run', kind: 'command', command: 'echo run' },
        approval: 'app-not-allowed',
        needsApproval: false,
        note: 'The app did not register with allowCommands, so this action cannot run.',
      });
      expect((await api('GET', '/v1/manifest?app=fu.stranger')).json.actions).toHaveLength(3);
    });

    test('issuer code of an app registered with allowCommands that the person has not allowed: app-needs-approval', async () => {
      const reply = await followUp({ app: 'fu.asker', after: 5, actionRef: 'run' });
      expect(reply.json).toMatchObject({ origin: 'issuer', approval: 'app-needs-approval', needsApproval: true });
    });
  });

  describe('GET /v1/templates/export and POST /v1/templates/import', () => {
    const exportOf = (params: Record<string, string>) => api('GET', `/v1/templates/export?${q(params)}`);
    const importOf = (body: Record<string, unknown>) => api('POST', '/v1/templates/import', body);
    let bundle: string;
    let folder: string;

    beforeAll(async () => {
      folder = await tempFolder('notifier-bundles-');
      await saveOk(gridTemplate('ex', 'card', { title: 'Card {n}' }));
    });
    afterAll(() => rm(folder, { recursive: true, force: true }));

    test('export of a saved template: the bundle as base64', async () => {
      const reply = await exportOf({ app: 'ex', name: 'card' });
      expect(reply.status).toBe(200);
      expect(reply.json).toEqual({
        ok: true,
        app: 'ex',
        name: 'card',
        file: 'card.notifiertemplate',
        bytes: expect.any(Number),
        assets: [],
        warnings: [],
        base64: expect.any(String),
      });
      const bytes = Buffer.from(reply.json.base64, 'base64');
      expect(bytes.length).toBe(reply.json.bytes);
      expect(bytes.subarray(0, 2).toString()).toBe('PK'); // a zip
      bundle = reply.json.base64;
    });

    test('import into another app keeps the name; again keeps both (`card 2`); replace; fail is 409', async () => {
      const first = await importOf({ base64: bundle, app: 'ex.other' });
      expect([first.status, first.json]).toEqual([
        200,
        {
          ok: true,
          app: 'ex.other',
          name: 'card',
          renamedFrom: null,
          replaced: false,
          installedAssets: [],
          reusedAssets: [],
          missingAssets: [],
          warnings: [],
        },
      ]);
      const { app: _a, ...source } = await one('ex', 'card');
      const { app: _b, ...imported } = await one('ex.other', 'card');
      expect(imported).toEqual(source);

      expect((await importOf({ base64: bundle, app: 'ex.other' })).json).toMatchObject({
        name: 'card 2',
        renamedFrom: 'card',
        replaced: false,
      });

      await saveOk({ app: 'ex.other', name: 'card', title: 'changed' });
      expect((await importOf({ base64: bundle, app: 'ex.other', onConflict: 'replace' })).json).toMatchObject({
        name: 'card',
        renamedFrom: null,
        replaced: true,
      });
      expect(await one('ex.other', 'card')).toMatchObject({ title: 'Card {n}' });

      expectError(
        await importOf({ base64: bundle, app: 'ex.other', onConflict: 'fail' }),
        409,
        'a template named card already exists for ex.other',
      );
      expect(await names('ex.other')).toEqual(['card', 'card 2']);
    });

    test('without app the bundle goes to the app it names', async () => {
      expect((await importOf({ base64: bundle })).json).toMatchObject({ app: 'ex', name: 'card 2', renamedFrom: 'card' });
    });

    test('builtin.compact round trip: exported as `compact`, imported as a saved template like a duplicate', async () => {
      const exported = await exportOf({ app: 'ex', name: 'builtin.compact' });
      expect(exported.json).toMatchObject({
        ok: true,
        name: 'builtin.compact',
        file: 'compact.notifiertemplate',
        assets: [],
        warnings: [],
      });
      expect((await importOf({ base64: exported.json.base64, app: 'ex.compact' })).json).toMatchObject({
        app: 'ex.compact',
        name: 'compact',
        replaced: false,
      });
      expect((await importOf({ base64: exported.json.base64, app: 'ex.compact' })).json).toMatchObject({
        name: 'compact 2',
        renamedFrom: 'compact',
      });
      await api('POST', '/v1/templates/duplicate', { app: 'ex.compact', name: 'builtin.compact', newName: 'dup' });
      const { name: _n1, ...imported } = await one('ex.compact', 'compact');
      const { name: _n2, ...duplicated } = await one('ex.compact', 'dup');
      expect(imported).toEqual(duplicated);
      expect(imported.layout).toBe('compact');
    });

    test('a script the template runs stays behind: a warning', async () => {
      await saveOk({ app: 'ex', name: 'scripted', title: 't' });
      await api('PUT', '/v1/templates/follow-up', { app: 'ex', template: 'scripted', after: 60, script: 'tidy.sh' });
      expect((await exportOf({ app: 'ex', name: 'scripted' })).json.warnings).toEqual([
        'the script tidy.sh is not in the bundle; put it in the scripts folder of the other computer',
      ]);
    });

    test('export to a path writes the file; import by path reads it', async () => {
      const file = path.join(folder, 'card.notifiertemplate');
      const reply = await exportOf({ app: 'ex', name: 'card', path: file });
      expect(reply.status).toBe(200);
      expect(reply.json).toMatchObject({ ok: true, app: 'ex', name: 'card', path: file });
      expect(reply.json).not.toHaveProperty('base64');
      expect((await stat(file)).size).toBe(reply.json.bytes);
      const imported = await importOf({ path: file, app: 'ex.path' });
      expect(imported.json).toMatchObject({ ok: true, app: 'ex.path', name: 'card', replaced: false });
      expect(await one('ex.path', 'card')).toMatchObject({ title: 'Card {n}', grid: { rowSizes: [48, 'auto'] } });
    });

    test('export errors: 400 wrong ending or missing folder, 404 no such template, 400 without app or name', async () => {
      expectError(
        await exportOf({ app: 'ex', name: 'card', path: path.join(folder, 'card.zip') }),
        400,
        'path must end in .notifiertemplate',
      );
      expectError(
        await exportOf({ app: 'ex', name: 'card', path: path.join(folder, 'missing', 'card.notifiertemplate') }),
        400,
        /^the folder of path does not exist/,
      );
      expectError(await exportOf({ app: 'ex', name: 'nope' }), 404, 'template not found');
      expectError(await exportOf({ app: 'ex', name: 'builtin.nope' }), 404, 'template not found');
      expectError(await exportOf({ name: 'card' }), 400, 'missing field: app');
      expectError(await exportOf({ app: 'ex' }), 400, 'missing field: name');
    });

    test('import errors: both or neither of base64 and path, a bad onConflict, an unreadable bundle, a wrong path', async () => {
      const exactlyOne = 'give exactly one of base64 or path (a .notifiertemplate file on this computer)';
      expectError(await importOf({ base64: bundle, path: path.join(folder, 'card.notifiertemplate') }), 400, exactlyOne);
      expectError(await importOf({ app: 'ex' }), 400, exactlyOne);
      expectError(await importOf({ base64: bundle, onConflict: 'overwrite' }), 400, 'onConflict must be keepBoth, replace or fail');
      expectError(await importOf({ base64: Buffer.from('hello').toString('base64') }), 400, /^the bundle cannot be read/);
      expectError(await importOf({ path: path.join(folder, 'card.zip') }), 400, 'path must end in .notifiertemplate');
      expectError(await importOf({ path: path.join(folder, 'absent.notifiertemplate') }), 400, /^no such file: /);
      expect(await names('ex')).toEqual(['card', 'card 2', 'scripted']);
    });
  });
});

describe('saved templates after a restart', () => {
  test('a template (with its follow-up) and the default survive; its file has the safe name', async () => {
    const supportDir = await tempFolder();
    try {
      const first = await startDaemon({ supportDir });
      const app = 'Keep Me';
      expect((await first.api('PUT', '/v1/manifest', { body: { app } })).status).toBe(200);
      expect((await first.api('PUT', '/v1/templates', { body: gridTemplate(app, 'Nightly Build', { title: 'Night {n}' }) })).status).toBe(
        200,
      );
      expect(
        (await first.api('PUT', '/v1/templates/follow-up', { body: { app, template: 'Nightly Build', after: '5m', shortcut: 'Log it' } }))
          .status,
      ).toBe(200);
      expect((await first.api('PUT', '/v1/templates/default', { body: { app, name: 'Nightly Build' } })).status).toBe(200);
      const before = (await first.api('GET', `/v1/templates?${q({ app })}`)).json.items;
      expect(before).toHaveLength(1);
      await first.stop();

      expect(JSON.parse(await readFile(templateFile(supportDir, app, 'Nightly Build'), 'utf8'))).toEqual(before[0]);
      const second = await startDaemon({ supportDir });
      expect((await second.api('GET', `/v1/templates?${q({ app })}`)).json.items).toEqual(before);
      expect(before[0].followUp).toEqual({
        after: 300,
        action: { id: 'follow-up', label: 'Log it', kind: 'shortcut', shortcut: 'Log it' },
      });
      expect((await second.api('POST', '/v1/notify', { body: { app, n: 1 } })).status).toBe(200);
      const latest = (await second.api('GET', `/v1/history?${q({ app, limit: '1' })}`)).json.items[0];
      expect(latest.notification).toMatchObject({ template: 'Nightly Build', title: 'Night 1' });
      await second.stop();
    } finally {
      await rm(supportDir, { recursive: true, force: true });
    }
  });
});

describe('the follow-up route and the manifest limit', () => {
  test('creating a manifest for a new app beyond 200 is 429, and nothing is written', async () => {
    const supportDir = await tempFolder();
    try {
      for (let i = 0; i < 200; i++) await writeSupportFile(supportDir, `manifests/app-${i}.json`, { app: `app-${i}` });
      const daemon = await startDaemon({ supportDir });
      const reply = await daemon.api('PUT', '/v1/templates/follow-up', { body: { app: 'one-too-many', after: 10, command: 'ls' } });
      expect([reply.status, reply.json]).toEqual([429, { error: 'too many manifests (at most 200)', code: 'too_many_manifests' }]);
      expect((await daemon.api('GET', '/v1/templates?app=one-too-many')).json.items).toEqual([]);
      // An app that has a manifest already is not new: its default template is created.
      expect((await daemon.api('PUT', '/v1/templates/follow-up', { body: { app: 'app-7', after: 10, command: 'ls' } })).json).toMatchObject(
        {
          createdTemplate: true,
          manifestCreated: false,
        },
      );
      await daemon.stop();
    } finally {
      await rm(supportDir, { recursive: true, force: true });
    }
  });
});

// docs/api/templates.md#t17 (follow-up approval values) and #t14 (renaming): template code is approved by the person,
// under the template's name and for that code. The daemon runs in this process so the test can play the person.
describe('template code approval at run time', () => {
  let n: Running;
  let out: string;
  const followUp = (body: Record<string, unknown>) => n.api('PUT', '/v1/templates/follow-up', { body });
  const touch = () => `touch ${out}/template-ran`;

  beforeAll(async () => {
    out = await tempFolder('notifier-template-code-');
    n = await startInProcess();
    const put = async (route: string, body: unknown) => expect((await n.api('PUT', route, { body })).status).toBe(200);
    await put('/v1/templates', { app: 'coder', name: 'runner', title: 'Run {job}' });
    expect((await followUp({ app: 'coder', template: 'runner', after: 5, command: touch() })).json).toMatchObject({
      approval: 'needs-approval',
    });
    // An issuer's own command, for the `approved` value of an app the person allowed.
    expect((await n.api('POST', '/v1/register', { body: { app: 'issuer', allowCommands: true } })).status).toBe(200);
    await put('/v1/manifest', {
      app: 'issuer',
      actions: [{ id: 'mark', label: 'Mark', kind: 'command', command: `touch ${out}/issuer-ran` }],
    });
    await put('/v1/templates', { app: 'issuer', name: 'plain', title: 'Plain' });
    expect((await followUp({ app: 'issuer', template: 'plain', after: 5, actionRef: 'mark' })).json).toMatchObject({
      approval: 'app-needs-approval',
    });

    // Both follow-ups start now: one wait of `after` for the two.
    expect((await n.notify({ app: 'coder', id: 'job', template: 'runner', job: 'backup' })).status).toBe(200);
    expect((await n.notify({ app: 'issuer', id: 'job', template: 'plain' })).status).toBe(200);
    await eventually(
      async () => (await channel(n.daemon.channelPath, { op: 'questions' })).questions.length === 2 || undefined,
      'both questions',
    );
  }, 20_000);

  afterAll(() => rm(out, { recursive: true, force: true }));

  test('when the follow-up fires the person is asked about the template code; nothing ran yet', async () => {
    const { questions } = await channel(n.daemon.channelPath, { op: 'questions' });
    expect(questions.find((question: { app: string }) => question.app === 'coder')).toMatchObject({
      kind: 'templateCode',
      text: 'Let the template runner of coder run this command?',
      detail: `command: ${touch()}`,
    });
    expect(await exists(`${out}/template-ran`)).toBe(false);
    expect((await n.record('coder', 'job')).notification.template).toBe('runner');
  });

  test('allowed: the command runs, the approval is listed, and the follow-up route answers approved', async () => {
    await answerQuestion(n, 'coder', true);
    await eventually(() => exists(`${out}/template-ran`), 'the template command to run');
    await eventually(async () => (await n.record('coder', 'job')).followUp?.outcome === 'ran', 'the follow-up record');
    const approvals = (await n.api('GET', '/v1/actions/approvals')).json;
    expect(approvals.items).toEqual([
      { app: 'coder', template: 'runner', commands: [`command: ${touch()}`], approvedAt: expect.any(String) },
    ]);
    expect((await followUp({ app: 'coder', template: 'runner', after: 5, command: touch() })).json).toMatchObject({
      approval: 'approved',
      needsApproval: false,
      note: 'The person already approved this code; the follow-up runs.',
    });
    // Other code under the same name asks again.
    expect((await followUp({ app: 'coder', template: 'runner', after: 5, command: `${touch()}-other` })).json).toMatchObject({
      approval: 'needs-approval',
    });
  });

  test('after a rename the approval stays with the old name: needs-approval again', async () => {
    expect(
      (await n.api('POST', '/v1/templates/rename', { body: { app: 'coder', name: 'runner', newName: 'runner2' } })).json,
    ).toMatchObject({
      ok: true,
      name: 'runner2',
      renamedFrom: 'runner',
    });
    expect((await followUp({ app: 'coder', template: 'runner2', after: 5, command: touch() })).json).toMatchObject({
      approval: 'needs-approval',
      needsApproval: true,
    });
  });

  test('issuer code the person allowed for the app: approved', async () => {
    await answerQuestion(n, 'issuer', true);
    await eventually(() => exists(`${out}/issuer-ran`), 'the issuer command to run');
    expect((await followUp({ app: 'issuer', template: 'plain', after: 5, actionRef: 'mark' })).json).toMatchObject({
      origin: 'issuer',
      approval: 'approved',
      needsApproval: false,
    });
  });
});
