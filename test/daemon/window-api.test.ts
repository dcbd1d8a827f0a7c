// The person-only API `/app/api` (docs/app.md#the-api) on a real daemon: each route's work and its refusals, read
// state and counts, replies and presses on the banner's own path (the app's GET /v1/replies/wait wakes; a
// command waits for the person's approval, given here), approvals, Compose, previews, exports, and live events.

import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { tempFolder, waitFor } from '../helpers/daemon.js';
import { callbackServer } from '../helpers/in-process.js';
import { startAppDaemon, type AppDaemon, type AppSession, type EventStream } from '../helpers/app.js';
import { exists } from '../helpers/support.js';
import { SELECTION_MAX } from '../../protocol/app-api.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A 1×1 PNG. */
const DOT_PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

let daemon: AppDaemon;
let session: AppSession;
const notify = (body: Record<string, unknown>) => daemon.api('POST', '/v1/notify', { body });
const history = async (query = '') => (await session.call('GET', `/app/api/history${query}`)).json;
const v1Record = async (app: string, id: string) =>
  (await daemon.api('GET', `/v1/history?app=${encodeURIComponent(app)}&limit=1000`)).json.items.find(
    (item: { id: string }) => item.id === id,
  );

beforeAll(async () => {
  daemon = await startAppDaemon();
  session = await daemon.signIn();
});

afterAll(async () => {
  await daemon.stop();
});

