// The notify pipeline's first step (docs/architecture.md, "One notification's way"): a notification made ready to
// deliver — checked and drawn through its template (checks.ts), given its id and time, its picture and recording
// fetched and its app's History loaded. Meanwhile a newer notification with this id may take its place (then it
// is dropped), or a dismissal may close it before it is shown (then it arrives dismissed).

import { randomUUID } from 'node:crypto';
import { coerceFields, resolveFields } from '../../../protocol/fields.js';
import type { Notification } from '../../../protocol/types.js';
import type { AppRegistry } from '../apps/app-registry.js';
import type { History } from '../history/history.js';
import type { ImageCache } from '../media/images.js';
import type { AppNames } from '../templates/app-names.js';
import type { Designs } from '../templates/designs.js';
import { timestamp } from '../timers.js';
import type { Voice } from '../voice/voice.js';
import { checkNotification, type NotificationInput } from './checks.js';
import type { InFlight } from './in-flight.js';

export interface PrepareParts {
  apps: Pick<AppRegistry, 'ensure'>;
  designs: Designs;
  names: Pick<AppNames, 'name'>;
  history: Pick<History, 'isLoaded' | 'load'>;
  images: Pick<ImageCache, 'cache' | 'discard'>;
  voice: Pick<Voice, 'cacheRecording'>;
  inFlight: InFlight;
}

/** A notification ready to deliver. */
export interface Prepared {
  id: string;
  app: string;
  appName: string;
  notification: Notification;
  deliveredAt: string;
  /** History `fields` (docs/api/history.md#h3): the notification's, the template's `extra`, the manifest's types. */
  fields: Record<string, string>;
  /** Its picture, kept in the support folder. */
  imagePath: string | null;
  /** Its recording, kept in the support folder. */
  recording: string | null;
  /** It was dismissed while on its way in. */
  dismissedAt?: string;
  /** A newer notification with its id took its place meanwhile: it goes no further. */
  superseded: boolean;
  /** The app's registration, when it is new (docs/api/apps.md#a1): settles once on disk. */
  registered: Promise<void> | null;
}

/** The notification made ready; a refused one throws the service's 4xx naming the field. */
export async function prepare(input: NotificationInput, parts: PrepareParts): Promise<Prepared> {
  const id = input.id || randomUUID().toUpperCase();
  const deliveredAt = timestamp();
  const appName = parts.names.name(input.app);
  const notification = checkNotification(input, id, parts.designs, { appName, deliveredAt });
  const registered = parts.apps.ensure(input.app);

  let imagePath: string | null = null;
  let recording: string | null = null;
  let dismissedAt: string | undefined;
  let superseded = false;
  if (notification.image !== undefined || notification.audio !== undefined || !parts.history.isLoaded(input.app)) {
    const arriving = parts.inFlight.begin(input.app, id);
    [imagePath, recording] = await Promise.all([
      notification.image === undefined ? null : parts.images.cache(notification.image),
      notification.audio === undefined ? null : parts.voice.cacheRecording(notification.audio),
      parts.history.load(input.app),
    ]);
    superseded = !parts.inFlight.finish(input.app, id, arriving);
    if (superseded) {
      parts.images.discard(imagePath);
      imagePath = null;
    } else {
      dismissedAt = arriving.dismissedAt;
    }
  }
  // A picture or recording sent inline is kept as a file: the record names the file, not the bytes.
  if (!superseded) {
    if (imagePath && notification.image?.startsWith('data:')) notification.image = imagePath;
    if (recording && notification.audio?.startsWith('data:')) notification.audio = recording;
  }

  return {
    id,
    app: input.app,
    appName,
    notification,
    deliveredAt,
    // A superseded notification goes no further: its fields are never read.
    fields: superseded ? {} : fieldsOf(notification, appName, deliveredAt, parts.designs),
    imagePath,
    recording,
    ...(dismissedAt !== undefined ? { dismissedAt } : {}),
    superseded,
    registered,
  };
}

/**
 * History `fields` (docs/api/history.md#h3, docs/api/templates.md#t10): the notification's, the template's `extra`, the manifest's
 * number and bool fields read as such.
 */
function fieldsOf(notification: Notification, appName: string, deliveredAt: string, designs: Designs): Record<string, string> {
  const extra = designs.template(notification.app, notification.template)?.extra;
  return coerceFields(resolveFields(notification, appName, deliveredAt, extra ? { extra } : {}), designs.manifest(notification.app));
}
