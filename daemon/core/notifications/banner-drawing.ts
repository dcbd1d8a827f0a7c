// Drawing a record's banner (docs/api/notifications.md#n47, #n48): the banner the presenter shows for a stored
// record — its sound unless sounds are off, its card picture, its template's buttons, in its stack, timed — and
// the short banner that says what went wrong when an action failed. The screen decides when, and the delivery
// rules whether it sounds; this decides what.

import { log } from '../../log.js';
import type { Banner, Presenter } from '../../present/presenter.js';
import type { AppRegistration, HistoryRecord } from '../../../protocol/types.js';
import type { AppRegistry } from '../apps/app-registry.js';
import type { History } from '../history/history.js';
import type { CardPictures } from '../templates/cards.js';
import type { Designs } from '../templates/designs.js';
import type { AppNames } from '../templates/app-names.js';
import type { DeliveryRules } from './delivery.js';
import type { Timers } from '../timers.js';
import path from 'node:path';
import type { Banners } from './banners.js';
import { buttonKind, isOpenableLink, isRelayedApp } from '../../../protocol/notification-rules.js';
import { resolveBinding } from '../../../protocol/fields.js';
import { fractionOf } from '../../../templates-renderer/components.js';
import type { Template } from '../../../templates-renderer/model.js';
import { idOf, liveButtons } from '../templates/live-actions.js';
import { stackKey } from './stacking.js';
import type { StackingLevel } from '../../../protocol/types.js';
import { recordKey } from '../../../protocol/record-key.js';

/** docs/api/notifications.md#n48: how long the short banner saying what went wrong stays. */
const PROBLEM_BANNER_SECONDS = 10;
/** Its key: the notification's own id with this after it, so it never takes the notification's place. */
const PROBLEM_KEY_SUFFIX = '\u0000problem';

/** What drawing needs (the screen provides it). */
export interface DrawingHost {
  readonly cards: Pick<CardPictures, 'get'>;
  readonly designs: Pick<Designs, 'template' | 'manifest'>;
  readonly apps: Pick<AppRegistry, 'get'>;
  readonly banners: Pick<Banners, 'show' | 'isOnScreen'>;
  readonly history: Pick<History, 'get'>;
  readonly presenter: Pick<Presenter, 'show' | 'close' | 'handlesExpiry'>;
  /** An app's name, and its icon file if it has one (sent as the banner's app icon). */
  readonly names: Pick<AppNames, 'name' | 'icon'>;
  readonly rules: Pick<DeliveryRules, 'stackingOf'>;
  /** A banner's time is up. */
  expired(app: string, id: string): void;
}

export class BannerDrawing {
  constructor(
    private readonly host: DrawingHost,
    private readonly timers: Pick<Timers, 'after'>,
  ) {}

  /**
   * Draws a record's banner (in place when it is up), with its sound or not as decided, in its stack (as decided,
   * else its app's), timed; `problem` says what went wrong on it.
   */
  draw(record: HistoryRecord, options: { sound: boolean; stacking?: StackingLevel; problem?: string }): void {
    const { host } = this;
    const { sound } = options;
    const card = host.cards.get(record.app, record.id);
    const template = host.designs.template(record.app, record.notification.template);
    const appIcon = host.names.icon(record.app);
    const banner = bannerFor(record, host.names.name(record.app), host.apps.get(record.app), {
      sound,
      ...(card ? { card } : {}),
      ...(appIcon ? { appIcon } : {}),
      ...(template ? { template } : {}),
    });
    if (options.problem) banner.problem = options.problem;
    const stack = stackKey(record, options.stacking ?? host.rules.stackingOf(record.app), host.designs.manifest(record.app));
    host.banners.show(banner, { group: groupOf(record), stack }, () => host.expired(record.app, record.id));
  }