describe('History in windows', () => {
  beforeAll(async () => {
    await daemon.api('POST', '/v1/register', { body: { app: 'cafe', appName: 'Café Órders', icon: DOT_PNG } });
    await notify({ app: 'cafe', id: 'c1', title: 'Crème brûlée ready', body: 'Table **4**\nsecond line' });
    await notify({ app: 'cafe', id: 'c2', title: 'Espresso', body: 'Table 7' });
    await notify({ app: 'build', id: 'b1', title: 'Build passed', body: 'All green' });
    await notify({ app: 'build', id: 'b2', title: 'Build failed', body: 'Creme test broke' });
  });

  test('newest first, with the total, the unread count and each row', async () => {
    const page = await history();
    expect(page.total).toBe(4);
    expect(page.unread).toBe(4);
    expect(page.items.map((row: { id: string }) => row.id)).toEqual(['b2', 'b1', 'c2', 'c1']);
    expect(page.items[3]).toEqual({
      app: 'cafe',
      appName: 'Café Órders',
      id: 'c1',
      title: 'Crème brûlée ready',
      firstLine: 'Table 4',
      deliveredAt: expect.any(String),
      read: false,
      state: {},
    });
  });

  test('the search folds accents and needs every word, in the text or the app name; filters by app and dates', async () => {
    expect((await history('?q=creme')).items.map((row: { id: string }) => row.id)).toEqual(['b2', 'c1']);
    expect((await history(`?q=${encodeURIComponent('CRÈME table')}`)).items.map((row: { id: string }) => row.id)).toEqual(['c1']);
    expect((await history('?q=creme%20brulee')).items.map((row: { id: string }) => row.id)).toEqual(['c1']);
    expect((await history('?q=orders%20espresso')).items.map((row: { id: string }) => row.id)).toEqual(['c2']);
    expect((await history('?app=build')).total).toBe(2);
    const today = new Date();
    const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
    expect((await history(`?from=${day}&to=${day}`)).total).toBe(4);
    expect((await history('?to=2001-01-01')).total).toBe(0);
    expect((await history(`?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).total).toBe(0);
  });

  test('windows: offset and limit pick the rows, the total stays', async () => {
    const window = await history('?offset=1&limit=2');
    expect(window.total).toBe(4);
    expect(window.items.map((row: { id: string }) => row.id)).toEqual(['b1', 'c2']);
    expect((await history('?offset=10')).items).toEqual([]);
  });

  test('a new notification that matches joins the kept matches at the top', async () => {
    expect((await history('?q=creme')).total).toBe(2);
    await notify({ app: 'cafe', id: 'c3', title: 'Crème caramel' });
    await notify({ app: 'cafe', id: 'c4', title: 'Tea' });
    const page = await history('?q=creme');
    expect(page.items.map((row: { id: string }) => row.id)).toEqual(['c3', 'b2', 'c1']);
    await daemon.api('DELETE', '/v1/history/item?app=cafe&id=c3');
    expect((await history('?q=creme')).total).toBe(2);
    await daemon.api('DELETE', '/v1/history/item?app=cafe&id=c4');
  });

  test('a row carries its priority when it is high or urgent, and only then', async () => {
    const sent = ['low', 'normal', 'high', 'urgent', undefined];
    for (const priority of sent) await notify({ app: 'build', id: `p-${priority}`, title: 'Priority', ...(priority ? { priority } : {}) });
    const rows = (await history('?q=priority')).items as Array<{ id: string; priority?: string }>;
    expect(Object.fromEntries(rows.map((row) => [row.id, row.priority ?? null]))).toEqual({
      'p-low': null,
      'p-normal': null,
      'p-high': 'high',
      'p-urgent': 'urgent',
      'p-undefined': null,
    });
    for (const priority of sent) await daemon.api('DELETE', `/v1/history/item?app=build&id=p-${priority}`);
  });

  test('bad filters are 400 naming the field', async () => {
    for (const [query, field] of [
      ['?state=starred', 'state'],
      ['?limit=0', 'limit'],
      ['?limit=501', 'limit'],
      ['?offset=-1', 'offset'],
      ['?from=yesterday', 'from'],
      ['?to=2025-13-45x', 'to'],
      // Days that do not exist are refused, not carried over into the next month.
      ['?from=2025-13-45', 'from'],
      ['?from=2025-02-29', 'from'],
      ['?to=2025-02-30T10:00:00Z', 'to'],
    ]) {
      const reply = await session.call('GET', `/app/api/history${query}`);
      expect(reply.status).toBe(400);
      expect(reply.json.field).toBe(field);
      expect(reply.json.code).toMatch(/^invalid_/);
    }
  });

  test('a broken % escape in the path is 400 naming the part it is in', async () => {
    for (const [path, field] of [
      ['/app/api/history/%ZZ/n1', 'app'],
      ['/app/api/history/mail/%E0%A4', 'id'],
      ['/app/api/apps/%/icon', 'app'],
    ]) {
      const reply = await session.call('GET', path!);
      expect([path, reply.status, reply.json.error]).toEqual([path, 400, `invalid field: ${field} (bad percent-encoding in the path)`]);
    }
  });

  test('apps: names, icons, counts, unread and templates; the icon itself, or 404', async () => {
    const { apps } = (await session.call('GET', '/app/api/apps')).json;
    expect(apps).toEqual([
      { app: 'build', appName: 'build', hasIcon: false, count: 2, unread: 2, templates: [] },
      { app: 'cafe', appName: 'Café Órders', hasIcon: true, count: 2, unread: 2, templates: [] },
    ]);
    const icon = await session.call('GET', '/app/api/apps/cafe/icon');
    expect(icon.status).toBe(200);
    expect(icon.headers['content-type']).toBe('image/png');
    expect(icon.raw.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect((await session.call('GET', '/app/api/apps/build/icon')).json.code).toBe('no_icon');
  });
});

describe('read and unread', () => {
  beforeAll(async () => {
    await notify({ app: 'mail', id: 'm1', title: 'One' });
    await notify({ app: 'mail', id: 'm2', title: 'Two' });
    await notify({ app: 'news', id: 'n1', title: 'Three' });
  });
  const unread = async () => (await history()).unread;
  const row = async (app: string, id: string) => (await history(`?app=${app}`)).items.find((item: { id: string }) => item.id === id);

  test('opening the details reads it; Mark as read and unread change it and the count', async () => {
    const before = await unread();
    const details = await session.call('GET', '/app/api/history/mail/m1');
    expect(details.status).toBe(200);
    expect(details.json.row.read).toBe(true);
    expect(await unread()).toBe(before - 1);
    const markedUnread = (await session.call('POST', '/app/api/history/mail/m1/read', { read: false })).json;
    expect(markedUnread).toEqual({ ok: true, unread: before, seq: expect.any(Number) });
    expect((await row('mail', 'm1')).read).toBe(false);
    // Each answer says which change its count includes, numbered as the page's and the live events' changes are.
    const markedRead = (await session.call('POST', '/app/api/history/mail/m1/read', { read: true })).json;
    expect(markedRead).toEqual({ ok: true, unread: before - 1, seq: markedUnread.seq + 1 });
    expect((await history()).seq).toBe(markedRead.seq);
    expect((await history('?state=unread&app=mail')).items.map((item: { id: string }) => item.id)).toEqual(['m2']);
  });

  test('Mark all read, for one app and for all; a newer one is unread again; marking one unread below the watermark', async () => {
    expect((await session.call('POST', '/app/api/history/read-all', { app: 'mail' })).json.ok).toBe(true);
    expect((await row('mail', 'm2')).read).toBe(true);
    expect((await row('news', 'n1')).read).toBe(false);
    const { unread: left } = (await session.call('POST', '/app/api/history/read-all', {})).json;
    expect(left).toBe(0);
    await notify({ app: 'mail', id: 'm3', title: 'Four' });
    expect(await unread()).toBe(1);
    expect((await session.call('POST', '/app/api/history/mail/m1/read', { read: false })).json.unread).toBe(2);
    // The same id sent again is a new notification: unread again, whether it was read by the watermark or by itself.
    await session.call('POST', '/app/api/history/read-all', {});
    await notify({ app: 'mail', id: 'm2', title: 'Two, again' });
    expect((await row('mail', 'm2')).read).toBe(false);
    expect(await unread()).toBe(1);
    await session.call('POST', '/app/api/history/mail/m2/read', { read: true });
    expect(await unread()).toBe(0);
    await notify({ app: 'mail', id: 'm2', title: 'Two, once more' });
    expect((await row('mail', 'm2')).read).toBe(false);
    expect(await unread()).toBe(1);
  });

  test('a selection marked read, then unread, in one request each; those gone are left out; refusals name the field', async () => {
    for (const id of ['s1', 's2', 's3']) await notify({ app: 'sel', id, title: id });
    const before = await unread();
    const items = [
      { app: 'sel', id: 's1' },
      { app: 'sel', id: 's3' },
      { app: 'sel', id: 'gone' },
      { app: 'no-such-app', id: 'x' },
    ];
    const marked = await session.call('POST', '/app/api/history/mark', { items, read: true });
    expect([marked.status, marked.json]).toEqual([200, { ok: true, unread: before - 2, seq: expect.any(Number) }]);
    expect([(await row('sel', 's1')).read, (await row('sel', 's2')).read, (await row('sel', 's3')).read]).toEqual([true, false, true]);
    expect((await history()).seq).toBe(marked.json.seq);
    const again = await session.call('POST', '/app/api/history/mark', { items, read: false });
    expect(again.json).toEqual({ ok: true, unread: before, seq: marked.json.seq + 2 });
    expect((await row('sel', 's1')).read).toBe(false);

    const refused = async (body: unknown) => (await session.call('POST', '/app/api/history/mark', body)).json;
    expect(await refused({ items })).toMatchObject({ code: 'missing_field', field: 'read' });
    expect(await refused({ items, read: 'yes' })).toMatchObject({ field: 'read' });
    expect(await refused({ read: true })).toMatchObject({ code: 'missing_field', field: 'items' });
    expect(await refused({ items: [{ app: 'sel' }], read: true })).toMatchObject({ field: 'items' });
    const tooMany = Array.from({ length: SELECTION_MAX + 1 }, (_, index) => ({ app: 'sel', id: `n${index}` }));
    expect(await refused({ items: tooMany, read: true })).toMatchObject({ field: 'items' });
  });

  test('read state survives a restart; /v1 shows none of it', async () => {
    const supportDir = daemon.supportDir;
    const before = await history();
    await daemon.stop();
    daemon = await startAppDaemon({ supportDir });
    session = await daemon.signIn();
    const after = await history();
    expect(after.unread).toBe(before.unread);
    expect(after.items.map((item: { read: boolean }) => item.read)).toEqual(before.items.map((item: { read: boolean }) => item.read));
    expect(Object.keys(await v1Record('mail', 'm2'))).not.toContain('read');
  }, 30_000);

  test('refusals: 400 without read, 404 for an unknown notification', async () => {
    const missing = await session.call('POST', '/app/api/history/mail/m1/read', {});
    expect(missing.status).toBe(400);
    expect(missing.json).toMatchObject({ code: 'missing_field', field: 'read' });
    expect((await session.call('POST', '/app/api/history/mail/m1/read', { read: 'yes' })).json.field).toBe('read');
    const unknown = await session.call('POST', '/app/api/history/mail/none/read', { read: true });
    expect(unknown.status).toBe(404);
    expect(unknown.json.code).toBe('notification_not_found');
    expect((await session.call('POST', '/app/api/history/read-all', { app: 7 })).json.field).toBe('app');
  });
});

describe('a notification: details, replies, buttons', () => {
  test('waiting means waiting: a reply field, an open question or a sender that says it waits; buttons alone are not', async () => {
    const server = await callbackServer();
    await daemon.api('POST', '/v1/register', { body: { app: 'builds', callbackURL: server.url() } });
    await notify({ app: 'builds', id: 'b1029', title: 'Build 1029 passed', buttons: [{ label: 'Retry', callback: {} }] });
    await notify({
      app: 'builds',
      id: 'b1030',
      title: 'Deploy build 1030?',
      buttons: [
        { label: 'Yes', callback: {} },
        { label: 'No', callback: {} },
      ],
      metadata: { needsInput: true },
    });
    await notify({ app: 'builds', id: 'b1031', title: 'Name the release', buttons: [{ label: 'Name it', reply: {} }] });
    const state = async (id: string) => (await session.call('GET', `/app/api/history/builds/${id}`)).json.row.state;
    expect(await state('b1029')).toEqual({});
    expect(await state('b1030')).toEqual({ waiting: true });
    expect(await state('b1031')).toEqual({ waiting: true });
    const waitingIds = (await history('?app=builds&state=waiting')).items.map((row: { id: string }) => row.id);
    expect(waitingIds.sort()).toEqual(['b1030', 'b1031']);
    // Answered by a press the app took: it waits no more.
    await session.call('POST', '/app/api/history/builds/b1030/press', { actionId: 'no' });
    await waitFor(async () => ((await state('b1030')).waiting ? undefined : true), 'the answer to count');
  });

  test('details: the body, the buttons and what each does, the reply it takes, the card', async () => {
    await daemon.api('POST', '/v1/register', { body: { app: 'ask', callbackURL: 'http://127.0.0.1:9/cb' } });
    await notify({
      app: 'ask',
      id: 'q1',
      title: 'Lunch?',
      body: 'At **1**? <script>alert(1)</script>',
      buttons: [
        { label: 'Answer', reply: { placeholder: 'Your answer' } },
        { label: 'Menu', url: 'https://example.com/menu' },
        { label: 'Yes', callback: {} },
      ],
    });
    const details = (await session.call('GET', '/app/api/history/ask/q1')).json;
    expect(details.bodyMarkdown).toBe('At **1**? <script>alert(1)</script>');
    expect(details.buttons).toEqual([
      { actionId: 'answer', label: 'Answer', kind: 'reply', what: 'Asks for a reply' },
      { actionId: 'menu', label: 'Menu', kind: 'url', what: 'Opens https://example.com/menu' },
      { actionId: 'yes', label: 'Yes', kind: 'callback', what: 'Tells http://127.0.0.1:9/cb what you chose' },
    ]);
    expect(details.takesReply).toEqual({ placeholder: 'Your answer', until: expect.any(String), actionId: 'answer' });
    expect(Date.parse(details.takesReply.until) - Date.parse(details.row.deliveredAt)).toBe(24 * 60 * 60 * 1000);
    expect(details.row.state).toEqual({ waiting: true });
    expect(details.record).toMatchObject({ app: 'ask', id: 'q1' });
    expect(details.hasCard).toBe(true);
    expect(details.questions).toEqual([]);
    for (const theme of ['light', 'dark']) {
      const card = await session.call('GET', `/app/api/history/ask/q1/card.png?theme=${theme}`);
      expect(card.status).toBe(200);
      expect(card.headers['content-type']).toBe('image/png');
      expect(card.raw.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    }
    expect((await session.call('GET', '/app/api/history/ask/q1/card.png?theme=sepia')).json.field).toBe('theme');
    expect((await session.call('GET', '/app/api/history/ask/nothing')).status).toBe(404);
  });

  test('details: a code button says whether it asks first, or cannot run and why (an app that never asked, or denied)', async () => {
    const buttonOf = async (app: string): Promise<Record<string, unknown>> => {
      await notify({
        app,
        id: 'code',
        title: 'Run it?',
        buttons: [
          { label: 'Run', command: 'make run' },
          { label: 'Docs', url: 'https://example.com' },
        ],
      });
      const [run, docs] = (await session.call('GET', `/app/api/history/${app}/code`)).json.buttons;
      expect(docs).not.toHaveProperty('asksFirst'); // nothing runs here
      expect(docs).not.toHaveProperty('refused');
      return run;
    };
    await daemon.api('POST', '/v1/register', { body: { app: 'runner', appName: 'Runner', allowCommands: true } });
    expect(await buttonOf('runner')).toMatchObject({ kind: 'command', asksFirst: true });
    await daemon.api('POST', '/v1/register', { body: { app: 'quiet', appName: 'Quiet' } });
    expect((await buttonOf('quiet')).refused).toBe('Quiet did not ask to run commands, scripts and shortcuts on this computer.');
    await daemon.api('POST', '/v1/register', { body: { app: 'nope', appName: 'Nope', allowCommands: true } });
    const question = (await session.call('GET', '/app/api/approvals')).json.questions.find((open: { app: string }) => open.app === 'nope');
    expect((await session.call('POST', `/app/api/approvals/questions/${question.id}`, { allow: false })).status).toBe(200);
    expect((await buttonOf('nope')).refused).toBe('You denied Nope running commands, scripts and shortcuts on this computer.');
    const runnerQuestion = (await session.call('GET', '/app/api/approvals')).json.questions.find(
      (open: { app: string }) => open.app === 'runner',
    );
    expect((await session.call('POST', `/app/api/approvals/questions/${runnerQuestion.id}`, { allow: true })).status).toBe(200);
    const allowed = await buttonOf('runner');
    expect(allowed).not.toHaveProperty('asksFirst');
    expect(allowed).not.toHaveProperty('refused');
    for (const app of ['runner', 'quiet', 'nope']) expect((await daemon.api('DELETE', `/v1/apps/${app}`)).status).toBe(200);
  });

  test("a reply in the app is the banner's reply: the app's GET /v1/replies/wait wakes with the text", async () => {
    const waiting = daemon.api('GET', '/v1/replies/wait?id=q1&app=ask&timeout=20');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const sent = await session.call('POST', '/app/api/history/ask/q1/reply', { text: '  at one then  ' });
    expect(sent.json).toEqual({ ok: true });
    const woke = await waiting;
    expect(woke.json).toMatchObject({ replied: true, reply: { notificationId: 'q1', app: 'ask', text: 'at one then' } });
    const record = await v1Record('ask', 'q1');
    expect(record).toMatchObject({ reply: 'at one then', actionUsed: 'Answer', dismissedAt: expect.any(String) });
    expect((await history('?app=ask')).items[0]).toMatchObject({ read: true, state: { replied: true, dismissed: true } });
  });

  test('reply refusals: no text, only white space, a notification without a reply button, an unknown one', async () => {
    await notify({ app: 'ask', id: 'plain', title: 'No question' });
    const cases: Array<[string, unknown, number, string]> = [
      ['q1', {}, 400, 'missing_field'],
      ['q1', { text: '   ' }, 400, 'missing_field'],
      ['q1', { text: 5 }, 400, 'invalid_field'],
      ['plain', { text: 'hi' }, 400, 'takes_no_reply'],
      ['none', { text: 'hi' }, 404, 'notification_not_found'],
    ];
    for (const [id, body, status, code] of cases) {
      const reply = await session.call('POST', `/app/api/history/ask/${id}/reply`, body);
      expect([reply.status, reply.json.code]).toEqual([status, code]);
    }
  });

  test('pressing a callback button in the app posts it as the banner does; unknown buttons are 404', async () => {
    const server = await callbackServer();
    await notify({ app: 'cb', id: 'p1', title: 'Deploy?', buttons: [{ label: 'Ship it', callback: { url: server.url('/ship') } }] });
    expect((await session.call('POST', '/app/api/history/cb/p1/press', { actionId: 'ship-it' })).json).toEqual({ ok: true });
    await waitFor(async () => server.received[0], 'the callback');
    expect(server.received[0]!.body).toEqual({ notificationId: 'p1', app: 'cb', action: 'Ship it' });
    await waitFor(async () => (await v1Record('cb', 'p1')).actionUsed, 'the banner to close');
    const unknown = await session.call('POST', '/app/api/history/cb/p1/press', { actionId: 'nope' });
    expect([unknown.status, unknown.json.code, unknown.json.field]).toEqual([404, 'no_such_button', 'actionId']);
    expect((await session.call('POST', '/app/api/history/cb/p1/press', {})).json.field).toBe('actionId');
    expect((await session.call('POST', '/app/api/history/ask/q1/press', { actionId: 'answer' })).json.field).toBe('actionId');
  });
});

describe('approvals', () => {
  let out: string;
  beforeAll(async () => {
    out = await tempFolder('notifier-app-approvals-');
    await daemon.api('POST', '/v1/register', { body: { app: 'deployer', appName: 'Deployer', allowCommands: true } });
  });

  test('a command waits for the person; allowed in the app, it runs; the grant is listed and can be revoked', async () => {
    const marker = path.join(out, 'deployed');
    await notify({ app: 'deployer', id: 'd1', title: 'Deploy', buttons: [{ label: 'Deploy', command: `touch ${marker}` }] });
    expect((await session.call('POST', '/app/api/history/deployer/d1/press', { actionId: 'deploy' })).json).toEqual({ ok: true });
    const asked = await waitFor(async () => {
      const { questions } = (await session.call('GET', '/app/api/approvals')).json;
      return questions.length > 0 ? questions : undefined;
    }, 'the question');
    expect(asked).toEqual([
      {
        id: expect.any(String),
        app: 'deployer',
        appName: 'Deployer',
        kind: 'commands',
        text: 'Let Deployer run commands, scripts and shortcuts?',
        detail: { command: `touch ${marker}`, text: `command: touch ${marker}` },
        notificationId: 'd1',
      },
    ]);
    // Its notification waits too, and shows the question.
    expect((await history('?app=deployer')).items[0].state.waiting).toBe(true);
    expect((await history('?state=waiting')).items.map((row: { id: string }) => row.id)).toContain('d1');
    expect((await session.call('GET', '/app/api/history/deployer/d1')).json.questions).toEqual(asked);
    expect(await exists(marker)).toBe(false);

    expect((await session.call('POST', `/app/api/approvals/questions/${asked[0].id}`, { allow: true })).json).toEqual({ ok: true });
    await waitFor(async () => ((await exists(marker)) ? true : undefined), 'the command to run');
    const { questions, granted } = (await session.call('GET', '/app/api/approvals')).json;
    expect(questions).toEqual([]);
    expect(granted).toEqual([{ kind: 'commands', app: 'deployer', appName: 'Deployer', grantedAt: expect.any(String) }]);
    // Answered already: no such question any more.
    const again = await session.call('POST', `/app/api/approvals/questions/${asked[0].id}`, { allow: false });
    expect([again.status, again.json.code]).toEqual([404, 'no_such_question']);

    expect((await session.call('POST', '/app/api/approvals/revoke', granted[0])).json).toEqual({ ok: true });
    expect((await session.call('GET', '/app/api/approvals')).json.granted).toEqual([]);
    expect((await daemon.api('GET', '/v1/actions/approvals')).json.apps).toEqual([]);
    const twice = await session.call('POST', '/app/api/approvals/revoke', granted[0]);
    expect([twice.status, twice.json.code]).toEqual([404, 'no_approval']);
  });

  test('denied from now on: listed, refused without a question, and asked again once the denial is forgotten', async () => {
    const marker = path.join(out, 'denied');
    const denyCommands = { kind: 'commands', app: 'deployer' };
    expect((await session.call('POST', '/app/api/approvals/deny', denyCommands)).json).toEqual({ ok: true });
    expect((await session.call('GET', '/app/api/approvals')).json.denied).toEqual([
      { kind: 'commands', app: 'deployer', appName: 'Deployer', deniedAt: expect.any(String) },
    ]);
    await notify({ app: 'deployer', id: 'd3', title: 'Deploy', buttons: [{ label: 'Deploy', command: `touch ${marker}` }] });
    await session.call('POST', '/app/api/history/deployer/d3/press', { actionId: 'deploy' });
    const note = await waitFor(async () => (await v1Record('deployer', 'd3'))?.actionNote, 'the press to be refused');
    expect(note).toBe('Deploy: the person did not allow Deployer to run commands');
    expect((await session.call('GET', '/app/api/approvals')).json.questions).toEqual([]); // nobody was asked
    expect(await exists(marker)).toBe(false);

    // A server and a template's code are denied the same way; a question waiting for what is denied is answered no.
    const host = { kind: 'callbackHost', app: 'deployer', host: 'hooks.example.com' };
    const template = { kind: 'templateCode', app: 'deployer', template: 'release' };
    for (const denial of [host, template]) expect((await session.call('POST', '/app/api/approvals/deny', denial)).status).toBe(200);
    expect(
      ((await session.call('GET', '/app/api/approvals')).json.denied as Array<{ kind: string }>).map((denied) => denied.kind).sort(),
    ).toEqual(['callbackHost', 'commands', 'templateCode']);
    const missing = await session.call('POST', '/app/api/approvals/deny', { kind: 'callbackHost', app: 'deployer' });
    expect([missing.status, missing.json.field]).toEqual([400, 'host']);

    // Forgotten: asked again at the next press.
    for (const denial of [denyCommands, host, template])
      expect((await session.call('POST', '/app/api/approvals/ask-again', denial)).json).toEqual({ ok: true });
    const again = await session.call('POST', '/app/api/approvals/ask-again', denyCommands);
    expect([again.status, again.json.code]).toEqual([404, 'no_denial']);
    expect((await session.call('GET', '/app/api/approvals')).json.denied).toEqual([]);
    await notify({ app: 'deployer', id: 'd4', title: 'Deploy', buttons: [{ label: 'Deploy', command: `touch ${marker}` }] });
    await session.call('POST', '/app/api/history/deployer/d4/press', { actionId: 'deploy' });
    const [asked] = await waitFor(async () => {
      const { questions } = (await session.call('GET', '/app/api/approvals')).json;
      return questions.length > 0 ? questions : undefined;
    }, 'the question');
    expect(asked).toMatchObject({ app: 'deployer', kind: 'commands', notificationId: 'd4' });
    expect((await session.call('POST', `/app/api/approvals/questions/${asked.id}`, { allow: false })).json).toEqual({ ok: true });
  });

  test("an app's request to run code (allowCommands) waits in Approvals; declined, it is not asked again until made anew", async () => {
    const register = (allowCommands: boolean) =>
      daemon.api('POST', '/v1/register', { body: { app: 'asker', appName: 'Asker', allowCommands } });
    const askerQuestions = async () =>
      ((await session.call('GET', '/app/api/approvals')).json.questions as Array<{ id: string; app: string }>).filter(
        (q) => q.app === 'asker',
      );
    await register(true);
    const [request] = await askerQuestions();
    expect(request).toEqual({
      id: expect.any(String),
      app: 'asker',
      appName: 'Asker',
      kind: 'allowCommands',
      text: 'Asker asks to run commands, scripts and shortcuts on this computer.',
    });
    expect((await session.call('POST', `/app/api/approvals/questions/${request!.id}`, { allow: false })).json).toEqual({ ok: true });
    await register(true); // the app registers again, as it does at every start: the refusal stands
    expect(await askerQuestions()).toEqual([]);

    await register(false); // it withdraws its request, then makes it anew
    await register(true);
    const [anew] = await askerQuestions();
    expect(anew).toMatchObject({ kind: 'allowCommands', app: 'asker' });
    expect((await session.call('POST', `/app/api/approvals/questions/${anew!.id}`, { allow: true })).json).toEqual({ ok: true });
    expect((await session.call('GET', '/app/api/approvals')).json.granted).toContainEqual(
      expect.objectContaining({ kind: 'commands', app: 'asker' }),
    );
    expect((await daemon.api('GET', '/v1/apps/settings?app=asker')).json.apps[0].approvals).toMatchObject({ commandsAllowed: true });
    await register(false);
    expect((await session.call('GET', '/app/api/approvals')).json.granted).not.toContainEqual(expect.objectContaining({ app: 'asker' }));
  });

  test('refusals: allow missing, a kind that is no grant, a callback host without its host, an unknown connector', async () => {
    expect((await session.call('POST', '/app/api/approvals/questions/x', {})).json.field).toBe('allow');
    expect((await session.call('POST', '/app/api/approvals/questions/x', { allow: true })).status).toBe(404);
    const kind = await session.call('POST', '/app/api/approvals/revoke', { kind: 'everything', app: 'deployer' });
    expect([kind.status, kind.json.field]).toEqual([400, 'kind']);
    expect((await session.call('POST', '/app/api/approvals/revoke', { kind: 'callbackHost', app: 'deployer' })).json.field).toBe('host');
    expect((await session.call('GET', '/app/api/approvals')).json.connectors).toEqual([]);
    const connector = await session.call('POST', '/app/api/approvals/connectors/c-1', { approve: true });
    expect([connector.status, connector.json.code]).toEqual([404, 'no_such_connector_request']);
    expect((await session.call('POST', '/app/api/approvals/connectors/c-1', {})).json.field).toBe('approve');
  });
});

describe('what the person does to a notification', () => {
  beforeAll(async () => {
    await notify({ app: 'todo', id: 't1', title: 'Water the plants', persistent: true });
    await notify({ app: 'todo', id: 't2', title: 'Call Ana', persistent: true });
    await notify({ app: 'other', id: 'o1', title: 'Other', persistent: true });
  });

  test('snooze, unsnooze, dismiss, reshow, delete, and their 4xx', async () => {
    const snoozed = (await session.call('POST', '/app/api/history/todo/t1/snooze', { minutes: 15 })).json;
    expect(snoozed).toEqual({ ok: true, until: expect.any(String) });
    expect((await history('?app=todo')).items.find((row: { id: string }) => row.id === 't1').state.snoozedUntil).toBe(snoozed.until);
    expect((await session.call('POST', '/app/api/history/todo/t1/snooze', { minutes: 0 })).json.field).toBe('minutes');
    expect((await session.call('POST', '/app/api/history/todo/t1/unsnooze', {})).json).toEqual({ ok: true });
    expect((await v1Record('todo', 't1')).snoozedUntil).toBeUndefined();

    expect((await session.call('POST', '/app/api/history/todo/t1/dismiss', {})).json).toEqual({ ok: true, undo: expect.any(String) });
    expect(await v1Record('todo', 't1')).toMatchObject({ dismissedAt: expect.any(String), actionUsed: 'dismiss' });
    const late = await session.call('POST', '/app/api/history/todo/t1/snooze', { minutes: 15 });
    expect([late.status, late.json.code]).toEqual([400, 'already_dismissed']);

    const reshown = (await session.call('POST', '/app/api/history/todo/t1/reshow', {})).json;
    expect(reshown).toEqual({ ok: true, id: 't1' });
    expect((await v1Record('todo', 't1')).dismissedAt).toBeUndefined();
    expect((await history('?app=todo')).items[0]).toMatchObject({ id: 't1', read: true });

    expect((await session.call('DELETE', '/app/api/history/todo/t1')).json).toEqual({ ok: true });
    expect(await v1Record('todo', 't1')).toBeUndefined();
    for (const action of ['reshow', 'dismiss', 'unsnooze']) {
      expect((await session.call('POST', `/app/api/history/todo/t1/${action}`, {})).status).toBe(404);
    }
    expect((await session.call('DELETE', '/app/api/history/todo/t1')).status).toBe(404);
  });

  test("delete all of an app's, then everything", async () => {
    expect((await session.call('DELETE', '/app/api/history?app=todo')).json).toEqual({ ok: true });
    expect((await history('?app=todo')).total).toBe(0);
    expect((await history('?app=other')).total).toBe(1);
    expect((await session.call('DELETE', '/app/api/history')).json).toEqual({ ok: true });
    expect((await history()).total).toBe(0);
    expect((await history()).unread).toBe(0);
  });
});

describe('Undo: a deletion, a Mark all read, a dismissal taken back', () => {
  const ids = async (app: string): Promise<string[]> => (await history(`?app=${app}`)).items.map((row: { id: string }) => row.id);
  const undo = (token: string) => session.call('POST', '/app/api/history/undo', { undo: token });

  test('deleted records come back where they were, with their picture, read or unread as they were; once', async () => {
    await notify({ app: 'undo', id: 'u1', title: 'First', image: DOT_PNG });
    await notify({ app: 'undo', id: 'u2', title: 'Second' });
    await notify({ app: 'undo', id: 'u3', title: 'Third' });
    await session.call('POST', '/app/api/history/undo/u2/read', { read: true });
    const picture = (await v1Record('undo', 'u1')).imagePath as string;
    const before = (await history('?app=undo')).items;
    const unreadBefore = (await history()).unread;
    const stream = await session.events();
    const deleted = await session.call('POST', '/app/api/history/delete', {
      items: [
        { app: 'undo', id: 'u1' },
        { app: 'undo', id: 'u2' },
        { app: 'undo', id: 'gone' },
      ],
    });
    expect(deleted.json).toEqual({ ok: true, deleted: 2, undo: expect.any(String) });
    expect(await ids('undo')).toEqual(['u3']);
    expect(await v1Record('undo', 'u1')).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 300)); // the deletion's sweep of unused pictures has run
    expect(await exists(picture)).toBe(true); // kept while it may come back

    const from = stream.received.length;
    expect((await undo(deleted.json.undo)).json).toEqual({ ok: true });
    expect((await history('?app=undo')).items).toEqual(before); // in place, with their times and read state
    expect((await history()).unread).toBe(unreadBefore);
    expect((await v1Record('undo', 'u1')).imagePath).toBe(picture);
    expect(await exists(picture)).toBe(true);
    await stream.next('row', (data) => data.row.id === 'u1', from); // every window hears of it
    stream.close();

    const again = await undo(deleted.json.undo);
    expect([again.status, again.json.code]).toEqual([404, 'nothing_to_undo']);
    expect((await session.call('POST', '/app/api/history/delete', { items: 'u1' })).json.field).toBe('items');
    expect((await session.call('POST', '/app/api/history/delete', {})).json.code).toBe('missing_field');
    expect((await undo('made-up')).status).toBe(404);
  });

  test('a record whose Undo never came goes with its picture', async () => {
    await notify({ app: 'undo', id: 'u4', title: 'Fourth', image: DOT_PNG });
    const picture = (await v1Record('undo', 'u4')).imagePath as string;
    // The same picture is u1's too: delete both, so that nothing else holds it.
    const deleted = await session.call('POST', '/app/api/history/delete', {
      items: ['u1', 'u2', 'u3', 'u4'].map((id) => ({ app: 'undo', id })),
    });
    expect(deleted.json.deleted).toBe(4);
    expect(await exists(picture)).toBe(true);
    await waitFor(async () => ((await exists(picture)) ? undefined : true), 'the picture to go once the Undo expired', 40_000);
    expect((await undo(deleted.json.undo)).status).toBe(404);
  }, 60_000);

  test('Mark all read taken back: what was unread is unread again, and the windows are told to read the rows again', async () => {
    await notify({ app: 'undo', id: 'r1', title: 'One' });
    await notify({ app: 'undo', id: 'r2', title: 'Two' });
    await session.call('POST', '/app/api/history/undo/r1/read', { read: true });
    const unread = (await history()).unread;
    const marked = (await session.call('POST', '/app/api/history/read-all', { app: 'undo' })).json;
    expect(marked).toEqual({ ok: true, unread: unread - 1, seq: expect.any(Number), undo: expect.any(String) });
    const stream = await session.events();
    const from = stream.received.length;
    expect((await undo(marked.undo)).status).toBe(200);
    expect((await stream.next('read', () => true, from)).data).toMatchObject({ app: 'undo', restored: true });
    stream.close();
    expect((await history()).unread).toBe(unread);
    const rows = (await history('?app=undo')).items as Array<{ id: string; read: boolean }>;
    expect(Object.fromEntries(rows.map((row) => [row.id, row.read]))).toEqual({ r2: false, r1: true });
  });

  test('a dismissal taken back: the record is as it was and its banner is back', async () => {
    await notify({ app: 'undo', id: 'd1', title: 'Dismiss me' });
    const dismissed = (await session.call('POST', '/app/api/history/undo/d1/dismiss', {})).json;
    expect(await v1Record('undo', 'd1')).toMatchObject({ dismissedAt: expect.any(String), actionUsed: 'dismiss' });
    expect(JSON.stringify((await daemon.api('GET', '/v1/stacks?app=undo')).json)).not.toContain('"d1"');
    expect((await undo(dismissed.undo)).status).toBe(200);
    const record = await v1Record('undo', 'd1');
    expect(record.dismissedAt).toBeUndefined();
    expect(record.actionUsed).toBeUndefined();
    const onScreen = async (): Promise<boolean> => JSON.stringify((await daemon.api('GET', '/v1/stacks?app=undo')).json).includes('"d1"');
    expect(await onScreen()).toBe(true);
  });
});

describe('export', () => {
  beforeAll(async () => {
    await notify({ app: 'sheet', id: 's1', title: '=HYPERLINK("http://evil")', body: 'a, "quoted"\nline' });
    await notify({ app: 'sheet', id: 's2', title: 'Plain' });
  });

  test('JSON: every match, newest first, with its read state, as a download', async () => {
    const reply = await session.call('GET', '/app/api/history/export?format=json&app=sheet');
    expect(reply.headers['content-disposition']).toMatch(/^attachment; filename="notifier-history-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(reply.json.count).toBe(2);
    expect(reply.json.items.map((item: { id: string; read: boolean }) => [item.id, item.read])).toEqual([
      ['s2', false],
      ['s1', false],
    ]);
  });

  test('CSV: a header, quoted cells, and no cell a spreadsheet would run as a formula', async () => {
    const reply = await session.call('GET', '/app/api/history/export?format=csv&q=hyperlink');
    expect(reply.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(reply.headers['content-disposition']).toMatch(/\.csv"$/);
    const lines = reply.text.split('\r\n');
    expect(lines[0]).toBe('deliveredAt,app,appName,id,title,subtitle,body,read,state,reply,actionUsed,dismissedAt');
    expect(reply.text).toContain(`sheet,sheet,s1,"'=HYPERLINK(""http://evil"")",,"a, ""quoted""\nline",false,`);
    expect((await session.call('GET', '/app/api/history/export?format=xml')).json.field).toBe('format');
  });
});

describe('Compose and previews', () => {
  test('a notification the person writes is sent like POST /v1/notify; the app defaults to notifier', async () => {
    const sent = await session.call('POST', '/app/api/compose', { title: 'Note to self', body: 'Buy **milk**' });
    expect(sent.json).toEqual({ ok: true, id: expect.any(String) });
    expect(await v1Record('notifier', sent.json.id)).toMatchObject({ notification: { title: 'Note to self', body: 'Buy **milk**' } });
    const other = await session.call('POST', '/app/api/compose', { app: 'me', title: 'x' });
    expect(await v1Record('me', other.json.id)).toBeDefined();
  });

  test('an error names its field, as Compose shows it next to the field', async () => {
    const noTitle = await session.call('POST', '/app/api/compose', { body: 'no title' });
    expect(noTitle.status).toBe(400);
    expect(noTitle.json).toMatchObject({ code: 'missing_field', field: 'title' });
    const badLink = await session.call('POST', '/app/api/compose', { title: 't', buttons: [{ label: 'Go', url: 'javascript:alert(1)' }] });
    expect(badLink.status).toBe(400);
    expect(badLink.json.field).toBe('buttons[0].url');
    expect(badLink.json.error).toContain('buttons[0].url');
  });

  test('templates of an app with their fields; the preview is a PNG drawn by the preview renderer', async () => {
    const template = {
      app: 'shop',
      name: 'order',
      grid: { rows: 2, cols: 1 },
      cells: [
        { id: 't', row: 0, col: 0, component: { type: 'text', binding: '{title}', style: 'title' } },
        { id: 'c', row: 1, col: 0, component: { type: 'text', binding: '{customer} · {extra.shop}' } },
      ],
    };
    const saved = await daemon.api('PUT', '/v1/templates', { body: template });
    expect(saved.status).toBeLessThan(300);
    const { templates } = (await session.call('GET', '/app/api/compose/templates?app=shop')).json;
    expect(templates).toEqual([{ name: 'order', fields: [{ key: 'title' }, { key: 'customer' }] }]);
    for (const theme of ['light', 'dark']) {
      const preview = await session.call('POST', '/app/api/preview', {
        app: 'shop',
        notification: { template: 'order', title: 'Order 12', customer: 'Ana' },
        theme,
      });
      expect(preview.status).toBe(200);
      expect(preview.headers['content-type']).toBe('image/png');
      expect(preview.raw.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    }
    expect((await session.call('POST', '/app/api/preview', { app: 'shop', notification: {}, theme: 'blue' })).json.field).toBe('theme');
    const bad = await session.call('POST', '/app/api/preview', { app: 'shop', notification: { title: 5 }, theme: 'light' });
    expect([bad.status, bad.json.field]).toEqual([400, 'title']);
    // A template the app does not have (deleted since Compose listed it) is the caller's mistake, not a failure.
    const gone = await session.call('POST', '/app/api/preview', { app: 'shop', notification: { template: 'gone', title: 'x' } });
    expect([gone.status, gone.json.code]).toEqual([404, 'template_not_found']);
  });
});

describe('live events', () => {
  let stream: EventStream;
  beforeAll(async () => {
    stream = await session.events();
  });
  afterAll(() => stream.close());

  test('the stream starts with its number and the unread count; a notification arrives as its row', async () => {
    await stream.next('unread');
    expect(stream.received.map((event) => event.event).slice(0, 2)).toEqual(['stream', 'unread']);
    // The count says which change it includes: at the start, the stream's own number.
    expect(stream.received[1]!.data.seq).toBe(stream.received[0]!.data.seq);
    const from = stream.received.length;
    const started = performance.now();
    await notify({ app: 'live', id: 'l1', title: 'Live one', body: 'first\nsecond' });
    const { data, at } = await stream.next('row', (data) => data.row.id === 'l1', from);
    expect(data.row).toMatchObject({ app: 'live', id: 'l1', title: 'Live one', firstLine: 'first', read: false });
    expect(at - started).toBeLessThan(5000);
    expect((await stream.next('unread', () => true, from)).data.seq).toBe(data.seq);
  });

  test('a change, a read, a removal and a question reach the stream', async () => {
    let from = stream.received.length;
    await session.call('POST', '/app/api/history/live/l1/read', { read: true });
    expect((await stream.next('row', (data) => data.row.id === 'l1', from)).data.row.read).toBe(true);
    from = stream.received.length;
    await session.call('POST', '/app/api/history/read-all', { app: 'live' });
    expect((await stream.next('read', () => true, from)).data).toMatchObject({ app: 'live' });
    from = stream.received.length;
    await daemon.api('DELETE', '/v1/history/item?app=live&id=l1');
    expect((await stream.next('removed', () => true, from)).data).toMatchObject({ app: 'live', id: 'l1' });

    from = stream.received.length;
    await daemon.api('POST', '/v1/register', { body: { app: 'runner', allowCommands: true } });
    // The app's standing request waits first; a press of its command button makes it that button's question.
    const request = await stream.next('approvals', (data) => data.questions.length === 1, from);
    expect(request.data.questions[0]).toMatchObject({ app: 'runner', kind: 'allowCommands' });
    await notify({ app: 'runner', id: 'a1', title: 'Run?', buttons: [{ label: 'Run', command: 'true' }] });
    await session.call('POST', '/app/api/history/runner/a1/press', { actionId: 'run' });
    const isButtons = (data: { questions: Array<{ kind: string }> }) =>
      data.questions.length === 1 && data.questions[0]!.kind === 'commands';
    const { data } = await stream.next('approvals', isButtons, from);
    expect(data.questions[0]).toMatchObject({ app: 'runner', kind: 'commands', notificationId: 'a1' });
    expect((await stream.next('row', (data) => data.row.id === 'a1' && data.row.state.waiting === true, from)).data.row.app).toBe('runner');
    from = stream.received.length;
    await session.call('POST', `/app/api/approvals/questions/${data.questions[0].id}`, { allow: false });
    await stream.next('approvals', (data) => data.questions.length === 0, from);
  });

  test('the changes are numbered one by one from the stream’s first number, and a page says which it includes', async () => {
    const first = stream.received.find((event) => event.event === 'stream')!.data.seq as number;
    const changes = () => stream.received.filter((event) => ['row', 'removed', 'read'].includes(event.event));
    const page = await session.call('GET', '/app/api/history?limit=1');
    // The events up to the page's number were sent before it was read; some may still be on their way.
    await waitFor(() => ((changes().at(-1)?.data.seq ?? first) >= page.json.seq ? true : undefined), 'the events up to the page');
    expect(changes().length).toBeGreaterThan(3);
    expect(changes().map((event) => event.data.seq)).toEqual(changes().map((_, index) => first + 1 + index));
    expect(changes().at(-1)!.data.seq).toBe(page.json.seq);
    const from = stream.received.length;
    await notify({ app: 'live', id: 'l2', title: 'Numbered' });
    const { data } = await stream.next('row', (data) => data.row.id === 'l2', from);
    expect(data.seq).toBeGreaterThan(page.json.seq);
    const after = await session.call('GET', '/app/api/history?limit=1');
    expect(after.json.seq).toBeGreaterThanOrEqual(data.seq);
    expect(after.json.items[0].id).toBe('l2');
  });

  test('a template or a manifest saved or deleted through /v1 reaches the stream (the Designer follows it)', async () => {
    const template = { app: 'live', name: 'followed', title: '{title}' };
    const changes: Array<() => Promise<unknown>> = [
      () => daemon.api('PUT', '/v1/templates', { body: template }),
      () => daemon.api('DELETE', '/v1/templates?app=live&name=followed'),
      () => daemon.api('PUT', '/v1/manifest', { body: { app: 'live', appName: 'Live' } }),
      () => daemon.api('DELETE', '/v1/manifest?app=live'),
    ];
    for (const change of changes) {
      const from = stream.received.length;
      expect(((await change()) as { status: number }).status).toBe(200);
      expect((await stream.next('templates', () => true, from)).data).toEqual({});
    }
  });

  test('the stream needs the session: none is 401', async () => {
    const reply = await daemon.raw('GET', '/app/api/events');
    expect(reply.status).toBe(401);
  });

  test('Sign out ends the stream', async () => {
    const other = await daemon.signIn();
    const ending = await other.events();
    await ending.next('unread');
    await other.call('DELETE', '/app/api/session');
    const { openEventStream } = await import('../helpers/app.js');
    await expect(openEventStream(daemon.port, { Cookie: other.cookie })).rejects.toThrow('events answered 401');
    ending.close();
  });
});

describe('the files a notification leaves', () => {
  test('read state is kept in read-state.json, apart from History', async () => {
    const file = path.join(daemon.supportDir, 'read-state.json');
    await waitFor(async () => ((await exists(file)) ? true : undefined), 'read-state.json');
    const state = JSON.parse(await readFile(file, 'utf8'));
    expect(state).toHaveProperty('apps');
  });
});
