import { errors } from '../../../protocol/errors.js';
import { checkLocalAppId, normalizeSpeak } from '../../../protocol/notification-rules.js';
import { okSchema } from '../../../protocol/schemas/common.js';
import { NOTIFICATION_KEYS, notificationSchema } from '../../../protocol/schemas/notification.js';
import { composeSchema, dismissAllSchema, dismissSchema, notifyReplySchema, speakSchema } from '../../../protocol/schemas/notifications.js';
import type { NotificationInput } from '../../core/notifications/checks.js';
import type { SpeakInput } from '../../core/notifications/notifications.js';
import { log } from '../../log.js';
import { bodyText, optionalBodyText } from '../params.js';
import { asSender } from '../guard.js';
import { ok, type Route } from '../route.js';
import type { Services as AllServices } from '../services.js';
import { validator } from '../validate.js';

type Services = Pick<AllServices, 'notifications' | 'screen' | 'openApp'>;

const checkNotification = validator<NotificationInput & { actions?: NotificationInput['buttons'] }>(notificationSchema);

/**
 * docs/api/notifications.md#n1: a top-level key that is not a notification field is a template field and moves into
 * `metadata`, where a top-level key wins over the same key inside `metadata`.
 */
function foldTemplateFields(body: Record<string, unknown>): Record<string, unknown> {
  const metadata = body.metadata ?? undefined;
  if (metadata !== undefined && (typeof metadata !== 'object' || Array.isArray(metadata))) return body; // the schema reports it
  const folded: Record<string, unknown> = {};
  let moved: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(body)) {
    if (key === 'metadata') continue;
    if (NOTIFICATION_KEYS.has(key)) folded[key] = value;
    else (moved ??= { ...(metadata as Record<string, unknown> | undefined) })[key] = value;
  }
  const merged = moved ?? metadata;
  if (merged !== undefined) folded.metadata = merged;
  return folded;
}

/** The body of POST /v1/notify as the core takes it. */
export function readNotification(body: Record<string, unknown>): NotificationInput {
  const folded = foldTemplateFields(body);
  if (typeof folded.priority === 'string') folded.priority = folded.priority.toLowerCase();
  if (folded.id === '') delete folded.id; // docs/api/notifications.md#n3: an empty id counts as absent
  const { actions, ...notification } = checkNotification(folded);
  if (notification.app.trim() === '') throw errors.invalidField('app', 'must not be empty');
  checkLocalAppId(notification.app);
  // docs/api/notifications.md#n15: a list named `actions` is `buttons` (when both are sent, `buttons` wins).
  if (notification.buttons === undefined && actions !== undefined) notification.buttons = actions;
  return notification;
}

/**
 * docs/api/notifications.md#post-v1-speak: `app` and `text` (not only white space) required; voice, speed and lang
 * checked.
 */
function readSpeak(body: Record<string, unknown>): SpeakInput {
  const app = bodyText(body, 'app');
  checkLocalAppId(app);
  if (typeof body.text !== 'string' && body.text !== undefined && body.text !== null) throw errors.invalidField('text', 'must be a string');
  const text = typeof body.text === 'string' ? body.text : '';
  if (text.trim() === '') throw errors.missingField('text');
  const id = optionalBodyText(body, 'id') || undefined;
  const speak = normalizeSpeak({ text, voice: body.voice ?? undefined, speed: body.speed ?? undefined, lang: body.lang ?? undefined }, '')!;
  return { app, text, ...(id ? { id } : {}), speak };
}

