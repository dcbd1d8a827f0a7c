// Notifications for one computer that wait together for its transaction (PostgreSQL's group commit,
// relay/store/postgres.ts) are taken together: the checks of each run in memory, in order, on what a few queries
// read for all of them, and one statement writes them all — instead of two round trips per notification
// (docs/performance.md, "On PostgreSQL"). The answers are those each would have had on its own, in the order they
// came: the same rules (decideNotify), with what the ones before it did counted in (the day's counters, the queue,
// the key's hits, a notificationId already used).
//
// Only the usual case is taken together: every credential valid, nothing refused, no notificationId older than
// 24 hours, no overdue note in the queue. Anything else — a refusal or a rare write — and the group declines
// before it writes anything: the requests then run one by one, each its own step (requests.ts, notes.ts), so every
// refusal and its order come from one place.

import { sql } from 'kysely';
import { RelayError } from '../../protocol/relay/errors.js';
import type { NotifyPayload } from '../../protocol/relay/notify.js';
import { notificationsGrouped } from '../metrics.js';
import type { BusMessage, JobGroup, RelayDb } from '../store/backend.js';
import { prepared, write } from '../store/prepared.js';
import type { KeyRow, NoteRow, UsageRow } from '../store/schema.js';
import { verifyAgentKey, type AgentCaller } from './auth.js';
import { hitBackAtInWindow, insertNotifyHits } from './key-limits.js';
import { decideNotify, readNotification, type Body, type NotifyOutcome, type NotifyRareWrites } from './notes.js';
import type { Relay, Settled } from './relay.js';
import { lastUsedIsOld } from './requests.js';
import { sendingQuery, type SendingState } from './sending.js';
import { addUsage, budgetSpent } from './usage.js';

/** One request of the group: what sendNotification (agent.ts) has before its step. */
export interface NotifyInput {
  agent: AgentCaller;
  body: Body;
}

/** The group declines: the requests run one by one. */
class Decline extends Error {}

/** The rare writes of a notify are left to the one-by-one path. */
const DECLINE_RARE: NotifyRareWrites = {
  freeId: () => Promise.reject(new Decline('a notificationId older than 24 hours')),
  expireOverdue: () => Promise.reject(new Decline('overdue notes to expire')),
};

const groups = new WeakMap<Relay, JobGroup>();

/** The relay's notify group (one object per relay: jobs of the same group are taken together). */
export function notifyGroup(relay: Relay): JobGroup {
  let group = groups.get(relay);
  if (!group) groups.set(relay, (group = { run: (db, inputs) => runGroup(relay, db, inputs as NotifyInput[]) }));
  return group;
}

/** What one credential's key read gave: the key, the day's counters and the notify checks (auth.ts). */
interface KeyState {
  key: KeyRow;
  today: UsageRow;
  sending: SendingState;
  /** The limit hit of the key's j-th accepted notification of the group (key-limits.ts). */
  hitBackAt: (j: number) => number | null;
}

type Answer = { value: Settled<NotifyOutcome>; messages: BusMessage[] };

async function runGroup(relay: Relay, db: RelayDb, inputs: NotifyInput[]): Promise<Answer[] | undefined> {
  try {
    return await takeTogether(relay, db, inputs);
  } catch (error) {
    if (error instanceof Decline || error instanceof RelayError) return undefined; // nothing written yet
    throw error;
  }
}

async function takeTogether(relay: Relay, db: RelayDb, inputs: NotifyInput[]): Promise<Answer[]> {
  const now = relay.clock();
  const deviceId = inputs[0]!.agent.deviceId;
  const payloads = inputs.map(({ body }) => readNotification(relay, body));
  const keys = await readKeys(relay, db, inputs, now);
  const earlier = await readEarlierNotes(db, deviceId, inputs, payloads, keys);

  // Each request in turn, as its own step would run it, with what the ones before it did.
  const counts = { requests: 0, notifications: 0 };
  const acceptedOfKey = new Map<string, number>();
  const touched = new Set<string>();
  const notes: NoteRow[] = [];
  const answers: Answer[] = [];
  for (const [index, { agent }] of inputs.entries()) {
    const state = keys.get(credentialOf(agent))!;
    const { key } = state;
    const today: UsageRow = {
      ...state.today,
      requests: state.today.requests + counts.requests,
      notifications: state.today.notifications + counts.notifications,
    };
    if (budgetSpent(relay, today)) throw new Decline('the daily budget is spent');
    counts.requests += 1;
    if (lastUsedIsOld(key, now)) touched.add(key.id);
    const j = acceptedOfKey.get(key.id) ?? 0;
    const sending = { ...state.sending, hitAt: state.hitBackAt(j), waiting: state.sending.waiting + notes.length };
    const payload = payloads[index]!;
    const sameId = payload.notificationId === undefined ? undefined : earlier.get(senderNoteOf(key.id, payload.notificationId));
    const decided = await decideNotify(relay, { now, key, today, sending }, payload, sameId, DECLINE_RARE);
    if (decided.duplicate) {
      answers.push({ value: { value: decided }, messages: [] });
      continue;
    }
    const { note, frame } = decided;
    notes.push(note);
    earlier.set(senderNoteOf(key.id, note.nid), note); // a later request with its notificationId is its duplicate
    acceptedOfKey.set(key.id, j + 1);
    counts.notifications += 1;
    answers.push({
      value: { value: { duplicate: false, note } },
      messages: [{ t: 'note', d: deviceId, r: note.rid, frame, g: sending.stream }],
    });
  }

  // One statement: the notes, the keys' hits, their last-used times and the day's counters.
  await addUsage(db, deviceId, now, counts, [
    write(insertNotes, deviceId, now, ...noteColumns(notes)),
    write(
      insertNotifyHits,
      deviceId,
      now,
      notes.map((note) => note.key_id),
      ordinals(notes.map((note) => note.key_id)),
    ),
    write(touchKeys, deviceId, now, [...touched]),
  ]);
  if (inputs.length > 1) notificationsGrouped.inc(inputs.length);
  return answers;
}

