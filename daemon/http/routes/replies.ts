import { errors } from '../../../protocol/errors.js';
import { WAIT_TIMEOUT_SECONDS } from '../../../protocol/limits.js';
import { queryFlag } from '../../../protocol/schemas/common.js';
import { text } from '../../../protocol/schemas/json-schema.js';
import { repliesSchema, waitReplySchema, waitSecondsSchema } from '../../../protocol/schemas/replies.js';
import type { Core } from '../../core/core.js';
import { onlyApp, query, type Route } from '../route.js';

type Services = Pick<Core, 'replyWait'>;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * docs/api/replies.md#r5, GET /v1/replies `since`: epoch seconds (fractions allowed) or an ISO 8601 date; a date
 * alone means 09:00 that day, local time. Returns epoch milliseconds.
 */
function readSince(text: string | undefined): number | undefined {
  if (text === undefined || text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  if (DATE_ONLY.test(text)) {
    const [year, month, day] = text.split('-').map(Number);
    return new Date(year!, month! - 1, day!, 9).getTime();
  }
  const parsed = /^\d{4}-\d{2}-\d{2}T/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(parsed)) throw errors.invalidField('since', 'an ISO 8601 date or epoch seconds');
  return parsed;
}

/** docs/api/replies.md#get-v1-replies-wait, `timeout`: seconds from 1 to 300, default 60. */
function readTimeout(text: string | undefined): number | undefined {
  if (text === undefined || text === '') return undefined;
  const seconds = Number(text);
  if (!(seconds >= WAIT_TIMEOUT_SECONDS.min && seconds <= WAIT_TIMEOUT_SECONDS.max)) {
    throw errors.invalidField('timeout', `seconds from ${WAIT_TIMEOUT_SECONDS.min} to ${WAIT_TIMEOUT_SECONDS.max}`);
  }
  return seconds;
}

export function replyRoutes(): Route<Services>[] {
  return [
    {
      method: 'GET',
      door: 'token',
      path: '/v1/replies',
      summary: "The person's replies",
      description: 'The reply queues: one entry per notification (the latest reply wins), at most 200 per app.',
      tag: 'Replies',
      query: [
        onlyApp("only this app's replies"),
        query.read(
          'since',
          'only replies after this: epoch seconds, or an ISO 8601 date (a date alone means 09:00 local time)',
          text(),
          readSince,
        ),
        query.flag('consume', 'remove the replies returned from the queue', false, queryFlag('default false')),
      ],
      reply: repliesSchema,
      errors: { 400: 'since or consume cannot be read' },
      examples: [{ summary: "One app's replies since a date", query: { app: 'com.example.chat', since: '2025-01-06', consume: false } }],
      handle: async ({ services, query }) => {
        const replies = await services.replyWait.read(query as { app?: string; since?: number; consume: boolean });
        return { count: replies.length, replies };
      },
    },
    {
      method: 'GET',
      door: 'token',
      path: '/v1/replies/wait',
      summary: 'Wait for the reply to one notification',
      description: 'Answered the moment the person replies (a reply already there at once), or when the time is up.',
      tag: 'Replies',
      query: [
        query.text('id', "the notification's id (notificationId is accepted too); required"),
        query.text('notificationId', 'another name of id'),
        onlyApp('the app that sent it'),
        query.read('timeout', 'timeoutSeconds is accepted too', waitSecondsSchema, readTimeout),
        query.read('timeoutSeconds', 'another name of timeout', waitSecondsSchema, readTimeout),
        query.flag('consume', 'remove the reply from the queue', true, queryFlag('default true')),
        query.flag(
          'ended',
          'also answer when the banner ends without a reply: a button pressed, closed, dismissed, run out',
          false,
          queryFlag('default false'),
        ),
      ],
      reply: waitReplySchema,
      errors: { 400: 'no id, or timeout, consume or ended cannot be read' },
      examples: [
        { summary: 'One second for the lunch question', query: { id: 'chat-7', app: 'com.example.chat', timeout: 1 } },
        { summary: 'A reply or a button, for one second', query: { id: 'deploy-12', app: 'com.example.chat', timeout: 1, ended: true } },
      ],
      handle: ({ services, query, res }) => {
        // docs/api/replies.md#get-v1-replies-wait: `notificationId` and `timeoutSeconds` are other names for these;
        // both work.
        const id = (query.id ?? query.notificationId) as string | undefined;
        if (!id) throw errors.missingField('id');
        const request = {
          id,
          app: query.app as string | undefined,
          timeoutSeconds: (query.timeout ?? query.timeoutSeconds ?? WAIT_TIMEOUT_SECONDS.default) as number,
          consume: query.consume as boolean,
          ended: query.ended as boolean,
        };
        const gone = new AbortController();
        res.on('close', () => gone.abort()); // the client went away: stop waiting for it
        return services.replyWait.wait(request, gone.signal);
      },
    },
  ];
}
