// POST /v1/notify and POST /v1/speak (docs/api/notifications.md#post-v1-notify, #n38): one notification's way in, as
// four named steps, each in its own file (docs/architecture.md, "One notification's way"): prepare (check, draw,
// fetch) → decide how it is delivered (a pure function of the settings, quiet hours and the app's preferences) →
// keep its record → present it. The caller is answered once the record is on disk.

import { SPEAK_TITLE_CHARS, SPOKEN_TEXT_CHARS } from '../../../protocol/limits.js';
import type { SpeakRequest } from '../../../protocol/types.js';
import type { QuietHours } from '../settings/quiet-hours.js';
import type { NotificationInput } from './checks.js';
import type { DeliveryRules } from './delivery.js';
import { prepare, type PrepareParts } from './prepare.js';
import { present, type PresentParts } from './present.js';
import { keep, type KeepParts } from './record.js';

/** POST /v1/speak, read: the text to say and how. */
export interface SpeakInput {
  app: string;
  id?: string;
  text: string;
  speak: SpeakRequest;
}

/** What the four steps use, together. */
export type NotificationsParts = PrepareParts &
  PresentParts &
  KeepParts & {
    rules: DeliveryRules;
    quietHours: Pick<QuietHours, 'noteQuieted'>;
  };

export class Notifications {
  private readonly deliveryListeners = new Set<() => void>();

  constructor(private readonly parts: NotificationsParts) {}

  /** Resolves with the notification's id once its record is on disk. */
  async notify(input: NotificationInput): Promise<string> {
    const prepared = await prepare(input, this.parts);
    if (prepared.superseded) {
      await prepared.registered;
      return prepared.id;
    }
    const delivery = this.parts.rules.decide(prepared.notification, prepared.dismissedAt);
    if (delivery.quieted) this.parts.quietHours.noteQuieted(prepared.notification.title || prepared.appName);
    const { record, saved } = keep(prepared, delivery, this.parts);
    await present(record, prepared, delivery, this.parts);
    await (prepared.registered ? Promise.all([saved, prepared.registered]) : saved);
    for (const listener of this.deliveryListeners) listener();
    return prepared.id;
  }

  /** Says the text, with a History entry titled with its first 80 characters; speech that cannot play is shown instead. */
  speak(input: SpeakInput): Promise<string> {
    return this.notify({
      app: input.app,
      ...(input.id ? { id: input.id } : {}),
      title: input.text.trim().slice(0, SPEAK_TITLE_CHARS),
      presentation: 'voice',
      speak: { ...input.speak, text: input.text.slice(0, SPOKEN_TEXT_CHARS) },
    });
  }

  /** Calls back after every notification delivered (the tray refreshes its list); returns a function that stops. */
  onDelivery(listener: () => void): () => void {
    this.deliveryListeners.add(listener);
    return () => this.deliveryListeners.delete(listener);
  }
}