export function notificationRoutes(): Route<Services>[] {
  return [
    {
      method: 'POST',
      door: 'sender',
      path: '/v1/notify',
      summary: 'Show a notification',
      description:
        "Stores it in History and shows its banner (or speaks it). Keys that are not notification fields are template fields: they move into metadata. Opens with the API token or a sending key of the app (`app` may then be left out: it is the key's).",
      tag: 'Notifications',
      body: notificationSchema,
      reply: notifyReplySchema,
      errors: {
        400: 'a field is missing or has the wrong type or value, a button or the follow-up breaks a rule, or there is no title (and no template gives one)',
        403: 'a sending key of another app',
        413: 'a field is over its size limit',
        429: 'the app is new and 200 apps are registered already',
      },
      examples: [
        {
          summary: 'A build result',
          body: { app: 'com.example.build', id: 'build-42', title: 'Build 42 passed', body: 'All 318 tests passed.', persistent: true },
        },
        {
          summary: 'A failed build with a link',
          body: {
            app: 'com.example.build',
            id: 'build-43',
            title: 'Build 43 failed',
            group: 'nightly',
            persistent: true,
            buttons: [{ label: 'Open log', url: 'https://ci.example.com/43' }],
          },
        },
        {
          summary: 'Another nightly build',
          body: { app: 'com.example.build', id: 'build-44', title: 'Build 44 passed', group: 'nightly', persistent: true, priority: 'low' },
        },
        {
          summary: 'A question the person can answer',
          body: {
            app: 'com.example.chat',
            id: 'chat-7',
            title: 'Ana',
            body: 'Lunch at 1?',
            persistent: true,
            buttons: [{ label: 'Reply', reply: { placeholder: 'Your answer' } }],
          },
        },
        {
          summary: "Fields for the app's template",
          body: { app: 'com.example.build', title: 'Build 45 running', branch: 'main', percent: 40, timeout: 30 },
        },
      ],
      handle: async ({ services, body, caller }) => ({
        ok: true,
        id: await services.notifications.notify(readNotification(asSender(caller, body))),
      }),
    },
    {
      method: 'POST',
      door: 'token',
      path: '/v1/dismiss',
      summary: 'Close a banner',
      description: 'Its History record is marked dismissed. An id that is not on screen is not an error.',
      tag: 'Notifications',
      body: dismissSchema,
      reply: okSchema,
      errors: { 400: 'app or id is missing' },
      examples: [{ summary: 'One banner', body: { app: 'com.example.build', id: 'build-42' } }],
      handle: ({ services, body }) => services.screen.dismiss(bodyText(body, 'app'), bodyText(body, 'id')).then(ok),
    },
    {
      method: 'POST',
      door: 'token',
      path: '/v1/dismissAll',
      summary: "Close every banner, one app's, or one stack's",
      description: 'No body closes every banner. Records stay in History.',
      tag: 'Notifications',
      body: dismissAllSchema,
      reply: okSchema,
      errors: { 400: 'group without app' },
      examples: [{ summary: 'One stack of one app', body: { app: 'com.example.build', group: 'releases' } }],
      handle: async ({ services, body }) => {
        const app = optionalBodyText(body, 'app') || undefined;
        const group = optionalBodyText(body, 'group') || undefined;
        if (group !== undefined && app === undefined) throw errors.invalidField('group', 'needs app: a stack belongs to one app');
        await services.screen.dismissAll({ app, group });
        return { ok: true };
      },
    },
    {
      method: 'POST',
      door: 'token',
      path: '/v1/speak',
      summary: 'Say a text aloud',
      description: 'Spoken by the voice engine and kept in History; where speech cannot play, it is shown as a banner instead.',
      tag: 'Notifications',
      body: speakSchema,
      reply: notifyReplySchema,
      errors: {
        400: 'app or text is missing, or voice, speed or lang is invalid',
        429: 'the app is new and 200 apps are registered already',
      },
      examples: [{ summary: 'A sentence', body: { app: 'com.example.build', text: 'Build 42 passed', voice: 'en-gb', speed: 1.2 } }],
      handle: async ({ services, body }) => ({ ok: true, id: await services.notifications.speak(readSpeak(body)) }),
    },
    {
      // docs/api/notifications.md#post-v1-compose: opens the person's app at Compose (docs/app.md), and nothing
      // else; without a desktop session nothing opens and it still answers `{ok: true}` (the log says why).
      method: 'POST',
      door: 'token',
      path: '/v1/compose',
      summary: "Open the composer: the person's app at Compose",
      description:
        "Opens the person's app at Compose on this computer's desktop, signed in through the private channel. Nothing else: the caller gets no link and no session. Without a desktop session nothing opens; the answer is still {ok: true}.",
      tag: 'Notifications',
      body: composeSchema,
      reply: okSchema,
      errors: {},
      examples: [{ summary: 'Open it', body: {}, notSent: 'it would open a window on the desktop of the computer running the test' }],
      handle: async ({ services }) => {
        const opened = await services.openApp('compose');
        if (!opened.ok) log.info(`POST /v1/compose: Compose was not opened (${opened.error})`);
        return { ok: true };
      },
    },
  ];
}
