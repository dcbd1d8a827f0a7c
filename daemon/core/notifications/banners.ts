import { log } from '../../log.js';
import type { Banner, BannerKey, Presenter } from '../../present/presenter.js';
import { buttonKind, isOpenableLink } from '../../../protocol/notification-rules.js';
import type { Timers } from '../timers.js';
import type { AppRegistration, HistoryRecord } from '../../../protocol/types.js';

/** docs/api/notifications.md#n11: `persistent: false` without a timeout closes after 8 seconds. */
const NON_PERSISTENT_SECONDS = 8;

const keyOf = (app: string, id: string): string => `${app}\u0000${id}`;

interface OnScreen {
  key: BannerKey;
  /** Stacking key: the notification's group, else the app id (docs/api/notifications.md#n40). */
  group: string;
}

/**
 * Which banners are on screen: the core's own record, whatever the display does. Presenter calls are made in
 * order and never make a request fail: a display that breaks costs the picture on screen, not the notification.
 * A banner's lifetime is timed here unless the display times it itself (and may pause it while hovered).
 */
export class Banners {
  private readonly onScreen = new Map<string, OnScreen>();

  constructor(
    private readonly presenter: Presenter,
    private readonly timers: Timers,
  ) {}

  isOnScreen(app: string, id: string): boolean {
    return this.onScreen.has(keyOf(app, id));
  }

  /**
   * Shows a banner, or replaces it in place when the same app and id is already on screen. `expired` runs when
   * its time is up (if the core times it).
   */
  show(banner: Banner, group: string, expired: () => void): void {
    const key = keyOf(banner.key.app, banner.key.id);
    const replacing = this.onScreen.has(key);
    this.onScreen.set(key, { key: banner.key, group });
    this.draw(replacing ? this.presenter.replace(banner) : this.presenter.show(banner), 'show');
    this.timers.cancel('expire', key);
    if (!this.presenter.handlesExpiry && banner.expireSeconds !== null) {
      this.timers.after('expire', key, banner.expireSeconds * 1000, expired);
    }
  }

  /** Takes a banner off the screen; false when it was not on screen. */
  close(app: string, id: string): boolean {
    const key = keyOf(app, id);
    this.timers.cancel('expire', key);
    if (!this.onScreen.delete(key)) return false;
    this.draw(this.presenter.close({ app, id }), 'close');
    return true;
  }

  /** The display already took it away (the person closed it, or it expired there): only forget it. */
  forget(app: string, id: string): void {
    const key = keyOf(app, id);
    this.timers.cancel('expire', key);
    this.onScreen.delete(key);
  }

  /** Banners on screen, optionally of one app and one stack. */
  list(filter: { app?: string; group?: string } = {}): BannerKey[] {
    return [...this.onScreen.values()]
      .filter((banner) => filter.app === undefined || banner.key.app === filter.app)
      .filter((banner) => filter.group === undefined || banner.group === filter.group)
      .map((banner) => banner.key);
  }

  private draw(call: Promise<void>, what: string): void {
    call.catch((error: Error) => log.warn(`presenter ${this.presenter.name} could not ${what} a banner: ${error.message}`));
  }
}

/** The effective stacking key of a record. */
export const groupOf = (record: HistoryRecord): string => record.notification.group ?? record.app;

/** docs/api/notifications.md#n11: the seconds a banner stays (null: until dismissed), from the notification and the app's defaults. */
export function lifetimeOf(record: HistoryRecord, registration: AppRegistration | undefined): number | null {
  const defaults = registration?.defaults ?? {};
  return expireSeconds(record.notification.timeout ?? defaults.timeout, record.notification.persistent ?? defaults.persistent);
}

/** What the presenter draws for a stored record: its drawn notification plus the app's defaults. */
export function bannerFor(
  record: HistoryRecord,
  appName: string,
  registration: AppRegistration | undefined,
  options: { sound: boolean; picture?: string },
): Banner {
  const n = record.notification;
  const defaults = registration?.defaults ?? {};
  const sound = n.sound ?? defaults.sound ?? 'default';
  return {
    key: { app: record.app, id: record.id },
    appName,
    title: n.title ?? '',
    ...(n.showSubtitle !== false && n.subtitle ? { subtitle: n.subtitle } : {}),
    ...(n.showBody !== false && n.body ? { body: n.body } : {}),
    ...((options.picture ?? record.imagePath) ? { imagePath: options.picture ?? record.imagePath } : {}),
    ...(n.url && isOpenableLink(n.url) ? { url: n.url } : {}),
    actions: (n.buttons ?? []).map((button) => ({
      actionId: button.id ?? button.label,
      label: button.label,
      kind: buttonKind(button),
      ...(button.style ? { style: button.style } : {}),
      ...(button.reply?.placeholder ? { placeholder: button.reply.placeholder } : {}),
    })),
    snooze: n.snooze === true,
    priority: n.priority ?? 'normal',
    ...(n.group ? { group: n.group } : {}),
    expireSeconds: lifetimeOf(record, registration),
    sound: options.sound && sound !== 'none' ? sound : null,
  };
}

/** docs/api/notifications.md#n11: a timeout over 0 wins; otherwise `persistent: false` means 8 s; otherwise it stays. */
function expireSeconds(timeout: number | undefined, persistent: boolean | undefined): number | null {
  if (timeout !== undefined && timeout > 0) return timeout;
  if (persistent === false) return NON_PERSISTENT_SECONDS;
  return null;
}
