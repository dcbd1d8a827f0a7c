// Per-key sliding-window limits (docs/relay-api.md#ra50, #ra51): at most N notifications, or N reads, in the last
// 10 minutes. Each hit of a key is numbered (key_hits.seq, one more than the key's newest), so the check is one
// indexed lookup whatever the limit: the key is over it exactly when its N-th most recent hit is still inside
// the window. Both run inside the computer's locked transaction; hits older than the window are deleted by
// the background work, after which the numbering may start again.

import { sql } from 'kysely';
import type { RelayDb } from '../store/backend.js';
import { prepared, runWrites, write, type Write } from '../store/prepared.js';
import type { KeyRow } from '../store/schema.js';
import { secondsUntil } from './time.js';

export type HitKind = 'notify' | 'read';

type KeyRef = Pick<KeyRow, 'device_id' | 'id'>;

const hitsOf = (db: RelayDb, deviceId: string, keyId: string, kind: HitKind) =>
  db.selectFrom('key_hits').where('device_id', '=', deviceId).where('key_id', '=', keyId).where('kind', '=', kind);

/** The time of the key's hit that is `back` hits before its newest (a query of one value, to use as a subquery). */
export const hitBackAt = (db: RelayDb, deviceId: string, keyId: string, kind: HitKind, back: number) =>
  hitsOf(db, deviceId, keyId, kind)
    .select('at')
    .where('seq', '=', sql<number>`(${hitsOf(db, deviceId, keyId, kind).select((eb) => eb.fn.max('seq').as('seq'))}) - ${back}`);

const hitBack = prepared(hitBackAt);

/** A new hit, numbered one after the key's newest, in one statement. */
const insertHit = prepared((db: RelayDb, deviceId: string, keyId: string, kind: HitKind, now: number) =>
  db
    .insertInto('key_hits')
    .columns(['device_id', 'key_id', 'kind', 'seq', 'at'])
    .expression(
      hitsOf(db, deviceId, keyId, kind).select((eb) => [
        sql<string>`cast(${deviceId} as text)`.as('device_id'),
        sql<string>`cast(${keyId} as text)`.as('key_id'),
        sql<string>`cast(${kind} as text)`.as('kind'),
        sql<number>`coalesce(max(${eb.ref('seq')}), 0) + 1`.as('seq'),
        sql<number>`cast(${now} as bigint)`.as('at'),
      ]),
    ),
);

/** Seconds until the key may hit again, or undefined when it may now. */
export async function keyLimitWait(
  db: RelayDb,
  key: KeyRef,
  kind: HitKind,
  limit: number,
  windowMs: number,
  now: number,
): Promise<number | undefined> {
  const hit = await hitBack.first(db, key.device_id, key.id, kind, limit - 1);
  return waitAfter(hit?.at, windowMs, now);
}

/** Seconds until a key whose limit-th most recent hit was at `limitHitAt` may hit again, or undefined when it may now. */
export function waitAfter(limitHitAt: number | null | undefined, windowMs: number, now: number): number | undefined {
  return limitHitAt != null && limitHitAt > now - windowMs ? secondsUntil(limitHitAt + windowMs, now) : undefined;
}

/** One hit of the key, as a write to run with others (it reads only the key's own hits). */
export const keyHit = (key: KeyRef, kind: HitKind, now: number): Write => write(insertHit, key.device_id, key.id, kind, now);

/** Records one hit of the key. */
export async function recordKeyHit(db: RelayDb, key: KeyRef, kind: HitKind, now: number): Promise<void> {
  await runWrites(db, [keyHit(key, kind, now)]);
}
