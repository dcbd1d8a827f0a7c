// Notifications on their way to the computer (docs/relay-api.md#ra40 to #ra47): an agent's notify, the waiting
// queue, the computer's acks and receipts, and expiry. Everything here runs inside the computer's locked
// transaction, so the checks of one notify cannot interleave with another's.

import { TOO_LARGE, type BoundedBody } from '../../common/bounded-body.js';
import { dailyCap, invalidJSON, invalidRequest, notFound, queueFull, rateLimited, tooLarge } from '../../protocol/relay/errors.js';
import type { NotifyFrame } from '../../protocol/relay/frames.js';
import {
  checkNotifyBodySize,
  checkShowAt,
  cleanNotification,
  maxNotifyRequestBytes,
  type NotifyPayload,
} from '../../protocol/relay/notify.js';
import type { ReceiptInput } from '../../protocol/relay/receipts.js';
import type { DeviceTx, RelayDb } from '../store/backend.js';
import { countRows, deleteUpTo, oneOf } from '../store/queries.js';
import { combinesWrites, prepared, write, type Write } from '../store/prepared.js';
import type { KeyRow, NoteRow } from '../store/schema.js';
import { NOTE_DELETE_GRACE_MS, NOTIFICATION_ID_WINDOW_MS, RATE_WINDOW_MS } from '../limits.js';
import { newRelayNoteId, newSenderNoteId } from './credentials.js';
import { keyHit, waitAfter } from './key-limits.js';
import { recordReplyEvent } from './reply-events.js';
import type { Relay } from './relay.js';
import { iso, secondsToMidnightUTC } from './time.js';
import type { AgentStep } from './requests.js';
import { overdueCount, queueTtlMs, waitingNotes, type SendingState } from './sending.js';

/** RA45 (sending.ts): stream.ts and housekeeping.ts take it from here, with the rest of the queue's rules. */
export { queueTtlMs };

/** A new note's receipt fields: nothing happened yet. */
const EMPTY_RECEIPT = {
  acked_at: null,
  displayed_at: null,
  spoken_at: null,
  replied_at: null,
  reply_text: null,
  transcript: null,
  duration_seconds: null,
  audio_size: null,
  suppressed_at: null,
  suppressed_reason: null,
  suppressed_scope: null,
} as const;

export interface NotifyOutcome {
  duplicate: boolean;
  note: NoteRow;
}

/**
 * `POST /v1/notify` after the budget (RA40 to RA45), in the order of RA50: size, JSON, size without the icon,
 * whitelist, dedupe, per-key rate, daily cap, expiry, queue full; then the note is stored and pushed.
 */
export async function notify(relay: Relay, step: AgentStep, body: BoundedBody): Promise<NotifyOutcome> {
  const { tx, now, key } = step;
  const payload = readNotification(relay, body);
  const earlier = payload.notificationId === undefined ? undefined : await findKeyNote(tx.db, key, payload.notificationId);
  const decided = await decideNotify(relay, step, payload, earlier, {
    freeId: (note) => deleteNote(tx.db, key.device_id, note.rid),
    expireOverdue: () => expireWaiting(relay, tx, key.device_id, now),
  });
  if (decided.duplicate) return decided;
  const { note, frame } = decided;
  // Written when the step ends, with the counters: nothing after this reads them back.
  step.later(write(insertNote, note.device_id, note.rid, note.key_id, note.nid, note.payload, note.expect_reply, note.created_at));
  step.later(keyHit(key, 'notify', now));
  step.count('notifications');
  tx.publish({ t: 'note', d: note.device_id, r: note.rid, frame, g: step.sending!.stream });
  return { duplicate: false, note };
}

/** The two rare turns of a notify that write at once (notify-group.ts leaves them to the one-by-one path). */
export interface NotifyRareWrites {
  /** Deletes the key's note with this notificationId, older than 24 hours: the id is free again (RA44). */
  freeId(earlier: NoteRow): Promise<void>;
  /** Suppresses the computer's overdue notes as expired (RA45). */
  expireOverdue(): Promise<void>;
}

/** What a notify comes to: a duplicate of the key's earlier note, or a new note and its frame, to store and push. */
export type NotifyDecision = { duplicate: true; note: NoteRow } | { duplicate: false; note: NoteRow; frame: NotifyFrame };

/**
 * The checks of a notify after its payload is read (RA44, RA45, RA50), given the key's note with the same
 * notificationId (`earlier`, any age), and the new note when they pass. Throws the refusal otherwise.
 */
