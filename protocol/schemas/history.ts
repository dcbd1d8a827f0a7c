// A History record (what GET /v1/history and the search and export routes answer) and the bodies of the History
// routes.

import { appId, notificationId, okWith } from './common.js';
import { integer, list, map, number, object, text, timestamp } from './json-schema.js';
import { notificationSchema } from './notification.js';

/** A notification as History keeps it: the one sent, after the template filled it in, always with its id. */
export const storedNotificationSchema = {
  type: 'object',
  allOf: [notificationSchema],
  required: ['id'],
  properties: { id: notificationId },
} as const;

export const historyRecordSchema = object(
  {
    id: notificationId,
    app: appId,
    notification: storedNotificationSchema,
    deliveredAt: timestamp(),
    dismissedAt: timestamp(),
    actionUsed: text("how the banner ended: dismiss, close, timeout, open, or a button's label"),
    actionNote: text('why a button or a click did not do its job'),
    snoozedUntil: timestamp(),
    held: text('why the banner was never shown: quiet-hours or app-muted'),
    imagePath: text("the service's copy of the picture"),
    recordingPath: text("the service's copy of the audio recording"),
    fields: map(text(), 'the template fields the notification resolved to'),
    speech: object(
      {
        text: text(),
        voice: text(),
        audioPath: text(),
        durationSeconds: number(),
        suppressed: text('why nothing was spoken: unavailable, muted, quiet-hours, app-speech-off or app-muted'),
      },
      ['text'],
    ),
    followUp: object(
      {
        ranAt: timestamp(),
        action: text(),
        actionId: text(),
        kind: text(),
        outcome: { type: 'string', enum: ['ran', 'failed', 'waitingForApproval'] },
        detail: text(),
        unattendedSeconds: number(),
      },
      ['ranAt', 'action', 'actionId', 'kind', 'outcome', 'unattendedSeconds'],
    ),
    reply: text("the person's reply"),
    repliedAt: timestamp(),
    replyAudioPath: text(),
    replyTranscript: text(),
  },
  ['id', 'app', 'notification', 'deliveredAt'],
);

const records = list(historyRecordSchema, 'newest first');

export const historyListSchema = object({ items: records }, ['items']);

export const historySearchSchema = object({ query: text(), count: integer('how many records are returned'), items: records }, [
  'query',
  'count',
  'items',
]);

export const historyExportSchema = object(
  {
    count: integer(),
    items: list(historyRecordSchema, 'the records, when no path was given'),
    path: text('the file written, when a path was given'),
    bytes: integer('the size of the file written'),
  },
  ['count'],
);

export const reshowSchema = object({ app: appId, id: notificationId }, ['app', 'id']);

export const reshowReplySchema = okWith({ id: notificationId }, ['id']);
