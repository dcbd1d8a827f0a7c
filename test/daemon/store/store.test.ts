import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, test } from '@jest/globals';
import { ApiError } from '../../../protocol/errors.js';
import { log } from '../../../daemon/log.js';
import { Journal } from '../../../daemon/store/journal.js';
import { Store } from '../../../daemon/store/store.js';
import { tempFolder } from '../../helpers/daemon.js';

log.setQuiet(true);
const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

async function newStore(): Promise<{ store: Store; root: string }> {
  const root = await tempFolder('notifier-store-');
  folders.push(root);
  return { store: new Store(root), root };
}

describe('group commit', () => {
  test('changes made in one tick are written once per file, and everyone is answered after the write', async () => {
    const { store, root } = await newStore();
    const a = await store.open<{ n: number }>('a.json', { n: 0 });
    const b = await store.open<{ n: number }>('sub/b.json', { n: 0 });
    let writes = 0;
    for (const document of [a, b]) {
      const write = document.write.bind(document);
      document.write = () => {
        writes++;
        return write();
      };
    }
    const saved: Array<Promise<void>> = [];
    for (let n = 1; n <= 50; n++) {
      a.data.n = n;
      b.data.n = -n;
      saved.push(store.save(a), store.save(b));
    }
    await Promise.all(saved);
    expect(writes).toBe(2);
    expect(JSON.parse(await readFile(path.join(root, 'a.json'), 'utf8'))).toEqual({ n: 50 });
    expect(JSON.parse(await readFile(path.join(root, 'sub', 'b.json'), 'utf8'))).toEqual({ n: -50 });
  });

  test('a change made while a batch is being written goes into the next batch, not lost', async () => {
    const { store, root } = await newStore();
    const doc = await store.open<{ v: string }>('doc.json', { v: 'first' });
    const first = store.save(doc);
    await new Promise((resolve) => setImmediate(resolve)); // the first batch is now on its way
    doc.data.v = 'second';
    await Promise.all([first, store.save(doc)]);
    expect(JSON.parse(await readFile(path.join(root, 'doc.json'), 'utf8'))).toEqual({ v: 'second' });
  });

  test('journal lines of one tick become one durable append', async () => {
    const { store, root } = await newStore();
    const journal = await Journal.open(path.join(root, 'history'));
    let appends = 0;
    const append = journal.append.bind(journal);
    journal.append = (lines) => {
      appends++;
      return append(lines);
    };
    store.useJournal(journal);
    await Promise.all(Array.from({ length: 20 }, (_, n) => store.appendToJournal(Buffer.from(`{"n":${n}}\n`))));
    expect(appends).toBe(1);
    const reopened = await Journal.open(path.join(root, 'history'));
    expect(await reopened.readLeftovers()).toEqual(Array.from({ length: 20 }, (_, n) => ({ n })));
    await journal.close();
  });

  test('a journal line cut short by a crash is skipped; the lines before it are kept', async () => {
    const { root } = await newStore();
    await mkdir(path.join(root, 'history'));
    await writeFile(path.join(root, 'history', 'journal-000003.jsonl'), '{"a":1}\n{"b":2}\n{"c":');
    const journal = await Journal.open(path.join(root, 'history'));
    expect(await journal.readLeftovers()).toEqual([{ a: 1 }, { b: 2 }]);
  });

  test('a write that fails rejects with the service error, and later writes still work', async () => {
    const { store, root } = await newStore();
    await writeFile(path.join(root, 'blocked'), 'a file where a folder should be');
    const doomed = store.create('blocked/x.json', { x: 1 });
    await expect(store.save(doomed)).rejects.toBeInstanceOf(ApiError);
    await expect(store.save(doomed)).rejects.toMatchObject({ status: 500 });
    const fine = store.create('fine.json', { ok: true });
    await store.save(fine);
    expect(JSON.parse(await readFile(path.join(root, 'fine.json'), 'utf8'))).toEqual({ ok: true });
  });

  test('nothing resolves outside the support folder', async () => {
    const { store } = await newStore();
    expect(() => store.resolve('../outside.json')).toThrow(/outside the support folder/);
    expect(() => store.resolve('/etc/passwd')).toThrow(/outside the support folder/);
  });
});
