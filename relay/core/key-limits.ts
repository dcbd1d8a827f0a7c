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

/**
 * PostgreSQL, for a group of notifications (notify-group.ts), as a column of the key's query: the key's first
 * `count` notify hits from the one `back` before its newest on, as JSON `[[seq, at, newest seq], ...]` in order
 * (null when the key has none).
 */
export const notifyHitWindowColumn = (db: RelayDb, deviceId: string, keyId: string, back: number, count: number) => {
  const newest = hitsOf(db, deviceId, keyId, 'notify').select((eb) => eb.fn.max('seq').as('seq'));
  // The newest as its own subquery (one step down the index), not `max(seq) over ()`: a window function reads
  // every hit from `back` on before the limit applies — with a high limit, every hit the key has.
  const window = hitsOf(db, deviceId, keyId, 'notify')
    .select(['seq', 'at', sql<number>`(${newest})`.as('newest')])
    .where('seq', '>=', sql<number>`(${newest}) - ${back}`)
    .orderBy('seq')
    .limit(count);
  return sql<string | null>`(select json_agg(json_build_array(w.seq, w.at, w.newest) order by w.seq) from (${window}) as w)`;
};

/** Hits of a key as notifyHitWindowColumn reads them: number, time, and the newest's number. */
export type HitWindow = Array<[number, number, number]>;

/**
 * The limit hit (RA50: the one `back` before the newest) of the j-th notification of a group that a key's window
 * was read for, given that the j before it were accepted and each added a hit at `now`.
 */
export function hitBackAtInWindow(window: HitWindow | null, back: number, now: number): (j: number) => number | null {
  const newest = window === null || window.length === 0 ? 0 : Number(window[0]![2]);
  const at = new Map((window ?? []).map(([seq, time]) => [Number(seq), Number(time)]));
  return (j) => {
    const seq = newest + j - back;
    if (seq > newest) return now; // one of the group's own hits
    return at.get(seq) ?? null; // none that old: the key has had fewer hits (or they were cleaned up)
  };
}

/**
 * PostgreSQL, for a group: new notify hits of keys, one per entry of `deviceIds` and `keyIds` (the i-th of each
 * together), numbered after each key's newest in the order given — in one statement (the numbers are read before
 * any of its rows is inserted).
 */
export const insertNotifyHits = prepared((db: RelayDb, at: number, deviceIds: string[], keyIds: string[], ordinals: number[]) =>
  db
    .insertInto('key_hits')
    .columns(['device_id', 'key_id', 'kind', 'seq', 'at'])
    .expression(
      sql<never>`select t.device_id, t.key_id, 'notify',
        coalesce((select max(h.seq) from key_hits h where h.device_id = t.device_id and h.key_id = t.key_id and h.kind = 'notify'), 0) + t.ordinal,
        cast(${at} as bigint)
        from unnest(cast(${deviceIds} as text[]), cast(${keyIds} as text[]), cast(${ordinals} as bigint[])) as t(device_id, key_id, ordinal)`,
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
