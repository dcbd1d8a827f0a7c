// The embedded database's group commit (docs/relay.md, "Storage"): requests that queue up together share one
// transaction, each in a savepoint of its own, and inside it the prepared queries run directly on the connection
// rather than through Kysely's executor (relay/store/sqlite.ts, relay/store/prepared.ts). A job that fails, in its
// own code or in a statement, leaves nothing behind and the others of its batch are kept; a prepared query
// answers the same rows and counts inside a batch as outside one. In-process, on the real backend and a real file.

import { afterEach, expect, test } from '@jest/globals';
import type { Backend, RelayDb } from '../../../relay/store/backend.js';
import { prepared } from '../../../relay/store/prepared.js';
import { openSqlite } from '../../../relay/store/sqlite.js';
import { tempFolder } from '../../helpers/daemon.js';

const insertRecording = prepared((db: RelayDb, rid: string, at: number) =>
  db.insertInto('reply_audio').values({ device_id: 'd', rid, content_type: 'audio/mp4', size: 1, bytes: Buffer.from([1]), created_at: at }),
);
const recordings = prepared((db: RelayDb, deviceId: string) =>
  db.selectFrom('reply_audio').select(['rid', 'created_at']).where('device_id', '=', deviceId).orderBy('rid'),
);
const moveRecording = prepared((db: RelayDb, from: number, to: number) =>
  db.updateTable('reply_audio').set({ created_at: to }).where('device_id', '=', 'd').where('created_at', '=', from),
);
/** A write that answers rows (a reader to better-sqlite3). */
const moveRecordingReturning = prepared((db: RelayDb, from: number, to: number) =>
  db.updateTable('reply_audio').set({ created_at: to }).where('device_id', '=', 'd').where('created_at', '=', from).returning('rid'),
);

/**
 * What a promise was rejected with: its message. Not `rejects.toThrow`: better-sqlite3's native part keeps the error
 * class of the first test file that loaded it in this worker, whose `Error` is not this file's.
 */
const rejection = (promise: Promise<unknown>): Promise<string> =>
  promise.then(
    () => 'resolved',
    (error: { message?: unknown }) => String(error.message),
  );

let store: Backend | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

test('in one batch, a job failing in its code or in a statement rolls back alone; prepared queries answer alike inside and outside', async () => {
  store = await openSqlite(await tempFolder('notifier-relay-batch-'));
  const backend = store;
  const handles = new Set<RelayDb>();

  // Queued in the same turn of the event loop: one batch (one transaction handle for all of them).
  const kept = backend.withDeviceLock('d', async ({ db }) => {
    handles.add(db);
    const inserted = await insertRecording.run(db, 'r1', 1);
    return { inserted, seen: await recordings.all(db, 'd') };
  });
  const failedStatement = backend.withDeviceLock('d', async ({ db }) => {
    handles.add(db);
    await insertRecording.run(db, 'r2', 2);
    await insertRecording.run(db, 'r1', 2); // the same key as the first job's: the statement fails
  });
  const failedCode = backend.withDeviceLock('d', async ({ db }) => {
    handles.add(db);
    await insertRecording.run(db, 'r3', 3);
    await moveRecording.run(db, 1, 30);
    throw new Error('the job fails after its writes');
  });
  const after = backend.withDeviceLock('d', async ({ db }) => {
    handles.add(db);
    return {
      seen: await recordings.all(db, 'd'),
      moved: await moveRecording.run(db, 1, 10),
      movedNone: await moveRecording.run(db, 99, 10),
      returned: await moveRecordingReturning.all(db, 10, 11),
      first: await recordings.first(db, 'd'),
    };
  });

  await expect(kept).resolves.toEqual({ inserted: 1, seen: [{ rid: 'r1', created_at: 1 }] });
  expect(await rejection(failedStatement)).toMatch(/UNIQUE constraint failed/);
  expect(await rejection(failedCode)).toBe('the job fails after its writes');
  // Nothing of the two failed jobs: neither r2 nor r3, and r1 not moved to 30.
  await expect(after).resolves.toEqual({
    seen: [{ rid: 'r1', created_at: 1 }],
    moved: 1,
    movedNone: 0,
    returned: [{ rid: 'r1' }],
    first: { rid: 'r1', created_at: 11 },
  });
  expect(handles.size).toBe(1);

  // Committed, and the same through Kysely's executor outside a batch.
  expect(await recordings.all(backend.db, 'd')).toEqual([{ rid: 'r1', created_at: 11 }]);
  expect(await moveRecording.run(backend.db, 11, 12)).toBe(1);
  expect(await moveRecording.run(backend.db, 99, 12)).toBe(0);
  expect(await moveRecordingReturning.all(backend.db, 12, 13)).toEqual([{ rid: 'r1' }]);
  expect(await rejection(insertRecording.run(backend.db, 'r1', 4))).toMatch(/UNIQUE constraint failed/);
});
