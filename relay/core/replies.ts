// `GET /v1/replies/{id}?wait=` and the `wait_for_reply` tool (docs/relay-api.md#ra47): answer at once when the
// person replied (or nothing will be shown), else hold the request until a reply, an all-scope suppression or
// the deadline. Waiting spends the computer's daily long-poll seconds; once they are spent, waits are 0.

import { invalidField, notFound } from '../../protocol/relay/errors.js';
import type { ReplyAnswer } from '../../protocol/relay/receipts.js';
import { MAX_REPLY_WAIT_SECONDS } from '../limits.js';
import type { AgentCaller } from './auth.js';
import { findNote, readableNote } from './notes.js';
import type { Relay } from './relay.js';
import { agentStep } from './requests.js';
import { addUsage } from './usage.js';
import { replyAnswer, replyIsSettled } from './views.js';

/** RA47: `wait` in seconds, 0 to 60 (more is cut to 60); absent is 0. */
export function readWaitSeconds(value: unknown, max = MAX_REPLY_WAIT_SECONDS): number {
  if (value === undefined || value === '') return 0;
  const seconds = typeof value === 'number' ? value : typeof value === 'string' && /^\d+(\.\d+)?$/.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(seconds) || seconds < 0) throw invalidField('wait', `seconds to wait, 0 to ${max}`);
  return Math.min(max, seconds);
}

export async function waitForReply(
  relay: Relay,
  agent: AgentCaller,
  nid: string,
  waitSeconds: number,
  origin: string,
): Promise<ReplyAnswer> {
  const first = await agentStep(relay, agent, { readLimited: true }, async ({ tx, key, now, today }) => {
    const note = await readableNote(tx.db, key, nid, now);
    if (replyIsSettled(note) || waitSeconds === 0) return { note, allowedMs: 0 };
    return { note, allowedMs: Math.max(0, Math.min(waitSeconds, relay.limits.devicePollSecondsPerDay - today.poll_seconds)) * 1000 };
  });
  if (first.allowedMs === 0) return replyAnswer(first.note, { relay, origin, now: relay.clock() }, false);

  const started = relay.clock();
  const deadline = started + first.allowedMs;
  let note = first.note;
  try {
    for (;;) {
      const waiting = relay.waiters.wait(agent.deviceId, note.rid, deadline - relay.clock());
      // A receipt that landed before the waiter existed sent its message to nobody: look once more.
      const current = await findNote(relay.store.db, agent.deviceId, note.rid);
      if (!current) {
        waiting.cancel();
        throw notFound('this notification is gone (its key was purged or the computer unpaired)');
      }
      note = current;
      if (replyIsSettled(note) || relay.clock() >= deadline) {
        waiting.cancel();
        break;
      }
      if (!(await waiting.done)) {
        note = (await findNote(relay.store.db, agent.deviceId, note.rid)) ?? note;
        break;
      }
    }
  } finally {
    // Whole seconds begun, never more than were granted (a timer fires a little late).
    const waited = Math.min(Math.ceil((relay.clock() - started) / 1000), Math.ceil(first.allowedMs / 1000));
    if (waited > 0)
      await relay.store.withDeviceLock(agent.deviceId, (tx) => addUsage(tx.db, agent.deviceId, relay.clock(), { poll_seconds: waited }));
  }
  const settled = replyIsSettled(note);
  return replyAnswer(note, { relay, origin, now: relay.clock() }, !settled);
}
