import { errors } from '../../../protocol/errors.js';
import { WAIT_TIMEOUT_SECONDS } from '../../../protocol/limits.js';
import { queryText } from '../params.js';
import { queryFlag } from '../../../protocol/schemas/common.js';
import { text } from '../../../protocol/schemas/json-schema.js';
import { repliesSchema, waitReplySchema, waitSecondsSchema } from '../../../protocol/schemas/replies.js';
import { onlyApp, type ApiRoute } from '../api-route.js';

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

/** A yes/no query parameter: true, 1, yes / false, 0, no, in any case. */
function readFlag(text: string | undefined, name: string, fallback: boolean): boolean {
  if (text === undefined || text === '') return fallback;
  const value = text.toLowerCase();
  if (['true', '1', 'yes'].includes(value)) return true;
  if (['false', '0', 'no'].includes(value)) return false;
  throw errors.invalidField(name, 'true or false');
}

/** docs/api/replies.md#get-v1-replies-wait, `timeout`: seconds from 1 to 300, default 60. */
function readTimeout(text: string | undefined): number {
  if (text === undefined || text === '') return WAIT_TIMEOUT_SECONDS.default;
  const seconds = Number(text);
  if (!(seconds >= WAIT_TIMEOUT_SECONDS.min && seconds <= WAIT_TIMEOUT_SECONDS.max)) {
    throw errors.invalidField('timeout', `seconds from ${WAIT_TIMEOUT_SECONDS.min} to ${WAIT_TIMEOUT_SECONDS.max}`);
  }
  return seconds;
}

export function replyRoutes(): ApiRoute[] {
  return [
    {
      method: 'GET',
      path: '/v1/replies',
      summary: "The person's replies",
      description: 'The reply queues: one entry per notification (the latest reply wins), at most 200 per app.',
      tag: 'Replies',
      query: [
        onlyApp("only this app's replies"),
        {
          name: 'since',
          schema: text(),
          description: 'only replies after this: epoch seconds, or an ISO 8601 date (a date alone means 09:00 local time)',
        },
        { name: 'consume', schema: queryFlag('default false'), description: 'remove the replies returned from the queue' },
      ],
      reply: repliesSchema,
      errors: { 400: 'since or consume cannot be read' },
      examples: [{ summary: "One app's replies since a date", query: { app: 'com.example.chat', since: '2025-01-06', consume: false } }],
      handler: (core) => async (req) => {
        const replies = await core.readReplies({
          app: queryText(req, 'app') || undefined,
          since: readSince(queryText(req, 'since')),
          consume: readFlag(queryText(req, 'consume'), 'consume', false),
        });
        return { count: replies.length, replies };
      },
    },
    {
      method: 'GET',
      path: '/v1/replies/wait',
      summary: 'Wait for the reply to one notification',
      description: 'Answered the moment the person replies (a reply already there at once), or when the time is up.',
      tag: 'Replies',
      query: [
        { name: 'id', schema: text(), description: "the notification's id (notificationId is accepted too); required" },
        { name: 'notificationId', schema: text(), description: 'another name of id' },
        onlyApp('the app that sent it'),
        { name: 'timeout', schema: waitSecondsSchema, description: 'timeoutSeconds is accepted too' },
        { name: 'timeoutSeconds', schema: waitSecondsSchema, description: 'another name of timeout' },
        { name: 'consume', schema: queryFlag('default true'), description: 'remove the reply from the queue' },
        {
          name: 'ended',
          schema: queryFlag('default false'),
          description: 'also answer when the banner ends without a reply: a button pressed, closed, dismissed, run out',
        },
      ],
      reply: waitReplySchema,
      errors: { 400: 'no id, or timeout, consume or ended cannot be read' },
      examples: [
        { summary: 'One second for the lunch question', query: { id: 'chat-7', app: 'com.example.chat', timeout: 1 } },
        { summary: 'A reply or a button, for one second', query: { id: 'deploy-12', app: 'com.example.chat', timeout: 1, ended: true } },
      ],
      handler: (core) => async (req, res) => {
        // docs/api/replies.md#get-v1-replies-wait: `notificationId` and `timeoutSeconds` are other names for these;
        // both work.
        const id = queryText(req, 'id') || queryText(req, 'notificationId');
        if (!id) throw errors.missingField('id');
        const request = {
          id,
          app: queryText(req, 'app') || undefined,
          timeoutSeconds: readTimeout(queryText(req, 'timeout') ?? queryText(req, 'timeoutSeconds')),
          consume: readFlag(queryText(req, 'consume'), 'consume', true),
          ended: readFlag(queryText(req, 'ended'), 'ended', false),
        };
        const gone = new AbortController();
        res.on('close', () => gone.abort()); // the client went away: stop waiting for it
        return core.waitForReply(request, gone.signal);
      },
    },
  ];
}
