// The steps every request of an agent or of the computer takes before its own work, inside the computer's
// locked transaction (docs/relay-api.md#ra51): count it against the daily budget, apply the read limit, and
// note that the key or the computer was active.

import { rateLimited, unauthorized } from '../../protocol/relay/errors.js';
import type { DeviceTx } from '../store/backend.js';
import type { KeyRow, UsageRow } from '../store/schema.js';
import { KEY_LAST_USED_WRITE_MS, RATE_WINDOW_MS, READ_RETRY_SECONDS, READS_PER_WINDOW } from '../limits.js';
import { verifyAgentKey, type AgentCaller, type DeviceCaller } from './auth.js';
import { markSeen } from './devices.js';
import { keyLimitWait, recordKeyHit } from './key-limits.js';
import { refusable, type Relay } from './relay.js';
import { countRequest } from './usage.js';

export interface AgentStepOptions {
  /** Receipt and reply reads are read-limited; notify and status are not (RA51). */
  readLimited: boolean;
}

/** What an agent's step works with, read inside the lock: the key as it is now, and today's counters. */
export interface AgentStep {
  tx: DeviceTx;
  now: number;
  key: KeyRow;
  today: UsageRow;
}

/** An agent's request: the key (401/403), the budget (503 once spent), the read limit, then `work`. */
export function agentStep<T>(relay: Relay, agent: AgentCaller, options: AgentStepOptions, work: (step: AgentStep) => Promise<T>): Promise<T> {
  return refusable(relay, agent.deviceId, async (tx) => {
    const now = relay.clock();
    const key = await verifyAgentKey(tx.db, agent); // an unknown or revoked key is refused before it is counted
    const today = await countRequest(tx.db, relay, agent.deviceId, now, true);
    if (options.readLimited) {
      if ((await keyLimitWait(tx.db, key, 'read', READS_PER_WINDOW, RATE_WINDOW_MS, now)) !== undefined) {
        throw rateLimited(`at most ${READS_PER_WINDOW} receipt and reply reads per key in 10 minutes`, READ_RETRY_SECONDS);
      }
      await recordKeyHit(tx.db, key, 'read', now);
    }
    if (key.last_used_at === null || now - key.last_used_at >= KEY_LAST_USED_WRITE_MS) {
      await tx.db.updateTable('agent_keys').set({ last_used_at: now }).where('device_id', '=', key.device_id).where('id', '=', key.id).execute();
    }
    return work({ tx, now, key, today });
  });
}

/** The computer's request: counted (except the stream and the usage route), a sign of life, then `work`. */
export function deviceStep<T>(relay: Relay, caller: DeviceCaller, options: { counted: boolean }, work: (tx: DeviceTx, now: number) => Promise<T>): Promise<T> {
  return refusable(relay, caller.deviceId, async (tx) => {
    const now = relay.clock();
    // Unpaired or removed since the token was checked: refused before anything is counted.
    if (!(await markSeen(tx.db, caller.deviceId, now))) throw unauthorized('unknown or revoked device token: pair again');
    if (options.counted) await countRequest(tx.db, relay, caller.deviceId, now, false);
    return work(tx, now);
  });
}
