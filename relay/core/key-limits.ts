// Per-key sliding-window limits (docs/relay-api.md#ra50, #ra51): at most N notifications, or N reads, in the last
// 10 minutes. Each hit of a key is numbered (key_hits.seq, one more than the key's newest), so the check is one
// indexed lookup whatever the limit: the key is over it exactly when its N-th most recent hit is still inside
// the window. Both run inside the computer's locked transaction; hits older than the window are deleted by
// the background work, after which the numbering may start again.

import { sql } from 'kysely';
import type { RelayDb } from '../store/backend.js';
import type { KeyRow } from '../store/schema.js';
import { secondsUntil } from './time.js';

export type HitKind = 'notify' | 'read';

type KeyRef = Pick<KeyRow, 'device_id' | 'id'>;

const hitsOf = (db: RelayDb, key: KeyRef, kind: HitKind) =>
  db.selectFrom('key_hits').where('device_id', '=', key.device_id).where('key_id', '=', key.id).where('kind', '=', kind);

/** Seconds until the key may hit again, or undefined when it may now. */
export async function keyLimitWait(db: RelayDb, key: KeyRef, kind: HitKind, limit: number, windowMs: number, now: number): Promise<number | undefined> {
  const newest = hitsOf(db, key, kind).select((eb) => eb.fn.max('seq').as('seq'));
  const hit = await hitsOf(db, key, kind)
    .select('at')
    .where('seq', '=', sql<number>`(${newest}) - ${limit - 1}`)
    .executeTakeFirst();
  return hit && hit.at > now - windowMs ? secondsUntil(hit.at + windowMs, now) : undefined;
}

/** Records one hit of the key, numbered one after its newest, in one statement. */
export async function recordKeyHit(db: RelayDb, key: KeyRef, kind: HitKind, now: number): Promise<void> {
  await db
    .insertInto('key_hits')
    .columns(['device_id', 'key_id', 'kind', 'seq', 'at'])
    .expression(
      hitsOf(db, key, kind).select((eb) => [
        sql<string>`cast(${key.device_id} as text)`.as('device_id'),
        sql<string>`cast(${key.id} as text)`.as('key_id'),
        sql<string>`cast(${kind} as text)`.as('kind'),
        sql<number>`coalesce(max(${eb.ref('seq')}), 0) + 1`.as('seq'),
        sql<number>`cast(${now} as bigint)`.as('at'),
      ]),
    )
    .execute();
}
