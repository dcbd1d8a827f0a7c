// The PostgreSQL batch runner's own statements (relay/store/batch-pipeline.ts) ride with the next statement of the
// batch: releasing a job's savepoint and opening the next job's go with that job's first statement. If one of them
// fails, the savepoint "job" in force is still the one before the previous job — rolling back to it would undo a job
// already counted as done. So a failed statement of the runner's own ends the whole batch: every job of it gets the
// error and nothing of it is stored. A job that swallows an error of its own statement leaves the transaction
// aborted, which makes the next release fail: the way to reach that path from outside the runner. In-process, on
// the real backend and the run's PostgreSQL server.

import { afterEach, expect, test } from '@jest/globals';
import { sql } from 'kysely';
import type { Backend, RelayDb } from '../../relay/store/backend.js';
import { openPostgres } from '../../relay/store/postgres.js';
import { prepared } from '../../relay/store/prepared.js';
import { createDatabase } from '../helpers/postgres.js';

/** A computer id as the relay makes them (hex: its advisory-lock key is read from its digits). */
const DEVICE = 'a1'.repeat(24);

const insertRecording = prepared((db: RelayDb, deviceId: string, rid: string) =>
  db
    .insertInto('reply_audio')
    .values({ device_id: deviceId, rid, content_type: 'audio/mp4', size: 1, bytes: Buffer.from([1]), created_at: 1 }),
);
const recordings = prepared((db: RelayDb, deviceId: string) =>
  db.selectFrom('reply_audio').select('rid').where('device_id', '=', deviceId).orderBy('rid'),
);

/** How a job's promise settled: its value, or `rejected`. */
const settled = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    (value) => value,
    () => 'rejected',
  );

let store: Backend | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

test("a statement of the runner's own that fails ends the batch: no job is answered as done when its work was undone", async () => {
  store = await openPostgres(await createDatabase());
  const backend = store;

  // Queued in the same turn of the event loop: one batch. The first job writes, then swallows the error of a
  // statement of its own: the transaction is aborted, so the release of its savepoint, sent with the second job's
  // first statement, fails.
  const swallowing = backend.withDeviceLock(DEVICE, async ({ db }) => {
    await insertRecording.run(db, DEVICE, 'r1');
    await sql`select 1 / 0`.execute(db).catch(() => undefined);
    return 'done';
  });
  const next = backend.withDeviceLock(DEVICE, async ({ db }) => {
    await insertRecording.run(db, DEVICE, 'r2');
    return 'done';
  });
  const outcomes = [await settled(swallowing), await settled(next)];
  const stored = (await recordings.all(backend.db, DEVICE)).map((row) => row.rid);

  // Rolled back to the savepoint before the first job, the transaction would commit without r1 while the first
  // job was answered "done". Every job answered as done has its write stored; here, the batch as a whole failed.
  expect({ outcomes, stored }).toEqual({ outcomes: ['rejected', 'rejected'], stored: [] });

  // The connection is sound again: the next batch stores what it writes.
  await expect(backend.withDeviceLock(DEVICE, async ({ db }) => insertRecording.run(db, DEVICE, 'r3'))).resolves.toBe(1);
  expect((await recordings.all(backend.db, DEVICE)).map((row) => row.rid)).toEqual(['r3']);
});

test("a batch's first job runs without a savepoint of its own: if it fails, all it wrote is rolled back and the jobs after it run in the next transaction", async () => {
  store = await openPostgres(await createDatabase());
  const backend = store;

  // A first job that writes and then fails (an error that is no refusal): alone in its transaction, then with a job
  // queued behind it in the same turn of the event loop, which runs in the next transaction.
  const failing = (rid: string) =>
    backend.withDeviceLock(DEVICE, async ({ db }) => {
      await insertRecording.run(db, DEVICE, rid);
      throw new Error(`failed after writing ${rid}`);
    });
  await expect(failing('r1')).rejects.toThrow('failed after writing r1');
  const first = failing('r2');
  const next = backend.withDeviceLock(DEVICE, async ({ db }) => insertRecording.run(db, DEVICE, 'r3'));
  await expect(first).rejects.toThrow('failed after writing r2');
  await expect(next).resolves.toBe(1);

  // A job after the first runs in a savepoint: its failure undoes only its own write.
  const kept = backend.withDeviceLock(DEVICE, async ({ db }) => insertRecording.run(db, DEVICE, 'r4'));
  const undone = failing('r5');
  const last = backend.withDeviceLock(DEVICE, async ({ db }) => insertRecording.run(db, DEVICE, 'r6'));
  expect(await Promise.all([kept, settled(undone), last])).toEqual([1, 'rejected', 1]);
  expect((await recordings.all(backend.db, DEVICE)).map((row) => row.rid)).toEqual(['r3', 'r4', 'r6']);
});
