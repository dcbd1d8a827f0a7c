// The steps every request of an agent or of the computer takes before its own work, inside the computer's
// locked transaction (docs/relay-api.md#ra51): count it against the daily budget, apply the read limit, and
// note that the key or the computer was active.

import { rateLimited, unauthorized } from '../../protocol/relay/errors.js';
import type { DeviceTx, Grouped } from '../store/backend.js';
import type { Write } from '../store/prepared.js';
import type { KeyRow, UsageRow } from '../store/schema.js';
import { KEY_LAST_USED_WRITE_MS, RATE_WINDOW_MS, READ_RETRY_SECONDS, READS_PER_WINDOW } from '../limits.js';
import { verifyAgentKey, type AgentCaller, type DeviceCaller } from './auth.js';
import { markSeen } from './devices.js';
import { keyLimitWait, recordKeyHit } from './key-limits.js';
import { refusable, type Relay } from './relay.js';
import { sendingQuery, type SendingState } from './sending.js';
import { addUsage, budgetRefusal, budgetSpent, type Counter, type Counts } from './usage.js';

export interface AgentStepOptions {
  /** Receipt and reply reads are read-limited; notify and status are not (RA51). */
  readLimited: boolean;
  /** Notify: its rate limit and queue are read in the key's query (AgentStep.sending), one round trip. */
  sending?: boolean;
  /** Notify: the group that may take this request together with others of the computer (notify-group.ts). */
  grouped?: Grouped;
}

/** What an agent's step works with, read inside the lock: the key as it is now, and today's counters. */
export interface AgentStep {
  tx: DeviceTx;
  now: number;
  key: KeyRow;
  /** Today's counters before this request. */
  today: UsageRow;
  /** With the option `sending`: what a notify checks next, read with the key. */
  sending?: SendingState;
  /** Adds to today's counters, together with the request itself, when the step ends. */
  count(counter: Counter, amount?: number): void;
  /**
   * A write of the step's own, run when the step ends, with the counters (one statement on PostgreSQL). It must
   * not touch the counters, and nothing of the step may read it back.
   */
  later(write: Write): void;
}

/**
 * An agent's request: the key (401/403), the budget (503 once spent), the read limit, then `work`. Whatever the
 * outcome after the key, the request is counted — with what `work` counted, in one write at the end.
 */
export function agentStep<T>(
  relay: Relay,
  agent: AgentCaller,
  options: AgentStepOptions,
  work: (step: AgentStep) => Promise<T>,
): Promise<T> {
  return refusable(
    relay,
    agent.deviceId,
    async (tx) => {
      const now = relay.clock();
      // An unknown or revoked key is refused before it is counted; today's counters come with the key.
      const { key, today, sending } = await verifyAgentKey(tx.db, agent, now, options.sending ? sendingQuery(relay, now) : undefined);
      const counts: Counts = { requests: 1 };
      const writes: Write[] = [];
      const step: AgentStep = {
        tx,
        now,
        key,
        today,
        sending,
        count: (counter, amount = 1) => void (counts[counter] = (counts[counter] ?? 0) + amount),
        later: (write) => void writes.push(write),
      };
      try {
        if (budgetSpent(relay, step.today)) throw budgetRefusal(now);
        if (options.readLimited) {
          if ((await keyLimitWait(tx.db, key, 'read', READS_PER_WINDOW, RATE_WINDOW_MS, now)) !== undefined) {
            throw rateLimited(`at most ${READS_PER_WINDOW} receipt and reply reads per key in 10 minutes`, READ_RETRY_SECONDS);
          }
          await recordKeyHit(tx.db, key, 'read', now);
        }
        if (lastUsedIsOld(key, now)) {
          await tx.db
            .updateTable('agent_keys')
            .set({ last_used_at: now })
            .where('device_id', '=', key.device_id)
            .where('id', '=', key.id)
            .execute();
        }
        return await work(step);
      } finally {
        await addUsage(tx.db, agent.deviceId, now, counts, writes); // a refusal (RelayError) is committed, and so is this
      }
    },
    options.grouped,
  );
}

/** Whether a request with the key writes its last-used time: at most once per KEY_LAST_USED_WRITE_MS. */
export const lastUsedIsOld = (key: KeyRow, now: number): boolean =>
  key.last_used_at === null || now - key.last_used_at >= KEY_LAST_USED_WRITE_MS;

/** The computer's request: counted (except the stream and the usage route), a sign of life, then `work`. */
export function deviceStep<T>(
  relay: Relay,
  caller: DeviceCaller,
  options: { counted: boolean },
  work: (tx: DeviceTx, now: number) => Promise<T>,
): Promise<T> {
  return refusable(relay, caller.deviceId, async (tx) => {
    const now = relay.clock();
    // Unpaired or removed since the token was checked: refused before anything is counted.
    if (!(await markSeen(tx.db, caller.deviceId, now))) throw unauthorized('unknown or revoked device token: pair again');
    // RA51: counted, never refused: the computer can always connect and drain its queue.
    if (options.counted) await addUsage(tx.db, caller.deviceId, now, { requests: 1 });
    return work(tx, now);
  });
}