export async function decideNotify(
  relay: Relay,
  step: Pick<AgentStep, 'now' | 'key' | 'today' | 'sending'>,
  payload: NotifyPayload,
  earlier: NoteRow | undefined,
  rare: NotifyRareWrites,
): Promise<NotifyDecision> {
  const { now, key } = step;
  const nid = payload.notificationId ?? newSenderNoteId();

  if (!step.sending) throw new Error('notify needs the sending checks read with the key (agentStep option `sending`)');
  const queue = { ...step.sending };
  if (earlier && earlier.created_at > now - NOTIFICATION_ID_WINDOW_MS) return { duplicate: true, note: earlier };
  if (earlier) {
    await rare.freeId(earlier); // older than 24 h: the id is free again
    if (isWaiting(earlier)) queue.waiting -= 1; // the queue was read with the key, before this
    if (isWaiting(earlier) && earlier.created_at <= now - queueTtlMs(relay)) queue.overdue -= 1;
  }

  checkSendingLimits(relay, step, queue);
  if (queue.overdue > 0) await rare.expireOverdue();
  if (queue.waiting - queue.overdue >= relay.limits.deviceQueueMax) throw queueFull(relay.limits.deviceQueueMax);

  const note: NoteRow = {
    ...EMPTY_RECEIPT,
    device_id: key.device_id,
    rid: newRelayNoteId(),
    key_id: key.id,
    nid,
    payload: JSON.stringify(payload),
    expect_reply: payload.expectReply ? 1 : 0,
    created_at: now,
  };
  const frame: NotifyFrame = {
    type: 'notify',
    id: note.rid,
    notificationId: nid,
    createdAt: iso(now),
    key: { id: key.id, name: key.name, client: key.client },
    payload,
  };
  return { duplicate: false, note, frame };
}

/** RA40-RA44b: the body as a checked notification. */
export function readNotification(relay: Relay, body: BoundedBody): NotifyPayload {
  if (body === TOO_LARGE) throw tooLarge('the notification', maxNotifyRequestBytes(relay.limits.maxBodyBytes));
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw invalidJSON();
  }
  checkNotifyBodySize(body.length, parsed, relay.limits.maxBodyBytes);
  const payload = cleanNotification(parsed);
  checkShowAt(payload, relay.clock());
  return payload;
}

/** RA50: the per-key rate, then the computer's daily cap. */
function checkSendingLimits(relay: Relay, { now, today }: Pick<AgentStep, 'now' | 'today'>, sending: SendingState): void {
  const limit = relay.limits.rateLimitPerKey;
  const wait = waitAfter(sending.hitAt, RATE_WINDOW_MS, now);
  if (wait !== undefined) throw rateLimited(`at most ${limit} notifications per key in 10 minutes`, wait);
  if (today.notifications >= relay.limits.deviceNotificationsPerDay) {
    throw dailyCap(`at most ${relay.limits.deviceNotificationsPerDay} notifications per computer per day (UTC)`, secondsToMidnightUTC(now));
  }
}

/** Whether a note counts in the queue (RA45): neither acknowledged nor suppressed. */
const isWaiting = (note: NoteRow): boolean => note.acked_at === null && note.suppressed_at === null;

const selectQueue = prepared((db: RelayDb, deviceId: string, overdueAt: number) =>
  waitingNotes(db, deviceId).select((eb) => [eb.fn.countAll<number>().as('waiting'), overdueCount(eb, overdueAt).as('overdue')]),
);

/** RA45: how many notes wait (neither acknowledged nor suppressed), and how many of them are overdue. */
async function queueState(db: RelayDb, deviceId: string, overdueAt: number): Promise<{ waiting: number; overdue: number }> {
  const row = (await selectQueue.first(db, deviceId, overdueAt))!;
  return { waiting: Number(row.waiting), overdue: Number(row.overdue) };
}

const insertNote = prepared(
  (db: RelayDb, device_id: string, rid: string, key_id: string, nid: string, payload: string, expect_reply: number, created_at: number) =>
    db.insertInto('notes').values({ ...EMPTY_RECEIPT, device_id, rid, key_id, nid, payload, expect_reply, created_at }),
);

/** RA44: the key's notification with this notificationId (any age; the caller applies the 24-hour window). */
async function findKeyNote(db: RelayDb, key: Pick<KeyRow, 'device_id' | 'id'>, nid: string): Promise<NoteRow | undefined> {
  return selectKeyNote.first(db, key.device_id, key.id, nid);
}

