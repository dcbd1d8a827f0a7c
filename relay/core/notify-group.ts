// Notifications that wait together for a transaction (PostgreSQL's group commit, relay/store/postgres.ts) — a
// computer's burst, or the next notification of each of the computers sharing the transaction — are taken
// together: the checks of each run in memory, in order, on what a few queries read for all of them, and one
// statement writes them all — a few round trips for the group rather than two per notification
// (docs/performance.md, "On PostgreSQL (issue 21)"). The answers are those each would have had on its own, in the
// order they came: the same rules (decideNotify), with what the ones before it of its computer did counted in (the
// day's counters, the queue, the key's hits, a notificationId already used).
//
// Only the usual case is taken together: every credential valid, nothing refused, no notificationId older than
// 24 hours, no overdue note in the queue. Anything else — a refusal or a rare write — and the group declines
// before it writes anything: the requests then run one by one, each its own step (requests.ts, notes.ts), so every
// refusal and its order come from one place.

import { sql } from 'kysely';
import type { BoundedBody } from '../../common/bounded-body.js';
import { RelayError } from '../../protocol/relay/errors.js';
import type { NotifyPayload } from '../../protocol/relay/notify.js';
import { notificationsGrouped } from '../metrics.js';
import type { BusMessage, JobGroup, LastWrite, RelayDb } from '../store/backend.js';
import { rowsIn } from '../store/queries.js';
import { prepared, write } from '../store/prepared.js';
import type { KeyRow, NoteRow, UsageRow } from '../store/schema.js';
import { verifyAgentKey, verifyAgentKeys, type AgentCaller } from './auth.js';
import { hitBackAtInWindow, insertNotifyHits } from './key-limits.js';
import { decideNotify, readNotification, type NotifyOutcome, type NotifyRareWrites } from './notes.js';
import type { Relay, Settled } from './relay.js';
import { lastUsedIsOld } from './requests.js';
import { sendingQuery, type SendingState } from './sending.js';
import { addUsages, budgetSpent } from './usage.js';

