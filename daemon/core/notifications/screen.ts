// What is on screen and how it ends (docs/api/notifications.md#n35 to #n42, #n47, #n48): a record's banner put up
// (in its stack, timed, its follow-up armed), taken down, ended once with how it ended, snoozed and back, shown
// again, and after a restart the banners that were up. Every change to a record is awaited on disk before the
// caller hears of it.

import { errors } from '../../../protocol/errors.js';
import type { HistoryRecord } from '../../../protocol/types.js';
import { recordKey } from '../../../protocol/record-key.js';
import type { Presenter } from '../../present/presenter.js';
import type { AppRegistry } from '../apps/app-registry.js';
import type { History } from '../history/history.js';
import type { Settings } from '../settings/settings.js';
import type { AppNames } from '../templates/app-names.js';
import type { CardPictures } from '../templates/cards.js';
import type { Designs } from '../templates/designs.js';
import { timestamp, type Timers } from '../timers.js';
import type { Voice } from '../voice/voice.js';
import { BannerDrawing, lifetimeOf } from './banner-drawing.js';
import type { Banners } from './banners.js';
import type { Delivery, DeliveryRules } from './delivery.js';
import type { InFlight } from './in-flight.js';

/** docs/api/notifications.md#n36: at launch the 6 newest undismissed banners are restored. */
const BANNERS_RESTORED_AT_START = 6;

export interface ScreenParts {
  history: History;
  banners: Banners;
  cards: CardPictures;
  designs: Pick<Designs, 'template' | 'manifest'>;
  apps: Pick<AppRegistry, 'get'>;
  names: AppNames;
  presenter: Pick<Presenter, 'show' | 'close' | 'handlesExpiry' | 'showsCards'>;
  settings: Pick<Settings, 'bannerCardImage'>;
  voice: Pick<Voice, 'stop'>;
  timers: Timers;
  rules: DeliveryRules;
  inFlight: InFlight;
  /** A banner's follow-up (daemon/core/actions/follow-ups.ts): armed when it is put up, cancelled when it goes. */
  followUps: { arm(record: HistoryRecord): void; cancel(app: string, id: string): void };
}

export class Screen {
  private readonly drawing: BannerDrawing;
  /** Called with the record once a banner ended (its `dismissedAt` and `actionUsed` are on disk). */
  private readonly endListeners = new Set<(record: HistoryRecord) => void>();

  constructor(private readonly parts: ScreenParts) {
    const { history, banners, cards, designs, apps, names, presenter, rules } = parts;
    this.drawing = new BannerDrawing(
      { cards, designs, apps, banners, history, presenter, names, rules, expired: (app, id) => void this.end(app, id, 'timeout') },
      parts.timers,
    );
    // A banner whose record the History cap dropped cannot be answered any more: it goes too, so what is on
    // screen never outgrows History.
    history.onEvict = (record) => this.takeDown(record.app, record.id);
  }

  /** Calls back once a banner ended; returns a function that stops. */
  onEnd(listener: (record: HistoryRecord) => void): () => void {
    this.endListeners.add(listener);
    return () => this.endListeners.delete(listener);
  }

  /**
   * A new notification as its delivery was decided: an earlier one with its id stops its snooze, follow-up and speech
   * (docs/api/notifications.md#n3); then its card is drawn where banners show cards and its banner put up, or the
   * earlier banner closed when this one is held.
   */
  async deliver(record: HistoryRecord, appName: string, delivery: Delivery): Promise<void> {
    const { app, id } = record;
    this.replacing(app, id);
    if (delivery.banner === 'shown') {
      const { settings, presenter, cards, names } = this.parts;
      if (settings.bannerCardImage && presenter.showsCards !== false) await cards.draw(record, appName, names.icon(app));
      this.putUp(record, { sound: true, delivery });
    } else if (delivery.banner === 'held') this.hold(app, id);
  }

