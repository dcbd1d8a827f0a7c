// A computer's daily counters (docs/relay-api.md#ra51, #ra26): requests, socket frames, notifications, long-poll
// seconds and voice-reply uploads, one row per UTC day. They live in the database and change only inside the
// computer's locked transaction, so every relay process sees the same, exact numbers.

import { sql } from 'kysely';
import { budgetExhausted } from '../../protocol/relay/errors.js';
import type { RelayDb } from '../store/backend.js';
import { combinesWrites, prepared, runWrites, write, type Prepared, type Write } from '../store/prepared.js';
import type { UsageRow } from '../store/schema.js';
import type { Relay } from './relay.js';
import { secondsToMidnightUTC, utcDay } from './time.js';

export type Counter = 'requests' | 'ws_messages' | 'notifications' | 'poll_seconds' | 'audio_uploads' | 'audio_bytes';

/** Amounts to add to some of today's counters. */
export type Counts = Partial<Record<Counter, number>>;

type AddTo = Prepared<[string, string, ...number[]], unknown>;
const adders = new Map<string, { update: AddTo; upsert: AddTo }>();

/**
 * The two queries that add to some counters at once: an update of today's row, and an upsert for the day's
 * first. One pair per set of counters (the relay uses a handful).
 */
function addersOf(counters: Counter[]): { update: AddTo; upsert: AddTo } {
  const name = counters.join(' ');
  let found = adders.get(name);
  if (!found) {
    const added = (amounts: number[]) =>
      Object.fromEntries(
        counters.map((counter, i) => [counter, sql<number>`${sql.ref(`usage_days.${counter}`)} + ${amounts[i]}`]),
      ) as Record<Counter, never>;
    const arity = 2 + counters.length;
    found = {
      update: prepared(
        (db: RelayDb, deviceId: string, day: string, ...amounts: number[]) =>
          db.updateTable('usage_days').set(added(amounts)).where('device_id', '=', deviceId).where('day', '=', day),
        arity,
      ),
      upsert: prepared(
        (db: RelayDb, deviceId: string, day: string, ...amounts: number[]) =>
          db
            .insertInto('usage_days')
            .values({ ...emptyDay(deviceId, 0), day, ...Object.fromEntries(counters.map((counter, i) => [counter, amounts[i]])) })
            .onConflict((oc) => oc.columns(['device_id', 'day']).doUpdateSet(added(amounts))),
        arity,
      ),
    };
    adders.set(name, found);
  }
  return found;
}

/**
 * Adds to today's counters, in one statement — with the request's other writes (`alongside`, none of which
 * touches the counters) where the database can take them all in one (runWrites).
 */
export async function addUsage(db: RelayDb, deviceId: string, now: number, counts: Counts, alongside: Write[] = []): Promise<void> {
  const counters = (Object.keys(counts) as Counter[]).sort();
  const amounts = counters.map((counter) => counts[counter]!);
  const { update, upsert } = addersOf(counters);
  const day = utcDay(now);
  if (combinesWrites(db)) return runWrites(db, [...alongside, write(upsert, deviceId, day, ...amounts)]);
  await runWrites(db, alongside);
  // Today's row usually exists: updating it is cheaper than an insert that turns into an update.
  if ((await update.run(db, deviceId, day, ...amounts)) === 0) await upsert.run(db, deviceId, day, ...amounts);
}

type AddToEach = Prepared<[string, string[], ...number[][]], unknown>;
const eachAdders = new Map<string, AddToEach>();

/** The statement that adds to some counters of several computers at once (PostgreSQL: arrays, one per column). */
function eachAdderOf(counters: Counter[]): AddToEach {
  const name = counters.join(' ');
  let found = eachAdders.get(name);
  if (!found) {
    const columns = sql.join(counters.map((counter) => sql.ref(`t.${counter}`)));
    const added = Object.fromEntries(
      counters.map((counter) => [counter, sql<number>`${sql.ref(`usage_days.${counter}`)} + ${sql.ref(`excluded.${counter}`)}`]),
    ) as Record<Counter, never>;
    found = prepared(
      (db: RelayDb, day: string, deviceIds: string[], ...amounts: number[][]) =>
        db
          .insertInto('usage_days')
          .columns(['device_id', 'day', ...counters])
          .expression(
            sql<never>`select t.device_id, cast(${day} as text), ${columns}
              from unnest(cast(${deviceIds} as text[]), ${sql.join(amounts.map((column) => sql`cast(${column} as bigint[])`))})
              as t(device_id, ${sql.join(counters.map((counter) => sql.id(counter)))})`,
          )
          .onConflict((oc) => oc.columns(['device_id', 'day']).doUpdateSet(added)),
      2 + counters.length,
    );
    eachAdders.set(name, found);
  }
  return found;
}

