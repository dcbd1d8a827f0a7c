import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { notFound } from '../errors.js';
import { log } from '../log.js';
import type { Presenter, PresenterEvent } from '../present/presenter.js';
import { Store } from '../store/store.js';
import { AppRegistry } from './apps.js';
import { Banners, bannerFor, groupOf } from './banners.js';
import { Designs } from './designs.js';
import { resolveFields } from './fields.js';
import { History } from './history.js';
import { ImageCache } from './images.js';
import { prepareNotification, type NotificationInput } from './notify.js';
import { queryWords } from './search-text.js';
import { Settings } from './settings.js';
import type { AppRegistration, HistoryRecord } from './types.js';

/** Reference §1.2 "Too many banners": at launch the 6 newest undismissed banners are restored. */
const BANNERS_RESTORED_AT_START = 6;

export interface CoreOptions {
  supportDir: string;
  presenter: Presenter;
  /** The clock; tests may pin it. */
  now?: () => Date;
}

/** A notification still on its way in (its picture downloading, its app loading): what happened to its id meanwhile. */
interface InFlight {
  sequence: number;
  dismissedAt?: string;
}

/**
 * The service itself, independent of HTTP and of any display: notifications, History, apps and what is on
 * screen. Every change is made synchronously and then awaited on disk, so the order of requests is the order
 * of changes, and a caller is answered only once its change is durable.
 */
export class NotifierCore {
  private readonly inFlight = new Map<string, InFlight>();
  private sequence = 0;

  private constructor(
    readonly store: Store,
    readonly apps: AppRegistry,
    readonly history: History,
    readonly designs: Designs,
    readonly banners: Banners,
    readonly presenter: Presenter,
    private readonly images: ImageCache,
    private readonly now: () => Date,
  ) {}

  static async open(options: CoreOptions): Promise<NotifierCore> {
    const store = new Store(options.supportDir);
    const images = new ImageCache(path.join(options.supportDir, 'images'));
    const settings = await Settings.open(store);
    const history = new History(store, images, () => settings.historyCapPerApp);
    const designs = new Designs(store);
    const [apps] = await Promise.all([AppRegistry.open(store), history.open(), designs.load()]);
    const core = new NotifierCore(
      store,
      apps,
      history,
      designs,
      new Banners(options.presenter),
      options.presenter,
      images,
      options.now ?? (() => new Date()),
    );
    await options.presenter.start((event) => core.onPresenterEvent(event));
    // History goes on loading in the background; requests wait only for the apps they touch.
    const loading = performance.now();
    void history.ready.then(() => {
      core.restoreBanners();
      history.warmSearch();
      const { apps: count, records } = history.size();
      log.info(`History loaded: ${records} records of ${count} apps in ${Math.round(performance.now() - loading)} ms`);
    });
    return core;
  }

  /** Display name: the registered one wins over the manifest's (spec 1, App registration); else the app id. */
  appName(app: string): string {
    return this.apps.get(app)?.appName ?? this.designs.manifest(app)?.appName ?? app;
  }

  /** spec 1, POST /v1/notify. Resolves with the notification's id once its record is on disk. */
  async notify(input: NotificationInput): Promise<string> {
    const id = input.id || randomUUID().toUpperCase();
    const deliveredAt = this.timestamp();
    const appName = this.appName(input.app);
    const notification = prepareNotification(input, id, this.designs, { appName, deliveredAt });
    const registered = this.apps.ensure(input.app);

    let imagePath: string | null = null;
    let dismissedAt: string | undefined;
    if (notification.image !== undefined || !this.history.isLoaded(input.app)) {
      // Something to wait for (a picture, the app's History loading): meanwhile a newer notification with this
      // id may replace this one, or a dismissal may close it before it is shown.
      const key = `${input.app}\u0000${id}`;
      const entry: InFlight = { sequence: ++this.sequence };
      this.inFlight.set(key, entry);
      [imagePath] = await Promise.all([
        notification.image === undefined ? null : this.images.cache(notification.image),
        this.history.load(input.app),
      ]);
      if (this.inFlight.get(key) !== entry) {
        this.images.discard(imagePath);
        await registered;
        return id;
      }
      this.inFlight.delete(key);
      dismissedAt = entry.dismissedAt;
    }

    if (imagePath && notification.image?.startsWith('data:')) notification.image = imagePath;
    const record: HistoryRecord = {
      id,
      app: input.app,
      notification,
      deliveredAt,
      ...(dismissedAt ? { dismissedAt, actionUsed: 'dismiss' } : {}),
      ...(imagePath ? { imagePath } : {}),
      fields: resolveFields(notification, appName, deliveredAt),
    };
    const saved = this.history.put(record);
    // presentation `voice` speaks instead of showing a banner; until there is a speech engine (issue 4) speech
    // cannot play, and spec 1 says such a notification is shown as a banner so it is not lost.
    if (!dismissedAt) this.present(record, { sound: true });
    await (registered ? Promise.all([saved, registered]) : saved);
    return id;
  }

