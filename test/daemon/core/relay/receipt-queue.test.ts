// The desktop's queue of receipts for the relay (daemon/core/relay/outbox.ts, docs/api/relay-connection.md#rl33): the status
// counts a receipt as waiting only once it is on disk, so a count seen before a crash is a count found after it.

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from '@jest/globals';
import { Outbox } from '../../../../daemon/core/relay/outbox.js';
import { Store } from '../../../../daemon/store/store.js';

const folders: string[] = [];
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

test('a receipt counts as waiting once its write is done, and is there when the queue is opened again', async () => {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'notifier-outbox-'));
  folders.push(folder);
  const store = new Store(folder);
  const outbox = await Outbox.open(store);
  // The write is held back until the test lets it go.
  const write = store.save.bind(store);
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  store.save = (document) => released.then(() => write(document));

  const added = outbox.add({ type: 'receipt', id: 'n1', kind: 'displayed' });
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(outbox.size).toBe(0);
  release();
  await added;
  expect(outbox.size).toBe(1);
  expect((await Outbox.open(new Store(folder))).size).toBe(1);
});
