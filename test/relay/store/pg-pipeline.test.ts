// The PostgreSQL batch runner's own statements (relay/store/batch-pipeline.ts) ride with the next statement of the
// batch: releasing a job's savepoint and opening the next job's go with that job's first statement. If one of them
// fails, the savepoint "job" in force is still the one before the previous job — rolling back to it would undo a job
// already counted as done. So a failed statement of the runner's own ends the whole batch: every job of it gets the
// error and nothing of it is stored. A job that swallows an error of its own statement leaves the transaction
// aborted, which makes the next release fail: the way to reach that path from outside the runner. In-process, on
// the real backend and the run's PostgreSQL server.
//
// The other way round, a transaction's NOTIFY and COMMIT ride after the last write of a group (JobGroup) when no job
// waits after it: the write answers committed, or — if it fails — the transaction is still open and its jobs run one
// by one; a COMMIT that fails with it ends the batch.

import { afterEach, expect, test } from '@jest/globals';
import { sql } from 'kysely';
import pg from 'pg';
import type { Backend, BusMessage, JobGroup, RelayDb } from '../../../relay/store/backend.js';
import { openPostgres } from '../../../relay/store/postgres.js';
import { prepared } from '../../../relay/store/prepared.js';
import { waitFor } from '../../../rigs/wait.js';
import { createDatabase } from '../../helpers/postgres.js';

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

/** A group whose run writes one recording per input in one statement (its last), after `before`. */
function recordingGroup(
  before: (db: RelayDb) => Promise<void> = async () => undefined,
  after: () => Promise<void> = async () => undefined,
) {
  const seen = { offered: false };
  const group: JobGroup = {
    run: async (db, inputs, lastWrite) => {
      await before(db);
      const rids = inputs as string[];
      const messagesOf = (rid: string): BusMessage[] => [{ t: 'receipt', d: DEVICE, r: rid }];
      seen.offered = lastWrite !== undefined;
      lastWrite?.(rids.flatMap(messagesOf));
      await sql`insert into reply_audio (device_id, rid, content_type, size, bytes, created_at)
        select ${DEVICE}, rid, 'audio/mp4', 1, '\x01', 1 from unnest(cast(${rids} as text[])) as rid`.execute(db);
      await after();
      return rids.map((rid) => ({ value: 'grouped', messages: messagesOf(rid) }));
    },
  };
  /** A job of the group: alone (when the group does not run), it writes its own recording. */
  const job = (rid: string) =>
    backend()!.withDeviceLock(DEVICE, async ({ db }) => (await insertRecording.run(db, DEVICE, rid), 'alone'), { group, input: rid });
  return { job, seen };
}

const backend = () => store;
const stored = async () => (await recordings.all(store!.db, DEVICE)).map((row) => row.rid);

test('a group with no job waiting after it ends its transaction with its last write: committed and notified when the write answers', async () => {
  const url = await createDatabase();
  store = await openPostgres(url);
  const listener = new pg.Client({ connectionString: url });
  await listener.connect();
  const heard: string[] = [];
  listener.on('notification', (message) => heard.push(message.payload ?? ''));
  await listener.query('listen notifier_relay');
  try {
    // Seen from another connection right after the write answered (inside the group): committed already.
    let seenAfterWrite: string[] = [];
    const { job, seen } = recordingGroup(undefined, async () => {
      seenAfterWrite = await stored();
    });
    expect(await Promise.all([job('g1'), job('g2')])).toEqual(['grouped', 'grouped']);
    expect(seen.offered).toBe(true);
    expect(seenAfterWrite).toEqual(['g1', 'g2']);
    await waitFor(() => heard.length > 1 || undefined, 'the NOTIFY sent with the COMMIT');
    expect(heard.map((payload) => (JSON.parse(payload) as { r: string }).r)).toEqual(['g1', 'g2']);
  } finally {
    await listener.end();
  }
});

test('a job that waits when the group writes keeps the transaction open: it runs in the same one, which commits after it', async () => {
  store = await openPostgres(await createDatabase());
  let groupTx: unknown;
  let seenAfterWrite: string[] = ['not read'];
  let later: Promise<unknown> | undefined;
  const { job } = recordingGroup(
    async (db) => {
      groupTx = (await sql<{ tx: string }>`select txid_current() as tx`.execute(db)).rows[0]!.tx;
      // Queued behind the group while it runs: it joins this transaction.
      later = store!.withDeviceLock(DEVICE, async ({ db: jobDb }) => {
        await insertRecording.run(jobDb, DEVICE, 'j1');
        return (await sql<{ tx: string }>`select txid_current() as tx`.execute(jobDb)).rows[0]!.tx;
      });
    },
    async () => {
      seenAfterWrite = await stored();
    },
  );
  expect(await Promise.all([job('g1'), job('g2')])).toEqual(['grouped', 'grouped']);
  expect(await later).toBe(groupTx);
  expect(seenAfterWrite).toEqual([]); // not committed when the group's write answered
  expect(await stored()).toEqual(['g1', 'g2', 'j1']);
});

test("a group's last write that fails with the COMMIT behind it leaves the transaction open: its jobs run one by one, each stored or failing alone", async () => {
  store = await openPostgres(await createDatabase());
  await store.withDeviceLock(DEVICE, async ({ db }) => insertRecording.run(db, DEVICE, 'taken'));
  const { job, seen } = recordingGroup();
  // The group's statement writes 'taken' again: the primary key refuses it, and the COMMIT after it does not run.
  const outcomes = await Promise.all([settled(job('a1')), settled(job('taken')), settled(job('a2'))]);
  expect(seen.offered).toBe(true);
  expect(outcomes).toEqual(['alone', 'rejected', 'alone']);
  expect(await stored()).toEqual(['a1', 'a2', 'taken']);
});

test('a COMMIT that fails with the last write ends the batch: no job is answered as done, nothing is stored, the next batch works', async () => {
  store = await openPostgres(await createDatabase());
  // Checked at COMMIT (deferred): a recording named 'refused' makes the commit fail.
  await sql
    .raw(
      `create function refuse_at_commit() returns trigger language plpgsql as $$ begin
         if new.rid = 'refused' then raise exception 'refused at commit'; end if; return new; end $$;
       create constraint trigger refuse_at_commit after insert on reply_audio deferrable initially deferred
         for each row execute function refuse_at_commit();`,
    )
    .execute(store.db);
  const { job, seen } = recordingGroup();
  const outcomes = await Promise.all([settled(job('c1')), settled(job('refused'))]);
  expect(seen.offered).toBe(true);
  expect({ outcomes, stored: await stored() }).toEqual({ outcomes: ['rejected', 'rejected'], stored: [] });
  expect(await Promise.all([job('c2'), job('c3')])).toEqual(['grouped', 'grouped']);
  expect(await stored()).toEqual(['c2', 'c3']);
});