  /** spec 1, POST /v1/register. */
  register(registration: AppRegistration): Promise<void> {
    return this.apps.register(registration);
  }

  /** spec 1, POST /v1/dismiss: an id that is not on screen is not an error. */
  async dismiss(app: string, id: string): Promise<void> {
    const pending = this.inFlight.get(`${app}\u0000${id}`);
    if (pending) pending.dismissedAt ??= this.timestamp();
    await this.history.load(app);
    await this.closeBanner(app, id, 'dismiss');
  }

  /** spec 1, POST /v1/dismissAll: every banner, one app's, or one stack of one app. Records stay in History. */
  async dismissAll(filter: { app?: string; group?: string }): Promise<void> {
    for (const [key, pending] of this.inFlight) {
      if (filter.app === undefined || key.startsWith(`${filter.app}\u0000`)) pending.dismissedAt ??= this.timestamp();
    }
    const banners = this.banners.list(filter);
    await Promise.all(banners.map((banner) => this.history.load(banner.app)));
    await Promise.all(banners.map((banner) => this.closeBanner(banner.app, banner.id, 'dismiss')));
  }

  /** spec 1, POST /v1/history/reshow: a new banner with sound and a fresh delivery time. */
  async reshow(app: string, id: string): Promise<string> {
    await this.history.load(app);
    const current = this.requireRecord(app, id);
    const { dismissedAt: _d, actionUsed: _a, snoozedUntil: _s, ...rest } = current;
    const record: HistoryRecord = { ...rest, deliveredAt: this.timestamp() };
    const saved = this.history.put(record);
    this.present(record, { sound: true });
    await saved;
    return id;
  }

  /** spec 1, DELETE /v1/history/item: a banner still on screen is closed. */
  async deleteRecord(app: string, id: string): Promise<void> {
    await this.history.load(app);
    this.requireRecord(app, id);
    this.banners.close(app, id);
    await this.history.remove(app, id);
  }

  /** spec 1, DELETE /v1/history: one app's History or everyone's; their banners are closed too. */
  async clearHistory(app?: string): Promise<void> {
    await (app === undefined ? this.history.ready : this.history.load(app));
    for (const banner of this.banners.list(app === undefined ? {} : { app })) this.banners.close(banner.app, banner.id);
    await this.history.clear(app);
  }

  /** spec 1, GET /v1/history and GET /v1/history/search. */
  async records(query: { app?: string; limit: number; q?: string }): Promise<HistoryRecord[]> {
    await (query.app === undefined ? this.history.ready : this.history.load(query.app));
    return this.history.query({
      app: query.app,
      limit: query.limit,
      words: query.q === undefined ? [] : queryWords(query.q),
      appName: (app) => this.appName(app),
    });
  }

  async close(): Promise<void> {
    await this.history.close();
    await this.store.settle();
    await this.presenter.stop();
  }

  private requireRecord(app: string, id: string): HistoryRecord {
    const record = this.history.get(app, id);
    if (!record) throw notFound('no such notification in History');
    return record;
  }

  private present(record: HistoryRecord, options: { sound: boolean }): void {
    const banner = bannerFor(record, this.appName(record.app), this.apps.get(record.app), options);
    this.banners.show(banner, groupOf(record));
  }

  /** Closes a banner and records, once, when and how it ended (reference §1.7: a second dismissal changes nothing). */
  private async closeBanner(app: string, id: string, actionUsed: string): Promise<void> {
    this.banners.close(app, id);
    await this.history.update(app, id, (record) => {
      if (record.dismissedAt) return record;
      const { snoozedUntil: _, ...rest } = record;
      return { ...rest, dismissedAt: this.timestamp(), actionUsed };
    });
  }

  /** The person's side. Buttons, replies and opening links come with the lifecycle work (issue 3). */
  private onPresenterEvent(event: PresenterEvent): void {
    const { app, id } = event.key;
    let ending: string | null = null;
    if (event.type === 'closed') {
      this.banners.forget(app, id);
      ending = event.reason === 'expired' ? 'timeout' : 'close';
    } else if (event.type === 'clicked') {
      ending = 'open';
    }
    if (ending === null) {
      log.info(`[${app}] ${id}: ${event.type} is not handled yet`);
      return;
    }
    this.closeBanner(app, id, ending).catch((error: Error) => log.error(`could not record how ${id} ended: ${error.message}`));
  }

  /** Reference §1.2: after a restart the newest undismissed banners come back, quietly. */
  private restoreBanners(): void {
    const waiting = this.history.query({ limit: BANNERS_RESTORED_AT_START, filter: (r) => !r.dismissedAt && !r.snoozedUntil });
    for (const record of waiting.reverse()) this.present(record, { sound: false });
  }

  private timestamp(): string {
    return this.now().toISOString();
  }
}
