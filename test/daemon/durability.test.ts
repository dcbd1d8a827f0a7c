import { readFileSync } from 'node:fs';
import { readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { startDaemon, tempFolder, waitFor } from '../helpers/daemon.js';
import { filesUnder } from '../helpers/support.js';

describe('durability: an acknowledged notification is on disk', () => {
  test('200 notifications acknowledged under concurrency survive kill -9 and a restart; no file is corrupt', async () => {
    const daemon = await startDaemon();
    const apps = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
    const sent = Array.from({ length: 200 }, (_, n) => ({ app: apps[n % apps.length]!, id: `n${n}`, title: `notification ${n}` }));
    const replies = await Promise.all(sent.map((body) => daemon.api('POST', '/v1/notify', { body })));
    expect(replies.map((reply) => reply.status)).toEqual(sent.map(() => 200));
    await daemon.kill9();

    // Every file the daemon wrote is whole JSON (no temporary files left half-way).
    for (const file of await filesUnder(daemon.supportDir)) {
      if (file.endsWith('.json')) expect(() => JSON.parse(readFileSync(path.join(daemon.supportDir, file), 'utf8'))).not.toThrow();
    }

    const restarted = await startDaemon({ supportDir: daemon.supportDir });
    const items = (await restarted.api('GET', '/v1/history?limit=1000')).json.items as Array<{ app: string; id: string }>;
    expect(items.map((item) => `${item.app}/${item.id}`).sort()).toEqual(sent.map((body) => `${body.app}/${body.id}`).sort());
    const registered = (await restarted.api('GET', '/v1/apps')).json.apps.map((entry: { app: string }) => entry.app).sort();
    expect(registered).toEqual([...apps].sort());
    await restarted.stop();
    await rm(daemon.supportDir, { recursive: true, force: true });
  });

  test('dismissals and deletions acknowledged before kill -9 are on disk too', async () => {
    const daemon = await startDaemon();
    for (const id of ['keep', 'dismiss', 'delete']) await daemon.api('POST', '/v1/notify', { body: { app: 'life', id, title: id } });
    await daemon.api('POST', '/v1/dismiss', { body: { app: 'life', id: 'dismiss' } });
    await daemon.api('DELETE', '/v1/history/item?app=life&id=delete');
    await daemon.kill9();
    const restarted = await startDaemon({ supportDir: daemon.supportDir });
    const items = (await restarted.api('GET', '/v1/history?app=life')).json.items;
    expect(items.map((item: { id: string }) => item.id)).toEqual(['dismiss', 'keep']);
    expect(items[0].dismissedAt).toBeDefined();
    await restarted.stop();
    await rm(daemon.supportDir, { recursive: true, force: true });
  });

  test('changes made after a checkpoint are replayed from the journal on top of the app files', async () => {
    const daemon = await startDaemon();
    const history = path.join(daemon.supportDir, 'history');
    for (const id of ['a', 'b', 'c', 'd']) await daemon.api('POST', '/v1/notify', { body: { app: 'cp', id, title: id } });
    await daemon.api('POST', '/v1/notify', { body: { app: 'gone', id: 'g', title: 'g' } });
    // Wait for the checkpoint: the app files hold everything so far and the journal is gone.
    await waitFor(async () => {
      const names = await readdir(history);
      return names.includes('cp.json') && !names.some((name) => name.endsWith('.jsonl')) ? true : undefined;
    }, 'the checkpoint');
    await daemon.api('POST', '/v1/dismiss', { body: { app: 'cp', id: 'b' } });
    await daemon.api('DELETE', '/v1/history/item?app=cp&id=c');
    await daemon.api('POST', '/v1/notify', { body: { app: 'cp', id: 'a', title: 'a again' } });
    await daemon.api('POST', '/v1/notify', { body: { app: 'cp', id: 'e', title: 'e' } });
    await daemon.api('DELETE', '/v1/history?app=gone');
    await daemon.api('POST', '/v1/notify', { body: { app: 'fresh', id: 'f', title: 'f' } });
    await daemon.kill9();

    const restarted = await startDaemon({ supportDir: daemon.supportDir });
    const items = (await restarted.api('GET', '/v1/history?app=cp')).json.items;
    expect(items.map((item: { id: string; notification: { title: string } }) => `${item.id}:${item.notification.title}`)).toEqual([
      'e:e',
      'a:a again',
      'd:d',
      'b:b',
    ]);
    expect(items[3].actionUsed).toBe('dismiss');
    expect((await restarted.api('GET', '/v1/history?app=gone')).json.items).toEqual([]);
    expect((await restarted.api('GET', '/v1/history?app=fresh')).json.items).toHaveLength(1);
    // The replayed changes are folded into the files at once and the old journal is dropped.
    await waitFor(async () => ((await readdir(history)).some((name) => name.endsWith('.jsonl')) ? undefined : true), 'the journal to go');
    expect(await restarted.stop()).toBe(0);
    const file = JSON.parse(readFileSync(path.join(history, 'cp.json'), 'utf8'));
    expect(file.records.map((record: { id: string }) => record.id)).toEqual(['b', 'd', 'a', 'e']);
    expect((await readdir(history)).sort()).toEqual(['cp.json', 'fresh.json']);
    await rm(daemon.supportDir, { recursive: true, force: true });
  });

  test('after a clean restart, changes acknowledged before kill -9 are still replayed', async () => {
    // The files written by the clean stop carry journal numbers of the first run; the second run's journal
    // must continue above them, or its changes would look already written.
    const first = await startDaemon();
    for (const id of ['a', 'b', 'c']) await first.api('POST', '/v1/notify', { body: { app: 'runs', id, title: id } });
    expect(await first.stop()).toBe(0);
    const second = await startDaemon({ supportDir: first.supportDir });
    await second.api('POST', '/v1/dismiss', { body: { app: 'runs', id: 'b' } });
    await second.api('POST', '/v1/notify', { body: { app: 'runs', id: 'd', title: 'd' } });
    await second.kill9();
    const third = await startDaemon({ supportDir: first.supportDir });
    const items = (await third.api('GET', '/v1/history?app=runs')).json.items;
    expect(items.map((item: { id: string }) => item.id)).toEqual(['d', 'c', 'b', 'a']);
    expect(items[2].actionUsed).toBe('dismiss');
    await third.stop();
    await rm(first.supportDir, { recursive: true, force: true });
  });

  test('a History file broken by hand is set aside, and the daemon starts', async () => {
    const daemon = await startDaemon();
    await daemon.api('POST', '/v1/notify', { body: { app: 'broken', title: 'x' } });
    await daemon.stop();
    await writeFile(path.join(daemon.supportDir, 'history', 'broken.json'), '{"app":"broken","records":[{"id":');
    const restarted = await startDaemon({ supportDir: daemon.supportDir });
    expect((await restarted.api('GET', '/v1/history?app=broken')).json.items).toEqual([]);
    expect(restarted.log()).toMatch(/was not valid JSON; moved it to .*broken\.json\.corrupt-/);
    expect((await restarted.api('POST', '/v1/notify', { body: { app: 'broken', title: 'fresh' } })).status).toBe(200);
    await restarted.stop();
    await rm(daemon.supportDir, { recursive: true, force: true });
  });
});

describe('path traversal: app ids and ids never create files outside the support folder', () => {
  test('hostile ids are stored as data, and every file stays inside the folder with a safe name', async () => {
    const outer = await tempFolder('notifier-traversal-');
    const supportDir = path.join(outer, 'support');
    const daemon = await startDaemon({ supportDir });
    const hostile = [
      '../escape',
      '../../etc/passwd',
      '/abs/path',
      '..',
      '.',
      'a/b/c',
      'a\\b',
      '.hidden',
      'NUL\u0000byte',
      'émoji-✓',
      'CON',
      'x'.repeat(128),
    ];
    for (const value of hostile) {
      const asApp = await daemon.api('POST', '/v1/notify', { body: { app: value, id: value, title: 'hostile' } });
      expect(asApp.status).toBe(200);
      await daemon.api('POST', '/v1/register', { body: { app: value, appName: value } });
      await daemon.api('POST', '/v1/notify', { body: { app: 'plain', id: value, title: 'hostile id' } });
    }
    // Everything is still readable by its real id.
    for (const value of hostile) {
      const items = (await daemon.api('GET', `/v1/history?app=${encodeURIComponent(value)}`)).json.items;
      expect(items.map((item: { id: string }) => item.id)).toEqual([value]);
    }
    expect(await filesUnder(outer)).toEqual((await filesUnder(outer)).filter((file) => file.startsWith('support/')));
    for (const file of await filesUnder(supportDir)) {
      expect(path.basename(file)).toMatch(/^[a-z0-9._-]+$/);
      expect(path.basename(file).startsWith('.')).toBe(false);
    }
    // Distinct ids that differ only in case or in unsafe characters get distinct files.
    await daemon.api('POST', '/v1/notify', { body: { app: 'Case', title: 'upper' } });
    await daemon.api('POST', '/v1/notify', { body: { app: 'case', title: 'lower' } });
    expect((await daemon.api('GET', '/v1/history?app=Case')).json.items[0].notification.title).toBe('upper');
    expect((await daemon.api('GET', '/v1/history?app=case')).json.items[0].notification.title).toBe('lower');

    await daemon.stop();
    // And they all load back after a restart.
    const restarted = await startDaemon({ supportDir });
    for (const value of [...hostile, 'Case', 'case']) {
      expect((await restarted.api('GET', `/v1/history?app=${encodeURIComponent(value)}`)).json.items).toHaveLength(1);
    }
    await restarted.stop();
    await rm(outer, { recursive: true, force: true });
  });
});
