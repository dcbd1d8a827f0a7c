// A computer's daily counters (docs/relay-api.md#ra51, #ra26): requests, socket frames, notifications, long-poll
// seconds and voice-reply uploads, one row per UTC day. They live in the database and change only inside the
// computer's locked transaction, so every relay process sees the same, exact numbers.

import { sql } from 'kysely';
import { budgetExhausted } from '../../protocol/relay/errors.js';
import type { RelayDb } from '../store/backend.js';
import { prepared, type Prepared } from '../store/prepared.js';
import type { UsageRow } from '../store/schema.js';
import type { Relay } from './relay.js';
import { secondsToMidnightUTC, utcDay } from './time.js';

export type Counter = 'requests' | 'ws_messages' | 'notifications' | 'poll_seconds' | 'audio_uploads' | 'audio_bytes';

type AddTo = Prepared<[string, string, number], UsageRow>;
const adders = new Map<Counter, { update: AddTo; upsert: AddTo }>();

/** The two queries that add to one counter: an update of today's row, and an upsert for the day's first. */
function addersOf(counter: Counter): { update: AddTo; upsert: AddTo } {
  let found = adders.get(counter);
  if (!found) {
    const added = (amount: number) => sql<number>`${sql.ref(`usage_days.${counter}`)} + ${amount}`;
    found = {
      update: prepared((db: RelayDb, deviceId: string, day: string, amount: number) =>
        db
          .updateTable('usage_days')
          .set({ [counter]: added(amount) } as Record<Counter, never>)
          .where('device_id', '=', deviceId)
          .where('day', '=', day)
          .returningAll(),
      ),
      upsert: prepared((db: RelayDb, deviceId: string, day: string, amount: number) =>
        db
          .insertInto('usage_days')
          .values({ ...emptyDay(deviceId, 0), day, [counter]: amount })
          .onConflict((oc) => oc.columns(['device_id', 'day']).doUpdateSet({ [counter]: added(amount) } as Record<Counter, never>))
          .returningAll(),
      ),
    };
    adders.set(counter, found);
  }
  return found;
}

/** Adds to one of today's counters and returns today's counters after it. */
export async function addUsage(db: RelayDb, deviceId: string, now: number, counter: Counter, amount = 1): Promise<UsageRow> {
  const { update, upsert } = addersOf(counter);
  const day = utcDay(now);
  // Today's row usually exists: updating it is cheaper than an insert that turns into an update.
  return (await update.first(db, deviceId, day, amount)) ?? (await upsert.first(db, deviceId, day, amount))!;
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

/** Today's counters (all zero before the first). */
export async function usageToday(db: RelayDb, deviceId: string, now: number): Promise<UsageRow> {
  const row = await db.selectFrom('usage_days').selectAll().where('device_id', '=', deviceId).where('day', '=', utcDay(now)).executeTakeFirst();
  return row ?? emptyDay(deviceId, now);
}

/**
 * RA51: every agent request, and every device request but the stream and the usage route, counts against the
 * computer's daily budget. Once it is spent, agent requests are refused (503) until midnight UTC; the
 * computer itself can still connect and drain its queue (`refuse: false`).
 */
export async function countRequest(db: RelayDb, relay: Relay, deviceId: string, now: number, refuse: boolean): Promise<UsageRow> {
  const today = await addUsage(db, deviceId, now, 'requests');
  if (refuse && today.requests > relay.limits.deviceRequestsPerDay) throw budgetExhausted(secondsToMidnightUTC(now));
  return today;
}

/**
 * What the original's desktop shows as its plan's request allowance. This relay has no plan: the value is kept
 * so the usage answer keeps its shape (RA26), and means nothing here.
 */
const FREE_PLAN_REQUESTS_PER_DAY = 100_000;

/** A rough size of what the relay keeps for a computer: positive once anything is stored (RA26). */
async function storageEstimate(db: RelayDb, deviceId: string): Promise<number> {
  const notes = await db
    .selectFrom('notes')
    .select((eb) => [
      eb.fn.countAll<number>().as('rows'),
      eb.fn.coalesce(eb.fn.sum<number>(sql`length(payload) + coalesce(length(reply_text), 0) + coalesce(length(transcript), 0)`), sql<number>`0`).as('text'),
      eb.fn.coalesce(eb.fn.sum<number>('audio_size'), sql<number>`0`).as('audio'),
    ])
    .where('device_id', '=', deviceId)
    .executeTakeFirstOrThrow();
  const keys = await db.selectFrom('agent_keys').select((eb) => eb.fn.countAll<number>().as('rows')).where('device_id', '=', deviceId).executeTakeFirstOrThrow();
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
