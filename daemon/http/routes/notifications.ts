import type { NotifierCore } from '../../core/notifier.js';
import type { NotificationInput } from '../../core/notifications/notify.js';
import { normalizeSpeak } from '../../../protocol/notification-rules.js';
import type { SpeakInput } from '../../core/notifier.js';
import { errors } from '../../../protocol/errors.js';
import { bodyObject, bodyText, optionalBodyText } from '../params.js';
import type { Route } from '../routes.js';
import { NOTIFICATION_KEYS, notificationSchema } from '../schemas/notification.js';
import { validator } from '../validate.js';

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
  if (typeof body.text !== 'string' && body.text !== undefined && body.text !== null) throw errors.invalidField('text', 'must be a string');
  const text = typeof body.text === 'string' ? body.text : '';
  if (text.trim() === '') throw errors.missingField('text');
  const id = optionalBodyText(body, 'id') || undefined;
  const speak = normalizeSpeak({ text, voice: body.voice ?? undefined, speed: body.speed ?? undefined, lang: body.lang ?? undefined }, '')!;
  return { app, text, ...(id ? { id } : {}), speak };
}

export function notificationRoutes(core: NotifierCore): Route[] {
  return [
    {
      method: 'POST',
      path: '/v1/notify',
      handle: async (req) => ({ ok: true, id: await core.notify(readNotification(bodyObject(req))) }),
    },
    {
      method: 'POST',
      path: '/v1/dismiss',
      handle: async (req) => {
        const body = bodyObject(req);
        await core.dismiss(bodyText(body, 'app'), bodyText(body, 'id'));
        return { ok: true };
      },
    },
    {
      method: 'POST',
      path: '/v1/dismissAll',
      handle: async (req) => {
        const body = bodyObject(req);
        const app = optionalBodyText(body, 'app') || undefined;
        const group = optionalBodyText(body, 'group') || undefined;
        if (group !== undefined && app === undefined) throw errors.invalidField('group', 'needs app: a stack belongs to one app');
        await core.dismissAll({ app, group });
        return { ok: true };
      },
    },
    {
      method: 'POST',
      path: '/v1/speak',
      handle: async (req) => ({ ok: true, id: await core.speak(readSpeak(bodyObject(req))) }),
    },
    {
      // docs/api/notifications.md#post-v1-compose: answers `{ok: true}` and shows nothing: this service has no
      // composer window.
      method: 'POST',
      path: '/v1/compose',
      handle: () => ({ ok: true }),
    },
  ];
}
