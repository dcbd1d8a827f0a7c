// `notifier replies` and the wait behind `notifier notify --wait` (docs/cli.md#waiting-for-the-person): what the
// person answered, read from the reply queue (GET /v1/replies) or waited for on the event-driven GET
// /v1/replies/wait, which also reports a button pressed when asked to (`ended`). Nothing polls: each request is
// held open by the service until the answer comes or its time is up.

import type { Command } from 'commander';
import { WAIT_TIMEOUT_SECONDS } from '../../protocol/limits.js';
import { ANSWER_WAIT_SECONDS, UsageError, answerWait } from '../args.js';
import { type ServiceReply, callService, printReply } from '../client.js';
import { type Context, act, send } from './common.js';

/** Exit codes of a wait (docs/cli.md#output-and-exit-codes): 1 and 2 keep their meaning for every command. */
export const WAIT_EXIT = {
  /** The time was up before the person answered; the banner may still be on screen. */
  timedOut: 3,
  /** The banner ended without an answer: closed, clicked, dismissed, run out, or ended by its follow-up. */
  endedUnanswered: 4,
} as const;

/** How much longer than the wait itself the tool waits for the service's "timed out" answer. */
const ANSWER_MARGIN_MS = 10_000;

export interface WaitRequest {
  id: string;
  app?: string | undefined;
  seconds: number;
  /** Also end the wait when the banner ends without a reply (GET /v1/replies/wait `ended`). */
  ended: boolean;
}

/**
 * Waits up to `seconds`, in requests of at most 300 s (the API's limit). Each request finds an answer that came
 * between two of them (with `app`, History keeps it), so none is missed. Returns the last reply, whose
 * `waitedSeconds` is the whole wait when the time was up; an error status is returned as it came.
 */
export async function waitForAnswer(context: Context, wait: WaitRequest): Promise<ServiceReply> {
  let left = wait.seconds;
  for (;;) {
    const seconds = Math.min(left, WAIT_TIMEOUT_SECONDS.max);
    const reply = await callService(
      {
        method: 'GET',
        path: '/v1/replies/wait',
        query: { id: wait.id, app: wait.app, timeout: seconds, ...(wait.ended ? { ended: true } : {}) },
        timeoutMs: seconds * 1000 + ANSWER_MARGIN_MS,
      },
      context.target,
    );
    const json = reply.json as { timedOut?: boolean } | undefined;
    left -= seconds;
    if (reply.status !== 200 || json?.timedOut !== true || left <= 0) {
      return json?.timedOut === true ? { ...reply, json: { ...json, waitedSeconds: wait.seconds } } : reply;
    }
  }
}

/** The API's answer of a wait, as `notify --wait` prints it; with the exit code it ends with. */
export function answerOfWait(id: string, app: string, json: any): { printed: Record<string, unknown>; exitCode: number } {
  const about = { id, app };
  if (json.replied === true) {
    return { printed: { ...about, answered: true, reply: json.reply.text, repliedAt: json.reply.repliedAt }, exitCode: 0 };
  }
  if (json.ended === true && json.button !== undefined) {
    return { printed: { ...about, answered: true, button: json.button, endedAt: json.endedAt }, exitCode: 0 };
  }
  if (json.ended === true) {
    const { replied: _r, ...ending } = json;
    return { printed: { ...about, answered: false, ...ending }, exitCode: WAIT_EXIT.endedUnanswered };
  }
  const { replied: _r, ...state } = json;
  return { printed: { ...about, answered: false, ...state }, exitCode: WAIT_EXIT.timedOut };
}

export function registerReplyCommands(program: Command): void {
  const replies = program
    .command('replies')
    .description("the person's typed replies (GET /v1/replies); --wait ID waits for one (GET /v1/replies/wait)")
    .option('--app <id>', "only this app's replies (with --wait: the app that sent the notification)")
    .option('--since <when>', 'only replies after this: an ISO 8601 date or epoch seconds')
    .option('--consume', 'take the replies returned out of the queue')
    .option('--wait <id>', 'wait for the reply to this notification; exit 3 when the time is up first')
    .option(
      '--timeout <duration>',
      `how long --wait waits: seconds or 90s, 10m, 2h, up to ${ANSWER_WAIT_SECONDS.max / 3600} hours (default ${ANSWER_WAIT_SECONDS.default})`,
      answerWait,
    );
  act(replies, async (context) => {
    const { app, since, consume, wait, timeout } = context.opts as Record<string, any>;
    if (wait === undefined) {
      if (timeout !== undefined) throw new UsageError('--timeout goes with --wait');
      return send(context, { method: 'GET', path: '/v1/replies', query: { app, since, ...(consume ? { consume: true } : {}) } });
    }
    if (since !== undefined || consume) throw new UsageError('--since and --consume are for reading the queue, not with --wait');
    const reply = await waitForAnswer(context, { id: wait, app, seconds: timeout ?? ANSWER_WAIT_SECONDS.default, ended: false });
    const exitCode = printReply(reply);
    process.exitCode = exitCode === 0 && (reply.json as { replied?: boolean }).replied !== true ? WAIT_EXIT.timedOut : exitCode;
  });
}
