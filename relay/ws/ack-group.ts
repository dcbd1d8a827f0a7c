// The acks of several computers that wait for one transaction (PostgreSQL's group commit, relay/store/postgres.ts,
// when computers share a transaction) are applied together: one statement marks their notes acknowledged, counts
// each computer's frames and writes the signs of life that are due: one statement for all of them rather than one
// per computer, PostgreSQL's time going mostly to statements and transactions, not to the rows they touch
// (docs/performance.md, "On PostgreSQL (issue 21)"). Only frames that are all acks are grouped; stream.ts's
// applyFrames does the same for one computer's, and is what runs when a computer's acks are not taken with others.

import type { Relay } from '../core/relay.js';
import { addUsages, type Counts } from '../core/usage.js';
import { LAST_SEEN_WRITE_MS } from '../limits.js';
import type { JobGroup, LastWrite, RelayDb } from '../store/backend.js';
import { oneOf, rowsIn } from '../store/queries.js';
import { prepared, write, type Write } from '../store/prepared.js';
import type { DeviceConnection } from './registry.js';

/** One computer's frames, all acks: the socket they came on, the ids acknowledged, and how many frames. */
export interface AckInput {
  connection: DeviceConnection;
  acks: string[];
  frames: number;
}

const groups = new WeakMap<Relay, JobGroup>();

/** The relay's ack group (one object per relay: jobs of the same group are taken together). */
export function ackGroup(relay: Relay): JobGroup {
  let group = groups.get(relay);
  if (!group) groups.set(relay, (group = { run: (db, inputs, lastWrite) => applyAcks(relay, db, inputs as AckInput[], lastWrite) }));
  return group;
}

async function applyAcks(relay: Relay, db: RelayDb, inputs: AckInput[], lastWrite?: LastWrite) {
  const now = relay.clock();
  const counts = new Map<string, Counts>();
  const due = new Set<DeviceConnection>();
  for (const { connection, frames } of inputs) {
    const { deviceId } = connection;
    counts.set(deviceId, { ws_messages: (counts.get(deviceId)?.ws_messages ?? 0) + frames });
    if (now - connection.lastSeenWrite >= LAST_SEEN_WRITE_MS) due.add(connection); // RA30: at most once a minute per socket
  }
  const acked = inputs.flatMap(({ connection, acks }) => acks.map((rid) => ({ deviceId: connection.deviceId, rid })));
  const writes: Write[] = [
    write(
      markAckedOf,
      now,
      acked.map((ack) => ack.deviceId),
      acked.map((ack) => ack.rid),
    ),
  ];
  if (due.size > 0) writes.push(write(updateSeenOf, now, [...new Set([...due].map((connection) => connection.deviceId))]));
  lastWrite?.([]); // one statement on PostgreSQL (addUsages): it may carry the COMMIT
  await addUsages(db, now, counts, writes);
  for (const connection of due) connection.lastSeenWrite = now;
  return inputs.map(() => ({ value: undefined, messages: [] }));
}

/** Notes of any computers acknowledged, the i-th of each array together (PostgreSQL). */
const markAckedOf = prepared((db: RelayDb, now: number, deviceIds: string[], rids: string[]) =>
  db
    .updateTable('notes')
    .set({ acked_at: now })
    .where(rowsIn(['device_id', 'rid'], [deviceIds, rids]))
    .where('acked_at', 'is', null),
);

/** A sign of life of several computers (PostgreSQL). */
const updateSeenOf = prepared((db: RelayDb, now: number, deviceIds: string[]) =>
  db
    .updateTable('devices')
    .set({ last_seen_at: now })
    .where(oneOf('postgres', 'id', deviceIds)),
);
