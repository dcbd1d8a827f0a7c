// Per-key sliding-window limits (docs/relay-api.md#ra50, #ra51): at most N notifications, or N reads, in the last
// 10 minutes. Each key numbers its hits (agent_keys.notify_seq / read_seq), so the check is one lookup
// whatever the limit: the key is over it exactly when its N-th most recent hit is still inside the window.

import type { RelayDb } from '../store/backend.js';
import { secondsUntil } from './time.js';

export type HitKind = 'notify' | 'read';

const SEQ_COLUMN = { notify: 'notify_seq', read: 'read_seq' } as const;

export interface KeyRef {
  deviceId: string;
  keyId: string;
}

/** Seconds until the key may hit again, or undefined when it may now. */
export async function keyLimitWait(db: RelayDb, key: KeyRef, kind: HitKind, limit: number, windowMs: number, now: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('agent_keys')
    .select(SEQ_COLUMN[kind])
    .where('device_id', '=', key.deviceId)
    .where('id', '=', key.keyId)
    .executeTakeFirst();
  const newest = row ? Number((row as Record<string, number>)[SEQ_COLUMN[kind]]) : 0;
  const nthNewest = newest - limit + 1;
  if (nthNewest < 1) return undefined;
  const hit = await db
    .selectFrom('key_hits')
    .select('at')
    .where('device_id', '=', key.deviceId)
    .where('key_id', '=', key.keyId)
    .where('kind', '=', kind)
    .where('seq', '=', nthNewest)
    .executeTakeFirst();
  return hit && hit.at > now - windowMs ? secondsUntil(hit.at + windowMs, now) : undefined;
}

/** Records one hit of the key. */
export async function recordKeyHit(db: RelayDb, key: KeyRef, kind: HitKind, now: number): Promise<void> {
  const column = SEQ_COLUMN[kind];
  const row = await db
    .updateTable('agent_keys')
    .set((eb) => ({ [column]: eb(column, '+', 1) }) as Record<typeof column, never>)
    .where('device_id', '=', key.deviceId)
    .where('id', '=', key.keyId)
    .returning(column)
    .executeTakeFirstOrThrow();
  const seq = Number((row as Record<string, number>)[column]);
  await db.insertInto('key_hits').values({ device_id: key.deviceId, key_id: key.keyId, kind, seq, at: now }).execute();
}