/** One request of the group: what sendNotification (agent.ts) has before its step. */
export interface NotifyInput {
  agent: AgentCaller;
  body: BoundedBody;
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
  if (!group) groups.set(relay, (group = { run: (db, inputs, lastWrite) => runGroup(relay, db, inputs as NotifyInput[], lastWrite) }));
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

async function runGroup(relay: Relay, db: RelayDb, inputs: NotifyInput[], lastWrite?: LastWrite): Promise<Answer[] | undefined> {
  try {
    return await takeTogether(relay, db, inputs, lastWrite);
  } catch (error) {
    if (error instanceof Decline || error instanceof RelayError) return undefined; // nothing written yet
    throw error;
  }
}

async function takeTogether(relay: Relay, db: RelayDb, inputs: NotifyInput[], lastWrite?: LastWrite): Promise<Answer[]> {
  const now = relay.clock();
  const payloads = inputs.map(({ body }) => readNotification(relay, body));
  const keys = await readKeys(relay, db, inputs, now);
  const earlier = await readEarlierNotes(db, inputs, payloads, keys);

  // Each request in turn, as its own step would run it, with what the ones before it did (those of its computer).
  const counts = new Map<string, { requests: number; notifications: number }>();
  const acceptedOfKey = new Map<KeyRow, number>();
  const touched: KeyRow[] = [];
  const notes: NoteRow[] = [];
  const answers: Answer[] = [];
  for (const [index, { agent }] of inputs.entries()) {
    const { deviceId } = agent;
    const state = keys.get(credentialOf(agent))!;
    const { key } = state;
    let counted = counts.get(deviceId);
    if (!counted) counts.set(deviceId, (counted = { requests: 0, notifications: 0 }));
    const today: UsageRow = {
      ...state.today,
      requests: state.today.requests + counted.requests,
      notifications: state.today.notifications + counted.notifications,
    };
    if (budgetSpent(relay, today)) throw new Decline('the daily budget is spent');
    counted.requests += 1;
    if (lastUsedIsOld(key, now) && !touched.includes(key)) touched.push(key);
    const j = acceptedOfKey.get(key) ?? 0;
    const sending = { ...state.sending, hitAt: state.hitBackAt(j), waiting: state.sending.waiting + counted.notifications };
    const payload = payloads[index]!;
    const sameId = payload.notificationId === undefined ? undefined : earlier.get(senderNoteOf(key, payload.notificationId));
    const decided = await decideNotify(relay, { now, key, today, sending }, payload, sameId, DECLINE_RARE);
    if (decided.duplicate) {
      answers.push({ value: { value: decided }, messages: [] });
      continue;
    }
    const { note, frame } = decided;
    notes.push(note);
    earlier.set(senderNoteOf(key, note.nid), note); // a later request with its notificationId is its duplicate
    acceptedOfKey.set(key, j + 1);
    counted.notifications += 1;
    answers.push({
      value: { value: { duplicate: false, note } },
      messages: [{ t: 'note', d: deviceId, r: note.rid, frame, g: sending.stream }],
    });
  }

  // One statement (on PostgreSQL, the backend that offers lastWrite): the notes, the keys' hits, their last-used
  // times and the day's counters of each computer. The group's last: it may carry the COMMIT.
  lastWrite?.(answers.flatMap((answer) => answer.messages));
  const keyIds = notes.map((note) => note.key_id);
  const deviceIds = notes.map((note) => note.device_id);
  await addUsages(db, now, counts, [
    write(insertNotes, now, deviceIds, ...noteColumns(notes)),
    write(insertNotifyHits, now, deviceIds, keyIds, ordinals(notes)),
    write(
      touchKeys,
      now,
      touched.map((key) => key.device_id),
      touched.map((key) => key.id),
    ),
  ]);
  if (inputs.length > 1) notificationsGrouped.inc(inputs.length);
  return answers;
}

/** A credential as a map key: the same computer and key id and secret, or the same access token. */
const credentialOf = (agent: AgentCaller): string => `${agent.deviceId} ${agent.keyId ?? ''} ${agent.secretHash}`;

/**
 * Each credential's key, checked (a refusal declines the group), with its computer's counters of the day and the
 * notify checks: the agent keys with one request of the group in one query, the others one query each.
 */
async function readKeys(relay: Relay, db: RelayDb, inputs: NotifyInput[], now: number): Promise<Map<string, KeyState>> {
  const query = sendingQuery(relay, now);
  const agentsOf = new Map<string, AgentCaller[]>();
  for (const { agent } of inputs) agentsOf.set(credentialOf(agent), [...(agentsOf.get(credentialOf(agent)) ?? []), agent]);
  const keys = new Map<string, KeyState>();
  const single = [...agentsOf.values()].filter((agents) => agents.length === 1 && agents[0]!.keyId !== undefined).map(([agent]) => agent!);
  if (single.length > 1) {
    const verified = await verifyAgentKeys(db, single, now, query);
    for (const [i, agent] of single.entries()) {
      const { key, today, sending } = verified[i]!;
      keys.set(credentialOf(agent), { key, today, sending: sending!, hitBackAt: () => sending!.hitAt });
    }
  }
  for (const [credential, agents] of agentsOf) {
    if (keys.has(credential)) continue;
    // A key with one request of the group checks the hit read with it; with more, the hits after it too.
    const many = agents.length > 1;
    const { key, today, sending } = await verifyAgentKey(db, agents[0]!, now, many ? { ...query, window: agents.length } : query);
    for (const agent of agents) agent.verifiedKeyId = agents[0]!.verifiedKeyId; // for the request log
    const hitBackAt = many ? hitBackAtInWindow(sending!.window ?? null, query.back, now) : () => sending!.hitAt;
    keys.set(credential, { key, today, sending: sending!, hitBackAt });
  }
  // Two credentials of one key (a connector's access token and its next one): its hits were read per credential.
  if (new Set([...keys.values()].map(({ key }) => `${key.device_id} ${key.id}`)).size < keys.size)
    throw new Decline('two credentials of one key');
  return keys;
}

const senderNoteOf = (key: KeyRow, nid: string): string => `${key.device_id} ${key.id} ${nid}`;

/** The keys' notes with the notificationIds the requests name (RA44), any age: one query, when any names one. */
async function readEarlierNotes(
  db: RelayDb,
  inputs: NotifyInput[],
  payloads: NotifyPayload[],
  keys: Map<string, KeyState>,
): Promise<Map<string, NoteRow>> {
  const named = inputs.flatMap(({ agent }, index) => {
    const nid = payloads[index]!.notificationId;
    return nid === undefined ? [] : [{ key: keys.get(credentialOf(agent))!.key, nid }];
  });
  if (named.length === 0) return new Map();
  const rows = await selectSenderNotes.all(
    db,
    named.map(({ key }) => key.device_id),
    named.map(({ key }) => key.id),
    named.map(({ nid }) => nid),
  );
  return new Map(rows.map((row) => [`${row.device_id} ${row.key_id} ${row.nid}`, row]));
}

const selectSenderNotes = prepared((db: RelayDb, deviceIds: string[], keyIds: string[], nids: string[]) =>
  db
    .selectFrom('notes')
    .selectAll()
    .where(rowsIn(['device_id', 'key_id', 'nid'], [deviceIds, keyIds, nids])),
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

/** For each note, how many notes up to it are of the same key: the hits' order after each key's newest. */
function ordinals(notes: NoteRow[]): number[] {
  const seen = new Map<string, number>();
  return notes.map(({ device_id, key_id }) => {
    const ordinal = (seen.get(`${device_id} ${key_id}`) ?? 0) + 1;
    seen.set(`${device_id} ${key_id}`, ordinal);
    return ordinal;
  });
}

/** New notes of any computers, all created at `createdAt`, with empty receipts: one statement for any number. */
const insertNotes = prepared(
  (
    db: RelayDb,
    createdAt: number,
    deviceIds: string[],
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
        sql<never>`select t.device_id, t.rid, t.key_id, t.nid, t.payload, t.expect_reply, cast(${createdAt} as bigint)
          from unnest(cast(${deviceIds} as text[]), cast(${rids} as text[]), cast(${keyIds} as text[]), cast(${nids} as text[]),
            cast(${payloads} as text[]), cast(${expectReplies} as integer[])) as t(device_id, rid, key_id, nid, payload, expect_reply)`,
      ),
);

/** The keys' last-used time (at most once per KEY_LAST_USED_WRITE_MS, requests.ts), the i-th of each array together. */
const touchKeys = prepared((db: RelayDb, now: number, deviceIds: string[], keyIds: string[]) =>
  db
    .updateTable('agent_keys')
    .set({ last_used_at: now })
    .where(rowsIn(['device_id', 'id'], [deviceIds, keyIds])),
);
