// POST /v1/notify, /v1/dismiss, /v1/dismissAll, /v1/speak, /v1/compose. The notification object itself is in
// notification.ts.

import { appId, notificationId, okWith } from './common.js';
import { number, object, text } from './json-schema.js';

export const notifyReplySchema = okWith({ id: notificationId }, ['id']);

export const dismissSchema = object({ app: appId, id: notificationId }, ['app', 'id']);

export const dismissAllSchema = object({
  app: text("only this app's banners; absent: every banner"),
  group: text("only this stack (the notifications' group) of the app; needs app"),
});

export const speakSchema = object(
  {
    app: appId,
    text: text('what to say (not only white space; at most 2000 characters are kept)'),
    id: text('the id of its History record; absent: a new one is made'),
    voice: text('a voice name: 1 to 64 of letters, digits, _ - .'),
    speed: number('0.5 to 2.0'),
    lang: text('a language code: up to 16 of letters, - and _'),
  },
  ['app', 'text'],
);

export const composeSchema = object({}, [], 'no fields: the composer takes none');
