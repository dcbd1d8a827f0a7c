// The person's replies: GET /v1/replies and GET /v1/replies/wait.

import { WAIT_TIMEOUT_SECONDS as WAIT } from '../limits.js';
import { appId, notificationId } from './common.js';
import { integer, list, number, object, text, timestamp } from './json-schema.js';

export const replyRecordSchema = object(
  { notificationId, app: appId, title: text("the notification's title"), text: text('what the person wrote'), repliedAt: timestamp() },
  ['notificationId', 'app', 'text', 'repliedAt'],
);

export const repliesSchema = object({ count: integer(), replies: list(replyRecordSchema, 'oldest first') }, ['count', 'replies']);

export const waitReplySchema = {
  oneOf: [
    object({ replied: { const: true }, reply: replyRecordSchema }, ['replied', 'reply']),
    object(
      {
        replied: { const: false },
        ended: { const: true },
        endedAt: timestamp(),
        actionUsed: text('how the banner ended, as History records it'),
        button: text('the label of the button the person pressed, when that is how it ended'),
      },
      ['replied', 'ended', 'endedAt'],
    ),
    object({ replied: { const: false }, timedOut: { const: true }, waitedSeconds: number() }, ['replied', 'timedOut', 'waitedSeconds']),
  ],
} as const;

export const waitSecondsSchema = {
  type: 'number',
  minimum: WAIT.min,
  maximum: WAIT.max,
  description: `seconds to wait, ${WAIT.min} to ${WAIT.max}, default ${WAIT.default}`,
} as const;