  /**
   * Shows the person what went wrong (docs/api/notifications.md#n48): a banner still on screen is drawn again with
   * the reason; otherwise a short banner of the app, with the notification's title, body and the reason, closes by
   * itself.
   */
  showProblem(app: string, id: string, problem: string): void {
    const { host } = this;
    const record = host.history.get(app, id);
    if (!record) return;
    if (!record.dismissedAt && host.banners.isOnScreen(app, id)) {
      this.draw(record, { sound: false, problem });
      return;
    }
    const key = { app, id: `${id}${PROBLEM_KEY_SUFFIX}` };
    const banner: Banner = {
      key,
      appName: host.names.name(app),
      title: record.notification.title ?? '',
      ...(record.notification.body ? { body: record.notification.body } : {}),
      actions: [],
      snooze: false,
      priority: 'normal',
      expireSeconds: PROBLEM_BANNER_SECONDS,
      sound: null,
      problem,
    };
    const shown = host.presenter.show(banner).catch((error: Error) => log.warn(`could not show what went wrong: ${error.message}`));
    if (!host.presenter.handlesExpiry) {
      const timerKey = recordKey(key.app, key.id);
      this.timers.after('expire', timerKey, PROBLEM_BANNER_SECONDS * 1000, () => void shown.then(() => host.presenter.close(key)));
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// What a banner shows

/** docs/api/notifications.md#n11: `persistent: false` without a timeout closes after 8 seconds. */
const NON_PERSISTENT_SECONDS = 8;

/** The effective stacking key of a record. */
export const groupOf = (record: HistoryRecord): string => record.notification.group ?? record.app;

/** docs/api/notifications.md#n11: the seconds a banner stays (null: until dismissed), from the notification and the app's defaults. */
export function lifetimeOf(record: HistoryRecord, registration: AppRegistration | undefined): number | null {
  const defaults = registration?.defaults ?? {};
  return expireSeconds(record.notification.timeout ?? defaults.timeout, record.notification.persistent ?? defaults.persistent);
}

/**
 * What the presenter draws for a stored record: its drawn notification plus the app's defaults, and, when a saved
 * template drew it, the template's buttons and progress (docs/api/templates.md#t11, docs/desktop.md).
 */
export function bannerFor(
  record: HistoryRecord,
  appName: string,
  registration: AppRegistration | undefined,
  options: { sound: boolean; card?: string; appIcon?: string; template?: Template },
): Banner {
  const n = record.notification;
  const { template } = options;
  const defaults = registration?.defaults ?? {};
  const sound = n.sound ?? defaults.sound ?? 'default';
  const shown = partsShown(n, template);
  const progress = template && progressOf(template, record.fields ?? {});
  return {
    key: { app: record.app, id: record.id },
    appName,
    ...(isRelayedApp(record.app) ? { relayed: true as const } : {}),
    title: n.title ?? '',
    ...(shown.subtitle && n.subtitle ? { subtitle: n.subtitle } : {}),
    ...(shown.body && n.body ? { body: n.body } : {}),
    ...(record.imagePath ? { imagePath: record.imagePath } : {}),
    ...(options.card ? { card: options.card } : {}),
    // A local file only: a data: icon has no path a notification server could read.
    ...(options.appIcon && path.isAbsolute(options.appIcon) ? { appIcon: options.appIcon } : {}),
    ...(n.url && isOpenableLink(n.url) ? { url: n.url } : {}),
    actions: liveButtons(n, template).map((live) => ({
      actionId: idOf(live),
      label: live.button.label,
      kind: buttonKind(live.button),
      ...(live.button.style ? { style: live.button.style } : {}),
      ...(live.button.reply?.placeholder ? { placeholder: live.button.reply.placeholder } : {}),
      ...(buttonKind(live.button) === 'url' && live.button.url ? { url: live.button.url } : {}),
    })),
    snooze: n.snooze === true,
    priority: n.priority ?? 'normal',
    ...(n.group ? { group: n.group } : {}),
    expireSeconds: lifetimeOf(record, registration),
    sound: options.sound && sound !== 'none' ? sound : null,
    ...(progress !== undefined && progress !== null ? { progress } : {}),
  };
}

/**
 * docs/api/notifications.md#n7: `showSubtitle` and `showBody` are built-in layout fields, so they hide parts only
 * when no saved template applies; a version-1 template applies its own (docs/api/templates.md#t7), and a grid
 * template's banner shows both.
 */
function partsShown(n: HistoryRecord['notification'], template: Template | undefined): { subtitle: boolean; body: boolean } {
  if (!template) return { subtitle: n.showSubtitle !== false, body: n.showBody !== false };
  if (template.layoutVersion === 1) return { subtitle: template.showSubtitle, body: template.showBody };
  return { subtitle: true, body: true };
}

/** The template's first `progress` component, read from the record's fields: 0 to 100, or null when unbound. */
function progressOf(template: Template, fields: Record<string, string>): number | null {
  const cell = template.cells.find(({ component }) => component.type === 'progress');
  if (cell?.component.type !== 'progress') return null;
  const { text, empty } = resolveBinding(cell.component.binding, fields);
  const fraction = empty ? null : fractionOf(text);
  return fraction === null ? null : Math.round(fraction * 100);
}

/** docs/api/notifications.md#n11: a timeout over 0 wins; otherwise `persistent: false` means 8 s; otherwise it stays. */
function expireSeconds(timeout: number | undefined, persistent: boolean | undefined): number | null {
  if (timeout !== undefined && timeout > 0) return timeout;
  if (persistent === false) return NON_PERSISTENT_SECONDS;
  return null;
}