  /**
   * Shows a record's banner (in place when it is up), times it, and arms its follow-up — unless the banner comes
   * back after a restart: a follow-up timer is lost when the daemon stops (docs/api/notifications.md#n27). A new
   * notification's banner comes with its delivery decided; a banner shown again asks the delivery rules now.
   */
  putUp(record: HistoryRecord, options: { sound: boolean; afterRestart?: boolean; delivery?: Pick<Delivery, 'sound' | 'stacking'> }): void {
    const { delivery } = options;
    const sound = delivery ? delivery.sound : options.sound && this.parts.rules.soundAllowed(record.notification);
    this.drawing.draw(record, { sound, ...(delivery ? { stacking: delivery.stacking } : {}) });
    if (!options.afterRestart) this.parts.followUps.arm(record);
  }

  /** Takes a banner off the screen (and stops its speech, its follow-up and its snooze) without recording anything. */
  takeDown(app: string, id: string): void {
    this.parts.banners.close(app, id);
    this.parts.cards.forget(app, id);
    this.replacing(app, id);
  }

  /** docs/api/notifications.md#n3: a notification with this id replaces it: its snooze, follow-up and speech stop. */
  replacing(app: string, id: string): void {
    this.parts.timers.cancel('snooze', recordKey(app, id));
    this.parts.followUps.cancel(app, id);
    this.parts.voice.stop(app, id);
  }

  /** A banner held in History: an earlier banner with its id does not stay up in its place. */
  hold(app: string, id: string): void {
    this.parts.banners.close(app, id);
  }

  /**
   * Closes a banner and records, once, when and how it ended (docs/api/notifications.md#n35: a later dismissal changes
   * nothing); a pending snooze goes with it.
   */
  async end(app: string, id: string, actionUsed: string): Promise<void> {
    this.takeDown(app, id);
    let ended = false;
    await this.parts.history.update(app, id, (record) => {
      if (record.dismissedAt) return record;
      ended = true;
      const { snoozedUntil: _, ...rest } = record;
      return { ...rest, dismissedAt: timestamp(), actionUsed };
    });
    const record = ended ? this.parts.history.get(app, id) : undefined;
    if (record) for (const listener of this.endListeners) listener(record);
  }

  /** Records why an action could not do its job (History `actionNote`). */
  async note(app: string, id: string, actionNote: string): Promise<void> {
    await this.parts.history.update(app, id, (record) => ({ ...record, actionNote }));
  }

  /** Shows the person what went wrong (docs/api/notifications.md#n48). */
  showProblem(app: string, id: string, problem: string): void {
    this.drawing.showProblem(app, id, problem);
  }

  /** POST /v1/dismiss (docs/api/notifications.md#n39): an id that is not on screen is not an error. */
  async dismiss(app: string, id: string): Promise<void> {
    this.parts.inFlight.dismiss(timestamp(), app, id);
    await this.parts.history.load(app);
    await this.end(app, id, 'dismiss');
  }

  /**
   * Takes back a dismissal the person made in the window (its Undo): the record as `before` was (not dismissed, and
   * snoozed again if it was), and its banner back on screen, quietly. False when it changed since in another way
   * (shown again, answered, replaced, deleted), which then stands. An app already told the banner ended was told.
   */
  async undismiss(before: HistoryRecord): Promise<boolean> {
    const { app, id } = before;
    const current = this.parts.history.get(app, id);
    if (before.dismissedAt || !current?.dismissedAt || current.deliveredAt !== before.deliveredAt || current.actionUsed !== 'dismiss') {
      return false;
    }
    const { dismissedAt: _d, actionUsed: _a, ...rest } = current;
    const record: HistoryRecord = { ...rest, ...(before.snoozedUntil ? { snoozedUntil: before.snoozedUntil } : {}) };
    const saved = this.parts.history.update(app, id, () => record);
    if (record.snoozedUntil) {
      const until = Date.parse(record.snoozedUntil);
      this.parts.timers.at('snooze', recordKey(app, id), until, () => void this.snoozeOver(app, id, { sound: true }));
    } else if (!record.held) this.putUp(record, { sound: false });
    await saved;
    return true;
  }