/** A credential as a map key: the same key id and secret, or the same access token. */
const credentialOf = (agent: AgentCaller): string => `${agent.keyId ?? ''} ${agent.secretHash}`;

/** Each credential's key, checked (a refusal declines the group), with the day's counters and the notify checks. */
async function readKeys(relay: Relay, db: RelayDb, inputs: NotifyInput[], now: number): Promise<Map<string, KeyState>> {
  const query = sendingQuery(relay, now);
  const agentsOf = new Map<string, AgentCaller[]>();
  for (const { agent } of inputs) agentsOf.set(credentialOf(agent), [...(agentsOf.get(credentialOf(agent)) ?? []), agent]);
  const keys = new Map<string, KeyState>();
  for (const [credential, agents] of agentsOf) {
    // A key with one request of the group checks the hit read with it; with more, the hits after it too.
    const many = agents.length > 1;
    const { key, today, sending } = await verifyAgentKey(db, agents[0]!, now, many ? { ...query, window: agents.length } : query);
    for (const agent of agents) agent.verifiedKeyId = agents[0]!.verifiedKeyId; // for the request log
    const hitBackAt = many ? hitBackAtInWindow(sending!.window ?? null, query.back, now) : () => sending!.hitAt;
    keys.set(credential, { key, today, sending: sending!, hitBackAt });
  }
  // Two credentials of one key (a connector's access token and its next one): its hits were read per credential.
  if (new Set([...keys.values()].map(({ key }) => key.id)).size < keys.size) throw new Decline('two credentials of one key');
  return keys;
}

const senderNoteOf = (keyId: string, nid: string): string => `${keyId} ${nid}`;

/** The keys' notes with the notificationIds the requests name (RA44), any age: one query, when any names one. */
async function readEarlierNotes(
  db: RelayDb,
  deviceId: string,
  inputs: NotifyInput[],
  payloads: NotifyPayload[],
  keys: Map<string, KeyState>,
): Promise<Map<string, NoteRow>> {
  const named = inputs.flatMap(({ agent }, index) => {
    const nid = payloads[index]!.notificationId;
    return nid === undefined ? [] : [{ keyId: keys.get(credentialOf(agent))!.key.id, nid }];
  });
  if (named.length === 0) return new Map();
  const rows = await selectSenderNotes.all(
    db,
    deviceId,
    named.map(({ keyId }) => keyId),
    named.map(({ nid }) => nid),
  );
  return new Map(rows.map((row) => [senderNoteOf(row.key_id, row.nid), row]));
}

const selectSenderNotes = prepared((db: RelayDb, deviceId: string, keyIds: string[], nids: string[]) =>
  db
    .selectFrom('notes')
    .selectAll()
    .where('device_id', '=', deviceId)
    .where(sql<boolean>`(key_id, nid) in (select * from unnest(cast(${keyIds} as text[]), cast(${nids} as text[])))`),
);

/** The new notes' columns as arrays, one element per note (insertNotes). */
function noteColumns(notes: NoteRow[]): [string[], string[], string[], string[], number[]] {
  return [
    notes.map((note) => note.rid),
    notes.map((note) => note.key_id),
    notes.map((note) => note.nid),
    notes.map((note) => note.payload),
    notes.map((note) => note.expect_reply),
  ];
}

/** For each entry, how many entries up to it name the same key: the hits' order after each key's newest. */
function ordinals(keyIds: string[]): number[] {
  const seen = new Map<string, number>();
  return keyIds.map((keyId) => {
    const ordinal = (seen.get(keyId) ?? 0) + 1;
    seen.set(keyId, ordinal);
    return ordinal;
  });
}

/** New notes of the computer, all created at `createdAt`, with empty receipts: one statement for any number. */
const insertNotes = prepared(
  (
    db: RelayDb,
    deviceId: string,
    createdAt: number,
    rids: string[],
    keyIds: string[],
    nids: string[],
    payloads: string[],
    expectReplies: number[],
  ) =>
    db
      .insertInto('notes')
      .columns(['device_id', 'rid', 'key_id', 'nid', 'payload', 'expect_reply', 'created_at'])
      .expression(
        sql<never>`select cast(${deviceId} as text), t.rid, t.key_id, t.nid, t.payload, t.expect_reply, cast(${createdAt} as bigint)
          from unnest(cast(${rids} as text[]), cast(${keyIds} as text[]), cast(${nids} as text[]), cast(${payloads} as text[]),
            cast(${expectReplies} as integer[])) as t(rid, key_id, nid, payload, expect_reply)`,
      ),
);

/** The keys' last-used time (at most once per KEY_LAST_USED_WRITE_MS, requests.ts). */
const touchKeys = prepared((db: RelayDb, deviceId: string, now: number, keyIds: string[]) =>
  db
    .updateTable('agent_keys')
    .set({ last_used_at: now })
    .where('device_id', '=', deviceId)
    .where('id', '=', sql<string>`any(cast(${keyIds} as text[]))`),
);
