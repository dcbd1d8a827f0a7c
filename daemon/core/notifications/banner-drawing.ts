// Drawing a record's banner (docs/api/notifications.md#n47, #n48): the banner the presenter shows for a stored
// record — its sound unless sounds are off, its card picture, its template's buttons, in its stack, timed — and
// the short banner that says what went wrong when an action failed. The screen decides when, and the delivery
// rules whether it sounds; this decides what.

import { log } from '../../log.js';
import type { Banner, Presenter } from '../../present/presenter.js';
import type { HistoryRecord } from '../../../protocol/types.js';
import type { AppRegistry } from '../apps/app-registry.js';
import type { History } from '../history/history.js';
import type { CardPictures } from '../templates/cards.js';
import type { Designs } from '../templates/designs.js';
import type { Timers } from '../timers.js';
import { type Banners, bannerFor, groupOf } from './banners.js';
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
  appName(app: string): string;
  /** The app's icon file, if it has one (sent as the banner's app icon). */
  appIcon(app: string): string | undefined;
  stackingOf(app: string): StackingLevel;
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
    const appIcon = host.appIcon(record.app);
    const banner = bannerFor(record, host.appName(record.app), host.apps.get(record.app), {
      sound,
      ...(card ? { card } : {}),
      ...(appIcon ? { appIcon } : {}),
      ...(template ? { template } : {}),
    });
    if (options.problem) banner.problem = options.problem;
    const stack = stackKey(record, options.stacking ?? host.stackingOf(record.app), host.designs.manifest(record.app));
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
      appName: host.appName(app),
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