  /** POST /v1/dismissAll (docs/api/notifications.md#n40): every banner, one app's, or one stack of one app. Records stay. */
  async dismissAll(filter: { app?: string; group?: string }): Promise<void> {
    this.parts.inFlight.dismiss(timestamp(), filter.app);
    const banners = this.parts.banners.list(filter);
    await Promise.all(banners.map((banner) => this.parts.history.load(banner.app)));
    await Promise.all(banners.map((banner) => this.end(banner.app, banner.id, 'dismiss')));
  }

  /**
   * POST /v1/snooze (docs/api/notifications.md#n41): hides the banner for `minutes` of elapsed time and returns when it comes back.
   * 404 for an unknown notification, 400 for a dismissed one. The time survives a restart (`snoozedUntil`).
   */
  async snooze(app: string, id: string, minutes: number): Promise<string> {
    const record = await this.requireRecord(app, id);
    if (record.dismissedAt) throw errors.alreadyDismissed();
    const until = new Date(Date.now() + minutes * 60_000).toISOString();
    this.parts.banners.close(app, id);
    this.parts.followUps.cancel(app, id);
    this.parts.timers.at('snooze', recordKey(app, id), Date.parse(until), () => void this.snoozeOver(app, id, { sound: true }));
    await this.parts.history.update(app, id, (current) => ({ ...current, snoozedUntil: until }));
    return until;
  }

  /** POST /v1/unsnooze (docs/api/notifications.md#n42): the snoozed banner comes back now, without sound. */
  async unsnooze(app: string, id: string): Promise<void> {
    const record = await this.requireRecord(app, id);
    if (record.dismissedAt) throw errors.alreadyDismissed();
    if (record.snoozedUntil) await this.snoozeOver(app, id, { sound: false });
  }

  /** POST /v1/history/reshow (docs/api/history.md#h14): a new banner with sound and a fresh delivery time. */
  async reshow(app: string, id: string): Promise<string> {
    const current = await this.requireRecord(app, id);
    const { dismissedAt: _d, actionUsed: _a, snoozedUntil: _s, held: _h, ...rest } = current;
    const record: HistoryRecord = { ...rest, deliveredAt: timestamp() };
    this.parts.timers.cancel('snooze', recordKey(app, id));
    const saved = this.parts.history.put(record);
    this.putUp(record, { sound: true });
    await saved;
    return id;
  }

  /**
   * After a restart (docs/api/notifications.md#n36): a snooze still running is armed again and one that ended meanwhile
   * shows its banner now; a banner with a lifetime that was simply on screen has expired; the newest banners that
   * stay until dismissed come back, quietly.
   */
  resumeAfterStart(): void {
    const open = this.parts.history.query({ limit: Number.MAX_SAFE_INTEGER, filter: (record) => !record.dismissedAt });
    const waiting: HistoryRecord[] = [];
    for (const record of open) {
      if (record.snoozedUntil) {
        const until = Date.parse(record.snoozedUntil);
        this.parts.timers.at(
          'snooze',
          recordKey(record.app, record.id),
          until,
          () => void this.snoozeOver(record.app, record.id, { sound: true, afterRestart: true }),
        );
      } else if (record.held) {
        // Held by quiet hours: it stays in History only.
      } else if (lifetimeOf(record, this.parts.apps.get(record.app)) !== null) {
        void this.end(record.app, record.id, 'timeout');
      } else if (waiting.length < BANNERS_RESTORED_AT_START) {
        waiting.push(record);
      }
    }
    for (const record of waiting.reverse()) this.putUp(record, { sound: false, afterRestart: true });
  }

  /** The record of a notification (its app's History loaded first); 404 when there is none. */
  async requireRecord(app: string, id: string): Promise<HistoryRecord> {
    await this.parts.history.load(app);
    const record = this.parts.history.get(app, id);
    if (!record) throw errors.notificationNotFound();
    return record;
  }

  private async snoozeOver(app: string, id: string, options: { sound: boolean; afterRestart?: boolean }): Promise<void> {
    this.parts.timers.cancel('snooze', recordKey(app, id));
    const current = this.parts.history.get(app, id);
    if (!current?.snoozedUntil || current.dismissedAt) return;
    const { snoozedUntil: _, held: _h, ...record } = current;
    const saved = this.parts.history.update(app, id, () => record);
    this.putUp(record, options);
    await saved;
  }
}
