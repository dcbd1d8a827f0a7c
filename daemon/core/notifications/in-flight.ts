// Notifications still on their way in — a picture downloading, their app's History loading — and what happened to
// their id meanwhile: a newer notification with the same id takes the place of the older, and a dismissal made
// before the banner could be shown is kept, so the notification arrives already closed.

import { recordKey } from '../../../protocol/record-key.js';

/** One notification on its way in. */
export interface Arriving {
  dismissedAt?: string;
}

export class InFlight {
  private readonly arriving = new Map<string, Arriving>();

  /** A notification starts its way in; an older one with its id is superseded. */
  begin(app: string, id: string): Arriving {
    const entry: Arriving = {};
    this.arriving.set(recordKey(app, id), entry);
    return entry;
  }

  /** Whether this notification is still the one with its id (else a newer one took its place), and ends its way in. */
  finish(app: string, id: string, entry: Arriving): boolean {
    if (this.arriving.get(recordKey(app, id)) !== entry) return false;
    this.arriving.delete(recordKey(app, id));
    return true;
  }

  /** A dismissal of a notification on its way in (one id, or every one of an app, or all): it arrives dismissed. */
  dismiss(at: string, app?: string, id?: string): void {
    for (const [key, entry] of this.arriving) {
      const matches = app === undefined || (id === undefined ? key.startsWith(`${app}\u0000`) : key === recordKey(app, id));
      if (matches) entry.dismissedAt ??= at;
    }
  }
}
