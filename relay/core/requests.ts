// The steps every request of an agent or of the computer takes before its own work, inside the computer's
// locked transaction (docs/relay-api.md#ra51): count it against the daily budget, apply the read limit, and
// note that the key or the computer was active.

import { rateLimited, unauthorized } from '../../protocol/relay/errors.js';
import type { DeviceTx } from '../store/backend.js';
import { KEY_LAST_USED_WRITE_MS, RATE_WINDOW_MS, READ_RETRY_SECONDS, READS_PER_WINDOW } from '../limits.js';
import type { AgentCaller, DeviceCaller } from './auth.js';
import { markSeen } from './devices.js';
import { keyLimitWait, recordKeyHit } from './key-limits.js';
import { refusable, type Relay } from './relay.js';
import { countRequest } from './usage.js';

export interface AgentStepOptions {
  /** Receipt and reply reads are read-limited; notify and status are not (RA51). */
  readLimited: boolean;
}

/** An agent's request: budget (503 once spent), read limit, last use of the key, then `work`. */
export function agentStep<T>(relay: Relay, agent: AgentCaller, options: AgentStepOptions, work: (tx: DeviceTx, now: number) => Promise<T>): Promise<T> {
  return refusable(relay, agent.deviceId, async (tx) => {
    const now = relay.clock();
    const key = { deviceId: agent.deviceId, keyId: agent.key.id };
    // Revoked, purged or unpaired since the credential was checked: refused before anything is counted.
    const current = await tx.db.selectFrom('agent_keys').select('id').where('device_id', '=', key.deviceId).where('id', '=', key.keyId).where('revoked_at', 'is', null).executeTakeFirst();
    if (!current) throw unauthorized('unknown or revoked agent key');
    await countRequest(tx.db, relay, agent.deviceId, now, true);
    if (options.readLimited) {
      if ((await keyLimitWait(tx.db, key, 'read', READS_PER_WINDOW, RATE_WINDOW_MS, now)) !== undefined) {
        throw rateLimited(`at most ${READS_PER_WINDOW} receipt and reply reads per key in 10 minutes`, READ_RETRY_SECONDS);
      }
      await recordKeyHit(tx.db, key, 'read', now);
    }
    if (agent.key.last_used_at === null || now - agent.key.last_used_at >= KEY_LAST_USED_WRITE_MS) {
      await tx.db.updateTable('agent_keys').set({ last_used_at: now }).where('device_id', '=', key.deviceId).where('id', '=', key.keyId).execute();
    }
    return work(tx, now);
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
