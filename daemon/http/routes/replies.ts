import type { NotifierCore } from '../../core/notifier.js';
import { errors } from '../../../protocol/errors.js';
import { WAIT_TIMEOUT_SECONDS } from '../../../protocol/limits.js';
import { queryText } from '../params.js';
import type { Route } from '../routes.js';

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

export function replyRoutes(core: NotifierCore): Route[] {
  return [
    {
      method: 'GET',
      path: '/v1/replies',
      handle: async (req) => {
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
      handle: async (req, res) => {
        // docs/api/replies.md#get-v1-replies-wait: `notificationId` and `timeoutSeconds` are other names for these;
        // both work.
        const id = queryText(req, 'id') || queryText(req, 'notificationId');
        if (!id) throw errors.missingField('id');
        const request = {
          id,
          app: queryText(req, 'app') || undefined,
          timeoutSeconds: readTimeout(queryText(req, 'timeout') ?? queryText(req, 'timeoutSeconds')),
          consume: readFlag(queryText(req, 'consume'), 'consume', true),
        };
        const gone = new AbortController();
        res.on('close', () => gone.abort()); // the client went away: stop waiting for it
        return core.waitForReply(request, gone.signal);
      },
    },
  ];
}
