// What a notification is checked against besides its key (docs/relay-api.md#ra45, #ra50): the key's rate and
// the computer's queue, read in the same query as the key (auth.ts), so a notify's checks cost one round trip.
// Apart from notes.ts so that auth.ts and requests.ts can use it without importing the notify path.

import { sql, type ExpressionBuilder } from 'kysely';
import type { RelayDb } from '../store/backend.js';
import type { RelayDatabase } from '../store/schema.js';
import { hitBackAt, notifyHitWindowColumn, type HitWindow } from './key-limits.js';
import type { Relay } from './relay.js';

/** RA45: how long a notification waits for the computer. */
export const queueTtlMs = (relay: Relay): number => relay.limits.queueTtlHours * 3600_000;

/**
 * What a notify checks besides the key (RA45, RA50), read in the key's own query (auth.ts, sendingColumns): the
 * time of the key's hit `limit - 1` notifications before its newest, and the computer's waiting and overdue notes.
 */
export interface SendingState {
  hitAt: number | null;
  waiting: number;
  overdue: number;
  /** With SendingQuery.window: the key's hits from the one `back` before its newest on (key-limits.ts). */
  window?: HitWindow | null;
  /**
   * The computer's socket in force (its stream generation; null: none), read under its lock: a new note needs to be
   * announced to other relay processes only when one of them holds that socket (BusMessage `note`).
   */
  stream: number | null;
}

/** What verifyAgentKey needs to read a SendingState: the rate limit less one, and when a waiting note is overdue. */
export interface SendingQuery {
  back: number;
  overdueAt: number;
  /**
   * PostgreSQL, for a group with this many requests of the key (notify-group.ts): the key's hits they check
   * against, read in the same query (SendingState.window).
   */
  window?: number;
}

export const sendingQuery = (relay: Relay, now: number): SendingQuery => ({
  back: relay.limits.rateLimitPerKey - 1,
  overdueAt: now - queueTtlMs(relay),
});

/** RA45: the computer's waiting notes (neither acknowledged nor suppressed). */
export const waitingNotes = (db: RelayDb, deviceId: string) =>
  db.selectFrom('notes').where('device_id', '=', deviceId).where('acked_at', 'is', null).where('suppressed_at', 'is', null);

/** How many of the notes in a query were created at or before `overdueAt`. */
export const overdueCount = (eb: ExpressionBuilder<RelayDatabase, 'notes'>, overdueAt: number) =>
  eb.fn.coalesce(eb.fn.sum<number>(eb.case().when('created_at', '<=', overdueAt).then(1).else(0).end()), sql<number>`0`);

/**
 * The SendingState of each row of `agent_keys` in a query, as four more columns of it (subqueries on the row's
 * key and computer): `back` is the rate limit less one, `overdueAt` the creation time at or before which a
 * waiting note is overdue.
 */
export function sendingColumns(db: RelayDb, back: number, overdueAt: number) {
  const deviceId = sql.ref('agent_keys.device_id') as unknown as string; // the row's, not a value
  const keyId = sql.ref('agent_keys.id') as unknown as string;
  return [
    hitBackAt(db, deviceId, keyId, 'notify', back).as('sending_hit_at'),
    waitingNotes(db, deviceId)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .as('sending_waiting'),
    waitingNotes(db, deviceId)
      .select((eb) => overdueCount(eb, overdueAt).as('n'))
      .as('sending_overdue'),
    db.selectFrom('devices').select('stream_open').where('id', '=', deviceId).as('sending_stream'),
  ];
}

/** sendingColumns and the key's hit window (SendingQuery.window): PostgreSQL only. */
export function sendingWindowColumns(db: RelayDb, back: number, overdueAt: number, count: number) {
  const deviceId = sql.ref('agent_keys.device_id') as unknown as string;
  const keyId = sql.ref('agent_keys.id') as unknown as string;
  return [...sendingColumns(db, back, overdueAt), notifyHitWindowColumn(db, deviceId, keyId, back, count).as('sending_window')];
}
