// Gotify's dialect at the daemon's root (docs/senders.md, docs/api/gotify.md): `POST /message` with an application
// token, which here is a sending key (its app) or the API token (the app `gotify`), and `GET /version`, which
// Gotify's clients probe. The message goes the way every notification goes; the answers are Gotify's.

import { createHash } from 'node:crypto';
import { GOTIFY_VERSION, gotifyMessage, readGotifyMessage } from '../../../protocol/dialects/gotify.js';
import { object } from '../../../protocol/schemas/json-schema.js';
import type { Route } from '../route.js';
import { readNotification } from '../routes/notifications.js';
import type { Services as AllServices } from '../services.js';

type Services = Pick<AllServices, 'notifications'>;

/** The app of a message sent with the API token, which names no application (docs/api/gotify.md#g2). */
export const GOTIFY_TOKEN_APP = 'gotify';

/**
 * Gotify's ids are numbers, Notifier's texts: a message's `id` is the time it was taken in milliseconds (unique
 * enough for a client that only logs it), the app's `appid` a number its name always gives.
 */
const appNumber = (app: string): number => createHash('sha256').update(app).digest().readUInt32BE(0) >>> 1;

const messageSchema = object({}, [], "Gotify's message JSON: id, appid, message, title, priority, extras, date");

export function gotifyRoutes(): Route<Services>[] {
  return [
    {
      method: 'POST',
      door: 'sender',
      dialect: 'gotify',
      rawBody: true,
      path: '/message',
      summary: "Gotify's message",
      tag: 'Notifications',
      reply: messageSchema,
      errors: { 400: 'no message, or a priority outside 0 to 10' },
      examples: [],
      handle: async ({ services, caller, raw, req }) => {
        const app = caller?.kind === 'key' ? caller.key.app : GOTIFY_TOKEN_APP;
        const translation = await readGotifyMessage({ contentType: req.headers['content-type'], body: raw }, app);
        const taken = new Date();
        await services.notifications.notify(readNotification(translation.notify));
        return gotifyMessage(translation, taken.getTime(), appNumber(app), taken.toISOString());
      },
    },
    {
      method: 'GET',
      door: 'open',
      dialect: 'gotify',
      path: '/version',
      summary: "Gotify's version, which its clients probe",
      tag: 'Health',
      reply: object({}, [], 'version, commit and buildDate'),
      errors: {},
      examples: [],
      handle: () => GOTIFY_VERSION,
    },
  ];
}
