import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { startDaemon, tempFolder, useDaemon, waitFor } from '../helpers/daemon.js';
import { exists, writeSupportFile } from '../helpers/support.js';
import { missingField } from '../helpers/http.js';

type Item = { id: string; app: string; deliveredAt: string; dismissedAt?: string; notification: { title: string } };
const ids = (items: Item[]) => items.map((item) => item.id);

describe('History', () => {
  const daemon = useDaemon();
  const notify = (body: Record<string, unknown>) => daemon().api('POST', '/v1/notify', { body });
  const get = async (route: string) => daemon().api('GET', route);

  describe('GET /v1/history', () => {
    test('lists newest first, one app or every app merged', async () => {
      for (const [app, id] of [
        ['list-a', 'a1'],
        ['list-b', 'b1'],
        ['list-a', 'a2'],
        ['list-b', 'b2'],
      ]) {
        await notify({ app: app!, id: id!, title: id });
      }
      expect(ids((await get('/v1/history?app=list-a')).json.items)).toEqual(['a2', 'a1']);
      const all = (await get('/v1/history')).json.items as Item[];
      expect(ids(all).filter((id) => /^[ab]\d$/.test(id))).toEqual(['b2', 'a2', 'b1', 'a1']);
      const times = all.map((item) => item.deliveredAt);
      expect([...times].sort().reverse()).toEqual(times);
    });

    test('limit defaults to 50 and cuts the list', async () => {
      await Promise.all(Array.from({ length: 60 }, (_, n) => notify({ app: 'many', id: `m${n}`, title: `n ${n}` })));
      expect((await get('/v1/history?app=many')).json.items).toHaveLength(50);
      expect((await get('/v1/history?app=many&limit=7')).json.items).toHaveLength(7);
      expect((await get('/v1/history?app=many&limit=0')).json.items).toEqual([]);
      expect((await get('/v1/history?app=many&limit=500')).json.items).toHaveLength(60);
    });

    test.each(['-1', 'abc', '2.5', '1e3', ' '])('limit=%j is 400 naming limit', async (limit) => {
      const reply = await get(`/v1/history?limit=${encodeURIComponent(limit)}`);
      expect(reply.status).toBe(400);
      expect(reply.json.error).toMatch(/^invalid field: limit/);
    });

    test('an app with no History gives an empty list', async () => {
      expect((await get('/v1/history?app=never-seen')).json).toEqual({ items: [] });
    });
  });

  describe('GET /v1/history/search', () => {
    test('finds records holding every word, in title, subtitle, body, app id or app name, ignoring case and accents', async () => {
      await daemon().api('POST', '/v1/register', { body: { app: 'search.app', appName: 'Café Radar' } });
      await notify({ app: 'search.app', id: 's1', title: 'Déploiement réussi', body: 'production is green' });
      await notify({ app: 'search.app', id: 's2', title: 'Deploy failed', subtitle: 'staging' });
      await notify({ app: 'search.app', id: 's3', title: 'Unrelated', body: 'See [the DEPLOY log](https://x.example)' });
      await notify({ app: 'search.other', id: 'o1', title: 'deploy elsewhere' });
      const search = async (q: string, extra = '') => {
        const reply = await get(`/v1/history/search?q=${encodeURIComponent(q)}${extra}`);
        expect(reply.status).toBe(200);
        return reply.json;
      };
      expect(ids((await search('deploiement REUSSI')).items)).toEqual(['s1']);
      expect(ids((await search('déploiement')).items)).toEqual(['s1']);
      expect(ids((await search('deploy', '&app=search.app')).items)).toEqual(['s3', 's2']);
      expect(ids((await search('deploy staging')).items)).toEqual(['s2']);
      expect(ids((await search('cafe green')).items)).toEqual(['s1']); // app name + body
      expect(ids((await search('search.other')).items)).toEqual(['o1']); // app id
      expect(ids((await search('radar deploy')).items)).toEqual(['s3', 's2']);
      expect((await search('deploy nothing-matches')).items).toEqual([]);
      const answer = await search('  Deploy   ', '&app=search.app&limit=1');
      expect(answer).toEqual({ query: '  Deploy   ', count: 1, items: [expect.objectContaining({ id: 's3' })] });
    });

    test('an empty query returns the most recent records', async () => {
      await notify({ app: 'recent', id: 'r1', title: 'one' });
      await notify({ app: 'recent', id: 'r2', title: 'two' });
      expect(ids((await get('/v1/history/search?app=recent')).json.items)).toEqual(['r2', 'r1']);
      expect(ids((await get('/v1/history/search?q=&app=recent')).json.items)).toEqual(['r2', 'r1']);
    });

    test('limit is at most 1000, default 50; negative or not whole is 400', async () => {
      expect((await get('/v1/history/search?limit=5000')).status).toBe(200);
      expect((await get('/v1/history/search?limit=-3')).status).toBe(400);
      expect((await get('/v1/history/search?limit=x')).json.error).toMatch(/^invalid field: limit/);
    });
  });

  describe('POST /v1/history/reshow', () => {
    test('shows a stored notification again: open, newest, with a fresh delivery time', async () => {
      await notify({ app: 'reshow', id: 'r', title: 'again' });
      await daemon().api('POST', '/v1/dismiss', { body: { app: 'reshow', id: 'r' } });
      await notify({ app: 'reshow', id: 'later', title: 'later' });
      const before = (await get('/v1/history?app=reshow')).json.items as Item[];
      expect(before[1]).toMatchObject({ id: 'r', dismissedAt: expect.any(String), actionUsed: 'dismiss' });
      const reply = await daemon().api('POST', '/v1/history/reshow', { body: { app: 'reshow', id: 'r' } });
      expect(reply.json).toEqual({ ok: true, id: 'r' });
      const after = (await get('/v1/history?app=reshow')).json.items as Item[];
      expect(ids(after)).toEqual(['r', 'later']);
      expect(after[0]!.dismissedAt).toBeUndefined();
      expect(after[0]!.deliveredAt > before[1]!.deliveredAt).toBe(true);
      expect(after[0]!.notification.title).toBe('again');
    });

    test('400 when app or id is missing; 404 when History has no such record', async () => {
      expect((await daemon().api('POST', '/v1/history/reshow', { body: { app: 'reshow' } })).json).toEqual(missingField('id'));
      expect((await daemon().api('POST', '/v1/history/reshow', { body: { id: 'r' } })).json).toEqual(missingField('app'));
      const missing = await daemon().api('POST', '/v1/history/reshow', { body: { app: 'reshow', id: 'nope' } });
      expect(missing.status).toBe(404);
      expect(missing.json).toEqual({ error: 'no such notification in History', code: 'notification_not_found' });
    });
  });

  describe('DELETE /v1/history/item', () => {
    test('removes one record; 404 when there is none; 400 without app or id', async () => {
      await notify({ app: 'del', id: 'x', title: 'x' });
      await notify({ app: 'del', id: 'y', title: 'y' });
      expect((await daemon().api('DELETE', '/v1/history/item?app=del&id=x')).json).toEqual({ ok: true });
      expect(ids((await get('/v1/history?app=del')).json.items)).toEqual(['y']);
      expect((await daemon().api('DELETE', '/v1/history/item?app=del&id=x')).status).toBe(404);
      expect((await daemon().api('DELETE', '/v1/history/item?app=del')).json).toEqual(missingField('id'));
      expect((await daemon().api('DELETE', '/v1/history/item?id=y')).json).toEqual(missingField('app'));
    });
  });

  describe('DELETE /v1/history', () => {
    test("clears one app's History, or everyone's", async () => {
      await notify({ app: 'clear-a', title: 'a' });
      await notify({ app: 'clear-b', title: 'b' });
      expect((await daemon().api('DELETE', '/v1/history?app=clear-a')).json).toEqual({ ok: true });
      expect((await get('/v1/history?app=clear-a')).json.items).toEqual([]);
      expect((await get('/v1/history?app=clear-b')).json.items).toHaveLength(1);
      // The app files follow the journal at the next checkpoint (within a second).
      const appFile = (app: string) => exists(path.join(daemon().supportDir, 'history', `${app}.json`));
      await waitFor(async () => ((await appFile('clear-b')) && !(await appFile('clear-a')) ? true : undefined), 'the checkpoint');
      expect((await daemon().api('DELETE', '/v1/history')).json).toEqual({ ok: true });
      expect((await get('/v1/history')).json.items).toEqual([]);
      // Apps stay registered.
      expect((await get('/v1/apps')).json.apps).toContainEqual({ app: 'clear-b' });
    });
  });

  describe('GET /v1/history/export', () => {
    test('without a path the records come back as items, newest first', async () => {
      await notify({ app: 'export', id: 'e1', title: 'one' });
      await notify({ app: 'export', id: 'e2', title: 'two' });
      const reply = await get('/v1/history/export?app=export');
      expect(reply.json).toEqual({ count: 2, items: [expect.objectContaining({ id: 'e2' }), expect.objectContaining({ id: 'e1' })] });
    });

    test('with a .json path it writes pretty JSON there and says how many bytes', async () => {
      const folder = await tempFolder('notifier-export-');
      const target = path.join(folder, 'history.json');
      const reply = await get(`/v1/history/export?app=export&path=${encodeURIComponent(target)}`);
      expect(reply.json).toEqual({ count: 2, path: target, bytes: expect.any(Number) });
      const text = await readFile(target, 'utf8');
      expect(Buffer.byteLength(text)).toBe(reply.json.bytes);
      expect(text).toContain('\n  {\n    "id": "e2"');
      expect(ids(JSON.parse(text))).toEqual(['e2', 'e1']);
      await rm(folder, { recursive: true, force: true });
    });

    test('a path not ending in .json, or in a folder that does not exist, is 400 naming path', async () => {
      const folder = await tempFolder('notifier-export-');
      for (const bad of [path.join(folder, 'history.txt'), path.join(folder, 'missing', 'h.json'), 'relative.json']) {
        const reply = await get(`/v1/history/export?path=${encodeURIComponent(bad)}`);
        expect(reply.status).toBe(400);
        expect(reply.json.error).toMatch(/^invalid field: path/);
      }
      await mkdir(path.join(folder, 'dir.json'));
      expect((await get(`/v1/history/export?path=${encodeURIComponent(path.join(folder, 'dir.json', 'x.json'))}`)).status).toBe(200);
      await rm(folder, { recursive: true, force: true });
    });
  });
});

