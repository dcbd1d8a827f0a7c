// Reading what the person typed into a banner (daemon/http/routes/replies.ts).

import { APP_FILTER, type Tool, annotate, call, flag, inputs, jsonResult, number, route, text } from './common.js';

export const getReplies = route('get_replies', 'Read replies', 'GET /v1/replies', {
  description: 'Replies the person typed, oldest first (GET /v1/replies). consume: true takes them out of the queue.',
  inputSchema: inputs({
    app: APP_FILTER,
    since: text('Only replies after this: an ISO 8601 date or epoch seconds.'),
    consume: flag('Take the returned replies out of the queue. Default false.'),
  }),
  kind: 'set',
  agentApp: true,
});

/**
 * How long the HTTP call may take beyond the wait itself (docs/mcp.md#choices-of-this-server: the timeout plus
 * 15 s).
 */
const WAIT_MARGIN_SECONDS = 15;
const DEFAULT_WAIT_SECONDS = 60;

export const waitForReply: Tool = {
  name: 'wait_for_reply',
  title: 'Wait for a reply',
  description:
    'Wait until the person types a reply into the banner of one notification (GET /v1/replies/wait). Replies ' +
    '{replied: true, reply} or, after the timeout, {replied: false, timedOut: true}. The notification needs a reply button ' +
    '(for example buttons: [{label: "Reply", reply: {}}]). With ended: true, a plain button pressed (or the banner closed) ' +
    'answers too: {replied: false, ended: true, actionUsed, button} (button: the label pressed, when it was one).',
  routes: ['GET /v1/replies/wait'],
  inputSchema: inputs({
    notificationId: text('The notification id (id also works).'),
    id: text('Same as notificationId.'),
    app: text('The app id; with it a reply already read from the queue is still found in History.'),
    timeoutSeconds: number('1 to 300. Default 60.'),
    consume: flag('Take the reply out of the queue. Default true.'),
    ended: flag('Also answer when the banner ends without a reply: a button pressed, closed, dismissed, run out. Default false.'),
  }),
  annotations: annotate('Wait for a reply', 'set'),
  agentApp: true,
  run: async (args, context) => {
    const timeout = args.timeoutSeconds ?? args.timeout;
    const seconds = typeof timeout === 'number' && timeout > 0 ? timeout : DEFAULT_WAIT_SECONDS;
    const query = {
      id: (args.notificationId ?? args.id) as string | undefined,
      app: args.app as string | undefined,
      timeout: timeout as number | undefined,
      consume: args.consume as boolean | undefined,
      ended: args.ended as boolean | undefined,
    };
    const answer = await call(context, {
      method: 'GET',
      path: '/v1/replies/wait',
      query,
      timeoutMs: (Math.min(seconds, 300) + WAIT_MARGIN_SECONDS) * 1000,
    });
    return jsonResult(answer.json);
  },
};
