import { log } from '../../log.js';
import type { Document, Store } from '../../store/store.js';
import { isDesktopApp } from '../../../protocol/notification-rules.js';
import type { HistoryRecord } from '../../../protocol/types.js';
import { firstAfter, type History, type HistoryEvent } from './history.js';

// Read and unread (docs/app.md#read-and-unread): a notification is unread from its delivery until the person opens
// it in the app, marks it read, or acts on its banner; one only spoken is delivered read. This is the person's
// own state, kept apart from the History record (`/v1` neither shows nor changes it), in `read-state.json`.
//
// Per app: a watermark (every record delivered at or before it is read: "Mark all read" moves it, whatever the
// number of records) and the exceptions to it, by id: records read after it, records marked unread before it.
// The exceptions never outgrow History: a record removed, evicted or replaced by a newer one with its id takes its
// exception with it.

const FILE = 'read-state.json';

interface AppReadState {
  /** `deliveredAt` of the newest record that "Mark all read" covered. */
  watermark?: string;
  /** Ids read although delivered after the watermark. */
  read: string[];
  /** Ids marked unread although delivered before the watermark. */
  unread: string[];
}

interface ReadStateFile {
  apps: Record<string, AppReadState>;
}

/** What changed: one record's state (`id`), or every record of an app (`app` alone), or of every app (nothing). */
export interface ReadChange {
  app?: string;
  id?: string;
  /** The state of the app (or of every app) was put back as it was (Undo of Mark all read), not marked read. */
  restored?: true;
}

/** The read state of one app, or of every app, as "Mark all read" found it: what its Undo puts back. */
export interface ReadSnapshot {
  app?: string;
  apps: Array<{ app: string; watermark?: string; read: string[]; unread: string[] }>;
}

/** In memory: the file's lists as sets, and the app's unread count once counted (kept up to date from then on). */
interface Exceptions {
  read: Set<string>;
  unread: Set<string>;
  count?: number;
}

/**
 * Delivered read (docs/app.md#read-and-unread): spoken only, and spoken, so no banner ever asked for the person's
 * eyes; or another program's, whose own banner the person saw (docs/desktop.md).
 */
const deliveredRead = (record: HistoryRecord): boolean =>
  (record.notification.presentation === 'voice' && record.dismissedAt === record.deliveredAt) || isDesktopApp(record.app);

export class ReadState {
  private readonly byApp = new Map<string, Exceptions>();
  private readonly listeners = new Set<(change: ReadChange) => void>();

  private constructor(
    private readonly store: Store,
    private readonly document: Document<ReadStateFile>,
    private readonly history: History,
  ) {
    document.data.apps ??= {};
    for (const [app, state] of Object.entries(document.data.apps)) {
      this.byApp.set(app, { read: new Set(state.read ?? []), unread: new Set(state.unread ?? []) });
    }
    history.onChange((event) => this.historyChanged(event));
    // Counts made while History was still loading are made again once it is all there.
    void history.ready.then(() => {
      for (const exceptions of this.byApp.values()) delete exceptions.count;
    });
  }

  static async open(store: Store, history: History): Promise<ReadState> {
    const document = await store.open<ReadStateFile>(FILE, { apps: {} });
    return new ReadState(store, document, history);
  }

  isRead(record: HistoryRecord): boolean {
    const exceptions = this.byApp.get(record.app);
    if (exceptions?.unread.has(record.id)) return false;
    if (exceptions?.read.has(record.id) || deliveredRead(record)) return true;
    const watermark = this.document.data.apps[record.app]?.watermark;
    return watermark !== undefined && record.deliveredAt <= watermark;
  }

  /** Unread records of one app, or of every app. Counted once per app, then kept up to date. */
  unreadCount(app?: string): number {
    if (app !== undefined) return this.countOf(app);
    let total = 0;
    for (const id of this.history.appIds()) total += this.countOf(id);
    return total;
  }

  /** The person opened a notification, chose Mark as read or unread, or acted on its banner. */
  async mark(record: HistoryRecord, read: boolean): Promise<void> {
    if (this.isRead(record) === read) return;
    const exceptions = this.exceptionsOf(record.app);
    const before = this.countOf(record.app);
    const watermark = this.document.data.apps[record.app]?.watermark;
    const coveredByWatermark = (watermark !== undefined && record.deliveredAt <= watermark) || deliveredRead(record);
    exceptions.read.delete(record.id);
    exceptions.unread.delete(record.id);
    if (read && !coveredByWatermark) exceptions.read.add(record.id);
    if (!read && coveredByWatermark) exceptions.unread.add(record.id);
    exceptions.count = before + (read ? -1 : 1);
    await this.save({ app: record.app, id: record.id });
  }

  /** Mark all read: one app's records, or every app's. The watermark moves; no record is visited. */
  async markAllRead(app?: string): Promise<void> {
    const apps = app === undefined ? this.history.appIds() : [app];
    for (const id of apps) {
      const newest = this.history.recordsOf(id).at(-1);
      if (!newest) continue;
      const state = this.document.data.apps[id];
      if (!state?.watermark || state.watermark < newest.deliveredAt) this.fileEntry(id).watermark = newest.deliveredAt;
      this.byApp.set(id, { read: new Set(), unread: new Set(), count: 0 });
    }
    await this.save(app === undefined ? {} : { app });
  }

