// The embedded database's WAL under sustained writes (docs/relay.md, "Storage"): checkpoints run on a thread of
// their own, and the WAL starts over instead of growing for as long as the writes go on — even though some
// transaction always commits while a checkpoint runs. In-process, on the real backend and a real file.

import { afterEach, expect, test } from '@jest/globals';
import { statSync } from 'node:fs';
import path from 'node:path';
import type { Backend } from '../../../relay/store/backend.js';
import { openSqlite, SQLITE_FILE } from '../../../relay/store/sqlite.js';
import { tempFolder } from '../../helpers/daemon.js';

const PAGE = 4096;
/** The WAL size past which the relay makes it start over (relay/store/checkpointer.ts: RESTART_PAGES). */
const RESTART_PAGES = 8192;
/** A recording of 32 KiB: each write adds about 9 pages to the WAL. */
const RECORDING = Buffer.alloc(32 * 1024, 7);
/** Enough writes for the WAL to reach its limit three times over if it never started over. */
const WRITES = Math.ceil((3 * RESTART_PAGES) / 9);
/** Writers at once, like the requests of a busy relay: batches follow each other without a pause. */
const WRITERS = 16;

let store: Backend | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

test('under sustained writes, checkpoints copy the WAL into the database file and the WAL starts over', async () => {
  const folder = await tempFolder('notifier-relay-wal-');
  store = await openSqlite(folder);
  const backend = store;
  let next = 0;
  // Each write replaces the one before, so the database file stays small while the WAL takes every page.
  const writer = async (): Promise<void> => {
    while (next < WRITES) {
      const i = next++;
      await backend.withDeviceLock('d', async (tx) => {
        await tx.db
          .deleteFrom('reply_audio')
          .where('device_id', '=', 'd')
          .where('rid', '=', `r${i - WRITERS}`)
          .execute();
        await tx.db
          .insertInto('reply_audio')
          .values({ device_id: 'd', rid: `r${i}`, content_type: 'audio/mp4', size: RECORDING.length, bytes: RECORDING, created_at: i })
          .execute();
      });
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));

  // The WAL file keeps the size of its longest run: the limit and what came while it was reached — not the
  // three times the limit written in all.
  const walPages = statSync(path.join(folder, `${SQLITE_FILE}-wal`)).size / PAGE;
  expect(walPages).toBeLessThan(2 * RESTART_PAGES);
  // What was written is in the database file (copied by the checkpoints): the last recordings, whole.
  const kept = await backend.db.selectFrom('reply_audio').select(['rid', 'bytes']).orderBy('created_at').execute();
  expect(kept.map((row) => row.rid)).toEqual(Array.from({ length: WRITERS }, (_, i) => `r${WRITES - WRITERS + i}`));
  expect(kept.every((row) => Buffer.compare(Buffer.from(row.bytes), RECORDING) === 0)).toBe(true);
  expect(statSync(path.join(folder, SQLITE_FILE)).size).toBeGreaterThan(WRITERS * RECORDING.length);
});