const selectKeyNote = prepared((db: RelayDb, deviceId: string, keyId: string, nid: string) =>
  db.selectFrom('notes').selectAll().where('device_id', '=', deviceId).where('key_id', '=', keyId).where('nid', '=', nid),
);

/** RA46: what receipt and reply reads find: the key's notification of the last 24 hours, else 404. */
export async function readableNote(db: RelayDb, key: Pick<KeyRow, 'device_id' | 'id'>, nid: string, now: number): Promise<NoteRow> {
  const note = await findKeyNote(db, key, nid);
  if (!note || note.created_at <= now - NOTIFICATION_ID_WINDOW_MS)
    throw notFound('no notification with this id from this key in the last 24 hours');
  return note;
}

export async function findNote(db: RelayDb, deviceId: string, rid: string): Promise<NoteRow | undefined> {
  return db.selectFrom('notes').selectAll().where('device_id', '=', deviceId).where('rid', '=', rid).executeTakeFirst();
}

async function deleteNote(db: RelayDb, deviceId: string, rid: string): Promise<void> {
  await db.deleteFrom('reply_audio').where('device_id', '=', deviceId).where('rid', '=', rid).execute();
  await db.deleteFrom('notes').where('device_id', '=', deviceId).where('rid', '=', rid).execute();
}

/** RA45: notes neither acknowledged nor suppressed: the queue the computer still has to take. */
export async function waitingCount(db: RelayDb, deviceId: string): Promise<number> {
  return (await queueState(db, deviceId, 0)).waiting;
}

/** RA45: the notes waiting on the whole relay, every computer's (relay_queue_depth, docs/relay.md "Metrics"). */
export function waitingOnRelay(db: RelayDb): Promise<number> {
  return countRows(db.selectFrom('notes').where('acked_at', 'is', null).where('suppressed_at', 'is', null));
}

/**
 * RA45: a note that waited longer than the queue lifetime without an ack is given up: suppressed, reason
 * `expired`, scope `all` (which also ends a long-poll waiting on it).
 */
export async function expireWaiting(relay: Relay, tx: DeviceTx, deviceId: string, now: number): Promise<void> {
  const expired = await tx.db
    .updateTable('notes')
    .set({ suppressed_at: now, suppressed_reason: 'expired', suppressed_scope: 'all' })
    .where('device_id', '=', deviceId)
    .where('acked_at', 'is', null)
    .where('suppressed_at', 'is', null)
    .where('created_at', '<=', now - queueTtlMs(relay))
    .returning('rid')
    .execute();
  for (const { rid } of expired) tx.publish({ t: 'receipt', d: deviceId, r: rid });
}

/**
 * RA45: notes past their lifetime plus an hour are deleted, with their recordings. No computer's checks look at
 * them any more (they are past the 24-hour id window and no longer waiting), so this needs no lock; and it reads
 * the whole table once an hour rather than have every notify keep an index on the notes' age.
 */
export async function deleteOldNotes(relay: Relay, db: RelayDb, now: number): Promise<void> {
  const cutoff = now - Math.max(queueTtlMs(relay), NOTIFICATION_ID_WINDOW_MS) - NOTE_DELETE_GRACE_MS;
  const old = db.selectFrom('notes').select(['device_id', 'rid']).where('created_at', '<=', cutoff);
  await db
    .deleteFrom('reply_audio')
    .where(({ eb, refTuple }) => eb(refTuple('device_id', 'rid'), 'in', old.$asTuple('device_id', 'rid')))
    .execute();
  await deleteUpTo(db, 'notes', 'created_at', cutoff);
}

/** RA31: the frames of the waiting queue, oldest first. */
export async function waitingFrames(db: RelayDb, deviceId: string): Promise<NotifyFrame[]> {
  const rows = await noteFrameQuery(db, deviceId)
    .where('notes.acked_at', 'is', null)
    .where('notes.suppressed_at', 'is', null)
    .orderBy('notes.created_at')
    .orderBy('notes.rid')
    .execute();
  return rows.map(toFrame);
}

/** RA31: the frame of one note, while it still waits (undefined once acknowledged, suppressed or gone). */
export async function waitingFrame(db: RelayDb, deviceId: string, rid: string): Promise<NotifyFrame | undefined> {
  const row = await noteFrameQuery(db, deviceId)
    .where('notes.rid', '=', rid)
    .where('notes.acked_at', 'is', null)
    .where('notes.suppressed_at', 'is', null)
    .executeTakeFirst();
  return row && toFrame(row);
}

