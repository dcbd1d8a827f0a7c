// Reply events (docs/relay-api.md#ra207, #ra208): the first answer to a notification is numbered and kept for 30
// days, and queued in the outbox for each subscription of the connector that sent the notification — in the
// transaction that stores the answer, so an answer never exists without its event, nor an event without its
// deliveries. The outbox (core/outbox.ts) sends them.

import type { DeviceTx, RelayDb } from '../store/backend.js';
import { prepared } from '../store/prepared.js';
import { deleteUpTo } from '../store/queries.js';
import type { NoteRow } from '../store/schema.js';
import { EVENT_KEEP_MS, MAX_DELIVERY_AGE_MS, MAX_REPLAY_EVENTS } from '../limits.js';
import { replyEventsQueued } from '../metrics.js';
import { iso } from './time.js';

/** RA200: the one event there is. */
export const REPLY_EVENT = 'notification.reply';

export type ReplyKind = 'text' | 'voice';

export interface ReplyEvent {
  seq: number;
  rid: string;
  nid: string;
  kind: ReplyKind;
  at: number;
}

/** RA207: `evt_`, the event's number, `_`, and the subscription's id without `sub_`. */
export const eventId = (seq: number, subscriptionId: string): string => `evt_${seq}_${subscriptionId.slice('sub_'.length)}`;

/** RA207: the body of a delivery: ids only, never the answer itself. */
export function eventBody(event: ReplyEvent, subscriptionId: string): string {
  return JSON.stringify({
    eventId: eventId(event.seq, subscriptionId),
    name: REPLY_EVENT,
    timestamp: iso(event.at),
    data: { notificationId: event.nid, id: event.rid, kind: event.kind },
    cursor: String(event.seq),
  });
}

const nextSeq = prepared((db: RelayDb, deviceId: string) =>
  db
    .updateTable('devices')
    .set((eb) => ({ event_seq: eb('event_seq', '+', 1) }))
    .where('id', '=', deviceId)
    .returning('event_seq'),
);

const insertEvent = prepared(
  (db: RelayDb, device_id: string, seq: number, key_id: string, rid: string, nid: string, kind: ReplyKind, at: number) =>
    db.insertInto('reply_events').values({ device_id, seq, key_id, rid, nid, kind, at }),
);

const keySubscriptions = prepared((db: RelayDb, deviceId: string, keyId: string, event: string) =>
  db.selectFrom('event_subs').select('id').where('device_id', '=', deviceId).where('key_id', '=', keyId).where('event', '=', event),
);

/**
 * RA207: the person answered `note` for the first time (inside the transaction that stores the answer): the
 * event is numbered and kept, and queued for every subscription of the note's connector.
 */
export async function recordReplyEvent(tx: DeviceTx, note: NoteRow, kind: ReplyKind, now: number): Promise<void> {
  const { event_seq: seq } = (await nextSeq.first(tx.db, note.device_id))!;
  const event: ReplyEvent = { seq, rid: note.rid, nid: note.nid, kind, at: now };
  await insertEvent.run(tx.db, note.device_id, seq, note.key_id, note.rid, note.nid, kind, now);
  const subscriptions = await keySubscriptions.all(tx.db, note.device_id, note.key_id, REPLY_EVENT);
  await queueEvents(tx, note.device_id, subscriptions, [event], now);
}

const queueEvent = prepared((db: RelayDb, id: string, device_id: string, sub_id: string, seq: number, payload: string, now: number) =>
  db
    .insertInto('event_outbox')
    .values({ id, device_id, sub_id, seq, payload, attempts: 0, next_at: now, claimed_until: null, created_at: now })
    .onConflict((oc) => oc.column('id').doNothing()),
);

/**
 * Queues events for subscriptions (an event already waiting for one is not queued twice) and wakes the outbox. A
 * row at a time: one SQL text, whatever the number of rows (relay/store/sqlite.ts keeps a statement per text).
 */