describe('the per-app History cap (setting historyCapPerApp)', () => {
  test('evicts the oldest records beyond the cap, per app', async () => {
    const supportDir = await tempFolder();
    await writeSupportFile(supportDir, 'settings.json', { historyCapPerApp: 5 });
    const daemon = await startDaemon({ supportDir });
    try {
      for (let n = 1; n <= 8; n++) await daemon.api('POST', '/v1/notify', { body: { app: 'capped', id: `c${n}`, title: `${n}` } });
      await daemon.api('POST', '/v1/notify', { body: { app: 'other', id: 'o', title: 'o' } });
      expect(ids((await daemon.api('GET', '/v1/history?app=capped')).json.items)).toEqual(['c8', 'c7', 'c6', 'c5', 'c4']);
      expect((await daemon.api('GET', '/v1/history?app=other')).json.items).toHaveLength(1);
      expect(await daemon.stop()).toBe(0); // a clean stop writes every app file
      const file = JSON.parse(await readFile(path.join(supportDir, 'history', 'capped.json'), 'utf8'));
      expect(file.records.map((record: Item) => record.id)).toEqual(['c4', 'c5', 'c6', 'c7', 'c8']);
    } finally {
      await daemon.stop();
      await rm(supportDir, { recursive: true, force: true });
    }
  });

  test('a cap out of range is ignored with a warning and the default applies', async () => {
    const supportDir = await tempFolder();
    await writeSupportFile(supportDir, 'settings.json', { historyCapPerApp: 0 });
    const daemon = await startDaemon({ supportDir });
    try {
      for (let n = 1; n <= 3; n++) await daemon.api('POST', '/v1/notify', { body: { app: 'capped', title: `${n}` } });
      expect((await daemon.api('GET', '/v1/history?app=capped')).json.items).toHaveLength(3);
      expect(daemon.log()).toMatch(/historyCapPerApp 0 is not a whole number/);
    } finally {
      await daemon.stop();
      await rm(supportDir, { recursive: true, force: true });
    }
  });
});