function noteFrameQuery(db: RelayDb, deviceId: string) {
  return db
    .selectFrom('notes')
    .innerJoin('agent_keys', (join) =>
      join.onRef('agent_keys.device_id', '=', 'notes.device_id').onRef('agent_keys.id', '=', 'notes.key_id'),
    )
    .select([
      'notes.rid',
      'notes.nid',
      'notes.created_at',
      'notes.payload',
      'agent_keys.id as key_id',
      'agent_keys.name as key_name',
      'agent_keys.client as key_client',
    ])
    .where('notes.device_id', '=', deviceId);
}

function toFrame(
  row: Pick<NoteRow, 'rid' | 'nid' | 'created_at' | 'payload' | 'key_id'> & { key_name: string; key_client: string },
): NotifyFrame {
  return {
    type: 'notify',
    id: row.rid,
    notificationId: row.nid,
    createdAt: iso(row.created_at),
    key: { id: row.key_id, name: row.key_name, client: row.key_client },
    payload: JSON.parse(row.payload) as NotifyPayload,
  };
}

/**
 * RA32: `ack`s: the computer has these notes; they are not sent again. Unknown ids are ignored. The writes, to run
 * with the frames' other writes (runWrites): on PostgreSQL, where each statement is a round trip, one statement
 * for all the acks of a burst; on SQLite, where a statement costs none, the same simple update once per note.
 */
export function ackWrites(db: RelayDb, deviceId: string, rids: string[], now: number): Write[] {
  if (rids.length === 0) return [];
  if (combinesWrites(db)) return [write(markAllAcked, now, deviceId, rids)];
  return rids.map((rid) => write(markAcked, now, deviceId, rid));
}

const markAcked = prepared((db: RelayDb, now: number, deviceId: string, rid: string) =>
  db.updateTable('notes').set({ acked_at: now }).where('device_id', '=', deviceId).where('rid', '=', rid).where('acked_at', 'is', null),
);

/** PostgreSQL only: the ids as one array value, so one statement (and one planned query) serves any number. */
const markAllAcked = prepared((db: RelayDb, now: number, deviceId: string, rids: string[]) =>
  db
    .updateTable('notes')
    .set({ acked_at: now })
    .where('device_id', '=', deviceId)
    .where(oneOf('postgres', 'rid', rids))
    .where('acked_at', 'is', null),
);

/**
 * RA20: a receipt. Each kind's first value wins; any receipt also acknowledges the note. A reply needs text, a
 * transcript or an uploaded recording. Long-polls on the note wake up.
 */
export async function applyReceipt(tx: DeviceTx, deviceId: string, receipt: ReceiptInput, now: number): Promise<void> {
  const note = await findNote(tx.db, deviceId, receipt.id);
  if (!note) throw notFound('no notification with this id on this computer');
  const changes: Partial<NoteRow> = {};
  if (note.acked_at === null) changes.acked_at = now;
  if (receipt.kind === 'displayed' && note.displayed_at === null) changes.displayed_at = now;
  if (receipt.kind === 'spoken' && note.spoken_at === null) changes.spoken_at = now;
  if (receipt.kind === 'suppressed' && note.suppressed_at === null) {
    Object.assign(changes, { suppressed_at: now, suppressed_reason: receipt.reason, suppressed_scope: receipt.scope });
  }
  if (receipt.kind === 'replied' && note.replied_at === null) {
    if (receipt.text === undefined && receipt.transcript === undefined && note.audio_size === null) {
      throw invalidRequest('a reply needs text, a transcript or an uploaded recording', ['text']);
    }
    Object.assign(changes, {
      replied_at: now,
      reply_text: receipt.text ?? null,
      transcript: receipt.transcript ?? null,
      duration_seconds: receipt.durationSeconds ?? null,
    });
  }
  if (Object.keys(changes).length === 0) return;
  await tx.db.updateTable('notes').set(changes).where('device_id', '=', deviceId).where('rid', '=', receipt.id).execute();
  tx.publish({ t: 'receipt', d: deviceId, r: receipt.id });
  // RA207: the first answer is an event for the sender's webhooks (typed: text; recorded only: voice).
  if (changes.replied_at !== undefined) await recordReplyEvent(tx, note, receipt.text !== undefined ? 'text' : 'voice', now);
}