async function queueEvents(tx: DeviceTx, deviceId: string, subscriptions: { id: string }[], events: ReplyEvent[], now: number) {
  if (subscriptions.length === 0 || events.length === 0) return;
  for (const sub of subscriptions)
    for (const event of events)
      await queueEvent.run(tx.db, eventId(event.seq, sub.id), deviceId, sub.id, event.seq, eventBody(event, sub.id), now);
  replyEventsQueued.inc(subscriptions.length * events.length);
  tx.publish({ t: 'outbox' });
}

/** What `events/subscribe` answers about the events (RA208). */
export interface ReplayOutcome {
  cursor: string;
  truncated: boolean;
}

/** RA208: a cursor is 1 to 15 digits; anything else is ignored. */
const CURSOR = /^\d{1,15}$/;

/**
 * RA208: with a cursor, the connector's later events (up to 100, oldest first) are queued for the subscription.
 * The cursor answered is the newest of the connector's events sent or now queued for it — but not past the last
 * one replayed when the replay stopped at 100, nor past an event queued for it earlier that still waits.
 */
export async function replayAndCursor(
  tx: DeviceTx,
  sub: { id: string; device_id: string; key_id: string },
  cursor: unknown,
  now: number,
): Promise<ReplayOutcome> {
  const waiting = await tx.db
    .selectFrom('event_outbox')
    .select((eb) => eb.fn.min<number>('seq').as('seq'))
    .where('sub_id', '=', sub.id)
    .executeTakeFirst();
  const stillWaiting = waiting?.seq == null ? Infinity : Number(waiting.seq);
  let truncated = false;
  let lastReplayed = Infinity;
  if (typeof cursor === 'string' && CURSOR.test(cursor)) {
    const after = Number(cursor);
    const events = await tx.db
      .selectFrom('reply_events')
      .select(['seq', 'rid', 'nid', 'kind', 'at'])
      .where('device_id', '=', sub.device_id)
      .where('key_id', '=', sub.key_id)
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(MAX_REPLAY_EVENTS)
      .execute();
    await queueEvents(tx, sub.device_id, [sub], events, now);
    if (events.length === MAX_REPLAY_EVENTS) lastReplayed = events.at(-1)!.seq;
    truncated = (await oldestKeptSeq(tx.db, sub.device_id)) > after + 1;
  }
  const newest = await tx.db
    .selectFrom('reply_events')
    .select((eb) => eb.fn.max<number>('seq').as('seq'))
    .where('device_id', '=', sub.device_id)
    .where('key_id', '=', sub.key_id)
    .executeTakeFirst();
  return { cursor: String(Math.min(Number(newest?.seq ?? 0), lastReplayed, stillWaiting - 1)), truncated };
}

/** The computer's oldest kept event's number, or the next number when none is kept. */
async function oldestKeptSeq(db: RelayDb, deviceId: string): Promise<number> {
  const oldest = await db
    .selectFrom('reply_events')
    .select((eb) => eb.fn.min<number>('seq').as('seq'))
    .where('device_id', '=', deviceId)
    .executeTakeFirst();
  if (oldest?.seq != null) return Number(oldest.seq);
  const device = await db.selectFrom('devices').select('event_seq').where('id', '=', deviceId).executeTakeFirst();
  return Number(device?.event_seq ?? 0) + 1;
}

/**
 * RA208, RA210: events older than 30 days, and deliveries queued more than 24 hours ago, are deleted (the outbox
 * gives up such a delivery when it comes to it; this catches those it never reached). No lock: nothing reads
 * rows this old.
 */
export async function deleteOldEvents(db: RelayDb, now: number): Promise<void> {
  await deleteUpTo(db, 'reply_events', 'at', now - EVENT_KEEP_MS);
  await db
    .deleteFrom('event_outbox')
    .where('created_at', '<=', now - MAX_DELIVERY_AGE_MS)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
    .execute();
}