/**
 * addUsage for several computers (`counts` by computer id, each naming the same counters): on PostgreSQL one
 * statement for all, with `alongside` (a group of notifications of several computers, notify-group.ts).
 */
export async function addUsages(db: RelayDb, now: number, counts: Map<string, Counts>, alongside: Write[]): Promise<void> {
  const each = [...counts];
  if (each.length === 1) return addUsage(db, each[0]![0], now, each[0]![1], alongside);
  if (!combinesWrites(db)) {
    await runWrites(db, alongside);
    for (const [deviceId, amounts] of each) await addUsage(db, deviceId, now, amounts);
    return;
  }
  const counters = (Object.keys(each[0]![1]) as Counter[]).sort();
  const amounts = counters.map((counter) => each.map(([, of]) => of[counter]!));
  const deviceIds = each.map(([deviceId]) => deviceId);
  await runWrites(db, [...alongside, write(eachAdderOf(counters), utcDay(now), deviceIds, ...amounts)]);
}

const emptyDay = (deviceId: string, now: number): UsageRow => ({
  device_id: deviceId,
  day: utcDay(now),
  requests: 0,
  ws_messages: 0,
  notifications: 0,
  poll_seconds: 0,
  audio_uploads: 0,
  audio_bytes: 0,
});

const selectDay = prepared((db: RelayDb, deviceId: string, day: string) =>
  db.selectFrom('usage_days').selectAll().where('device_id', '=', deviceId).where('day', '=', day),
);

/** Today's counters (all zero before the first). */
export async function usageToday(db: RelayDb, deviceId: string, now: number): Promise<UsageRow> {
  return (await selectDay.first(db, deviceId, utcDay(now))) ?? emptyDay(deviceId, now);
}

/** RA51: whether the computer's daily request budget has no room for one more request. */
export function budgetSpent(relay: Relay, today: UsageRow): boolean {
  return today.requests + 1 > relay.limits.deviceRequestsPerDay;
}

/** RA51: the wait named when the budget is spent: until midnight UTC. */
export const budgetRefusal = (now: number) => budgetExhausted(secondsToMidnightUTC(now));

/**
 * A hosting plan's request allowance, which desktop clients of this API read. This relay has no plan: the value
 * is kept so the usage answer keeps its shape (RA26), and means nothing here.
 */
const FREE_PLAN_REQUESTS_PER_DAY = 100_000;

/** A rough size of what the relay keeps for a computer: positive once anything is stored (RA26). */
async function storageEstimate(db: RelayDb, deviceId: string): Promise<number> {
  const notes = await db
    .selectFrom('notes')
    .select((eb) => [
      eb.fn.countAll<number>().as('rows'),
      eb.fn
        .coalesce(
          eb.fn.sum<number>(sql`length(payload) + coalesce(length(reply_text), 0) + coalesce(length(transcript), 0)`),
          sql<number>`0`,
        )
        .as('text'),
      eb.fn.coalesce(eb.fn.sum<number>('audio_size'), sql<number>`0`).as('audio'),
    ])
    .where('device_id', '=', deviceId)
    .executeTakeFirstOrThrow();
  const keys = await db
    .selectFrom('agent_keys')
    .select((eb) => eb.fn.countAll<number>().as('rows'))
    .where('device_id', '=', deviceId)
    .executeTakeFirstOrThrow();
  const ROW_BYTES = 200; // a row's own fields and index entries, roughly
  return ROW_BYTES * (1 + Number(notes.rows) + Number(keys.rows)) + Number(notes.text) + Number(notes.audio);
}

/** `GET /v1/device/usage` (RA26). */
export async function usageView(relay: Relay, db: RelayDb, deviceId: string, queued: number, now: number) {
  const today = await usageToday(db, deviceId, now);
  const limits = relay.limits;
  return {
    day: today.day,
    requests: today.requests,
    wsMessages: today.ws_messages,
    notifications: today.notifications,
    pollSeconds: today.poll_seconds,
    audioUploads: today.audio_uploads,
    audioBytes: today.audio_bytes,
    queued,
    storageBytes: await storageEstimate(db, deviceId),
    limits: {
      audioUploadsPerDay: limits.deviceAudioUploadsPerDay,
      audioBytesPerDay: limits.deviceAudioBytesPerDay,
      requestsPerDay: limits.deviceRequestsPerDay,
      freePlanRequestsPerDay: FREE_PLAN_REQUESTS_PER_DAY,
      notificationsPerDay: limits.deviceNotificationsPerDay,
      pollSecondsPerDay: limits.devicePollSecondsPerDay,
      queueMax: limits.deviceQueueMax,
    },
    requestsPercent: Math.min(100, Math.round((today.requests / limits.deviceRequestsPerDay) * 1000) / 10),
    budgetExhausted: today.requests >= limits.deviceRequestsPerDay,
  };
}