  /** The state "Mark all read" of `app` (or of every app) is about to change, to put back with `restore`. */
  snapshot(app?: string): ReadSnapshot {
    const apps = app === undefined ? this.history.appIds() : [app];
    return {
      ...(app === undefined ? {} : { app }),
      apps: apps.map((id) => {
        const exceptions = this.byApp.get(id);
        const watermark = this.document.data.apps[id]?.watermark;
        return {
          app: id,
          ...(watermark ? { watermark } : {}),
          read: [...(exceptions?.read ?? [])],
          unread: [...(exceptions?.unread ?? [])],
        };
      }),
    };
  }

  /**
   * Puts back the state a snapshot kept (Undo of Mark all read): what was unread is unread again; what the person
   * read since stays read; records gone since take their exceptions with them.
   */
  async restore(snapshot: ReadSnapshot): Promise<void> {
    for (const kept of snapshot.apps) {
      const inHistory = (id: string): boolean => this.history.get(kept.app, id) !== undefined;
      const readSince = this.byApp.get(kept.app)?.read ?? new Set<string>();
      const entry = this.fileEntry(kept.app);
      if (kept.watermark === undefined) delete entry.watermark;
      else entry.watermark = kept.watermark;
      this.byApp.set(kept.app, {
        read: new Set([...kept.read, ...readSince].filter(inHistory)),
        unread: new Set(kept.unread.filter(inHistory)),
      });
    }
    await this.save({ ...(snapshot.app === undefined ? {} : { app: snapshot.app }), restored: true });
  }

  /** Calls back after every change of a record's read state (not after a delivery); returns a function that stops. */
  onChange(listener: (change: ReadChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Keeps the counts and the exceptions in step with History. */
  private historyChanged(event: HistoryEvent): void {
    if (event.type === 'cleared') {
      if (this.byApp.has(event.app) || this.document.data.apps[event.app]) {
        this.byApp.delete(event.app);
        delete this.document.data.apps[event.app];
        this.saveLater();
      }
      return;
    }
    const { app } = event.record;
    const exceptions = this.byApp.get(app);
    const counted = exceptions?.count;
    if (event.type === 'removed') {
      const wasUnread = !this.isRead(event.record);
      if (this.forget(app, event.record.id)) this.saveLater();
      if (counted !== undefined) exceptions!.count = counted - (wasUnread ? 1 : 0);
      return;
    }
    const { record, previous } = event;
    const wasUnread = previous !== undefined && !this.isRead(previous);
    // A newer notification with the same id is new to the person: it is unread again. A change to the same one
    // (dismissed, replied, snoozed) keeps its state.
    const renewed = previous === undefined || previous.deliveredAt !== record.deliveredAt;
    if (renewed && previous !== undefined && this.forget(app, record.id)) this.saveLater();
    if (counted !== undefined) exceptions!.count = counted - (wasUnread ? 1 : 0) + (this.isRead(record) ? 0 : 1);
  }

  /** Drops a record's exception; true when it had one. */
  private forget(app: string, id: string): boolean {
    const exceptions = this.byApp.get(app);
    if (!exceptions) return false;
    return exceptions.read.delete(id) || exceptions.unread.delete(id);
  }

  private countOf(app: string): number {
    if (!this.byApp.has(app) && this.history.recordsOf(app).length === 0) return 0; // nothing to count, nothing to keep
    const exceptions = this.exceptionsOf(app);
    if (exceptions.count !== undefined) return exceptions.count;
    const records = this.history.recordsOf(app);
    const watermark = this.document.data.apps[app]?.watermark;
    let count = 0;
    for (let index = watermark === undefined ? 0 : firstAfter(records, watermark); index < records.length; index++) {
      if (!this.isRead(records[index]!)) count++;
    }
    for (const id of exceptions.unread) {
      const record = this.history.get(app, id);
      if (record && watermark !== undefined && record.deliveredAt <= watermark) count++;
    }
    exceptions.count = count;
    return count;
  }

  private exceptionsOf(app: string): Exceptions {
    let exceptions = this.byApp.get(app);
    if (!exceptions) this.byApp.set(app, (exceptions = { read: new Set(), unread: new Set() }));
    return exceptions;
  }

  private fileEntry(app: string): AppReadState {
    return (this.document.data.apps[app] ??= { read: [], unread: [] });
  }

  /** A save nobody waits for (History changed): a failure is logged, the next save writes it all again. */
  private saveLater(): void {
    this.save().catch((error: Error) => log.error(`${FILE} could not be saved: ${error.message}`));
  }

  /** Writes the exceptions back to the file (group commit), then tells the listeners. */
  private async save(change?: ReadChange): Promise<void> {
    for (const [app, exceptions] of this.byApp) {
      const entry = this.document.data.apps[app];
      if (!entry && exceptions.read.size === 0 && exceptions.unread.size === 0) continue;
      const target = entry ?? this.fileEntry(app);
      target.read = [...exceptions.read];
      target.unread = [...exceptions.unread];
    }
    const saved = this.store.save(this.document);
    if (change) for (const listener of this.listeners) listener(change);
    await saved;
  }
}
