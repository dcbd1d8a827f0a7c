import { randomUUID } from 'node:crypto';
import { errors } from '../../../protocol/errors.js';
import { MAX_SCHEDULED } from '../../../protocol/limits.js';
import { recordKey } from '../../../protocol/record-key.js';
import type { NotificationInput } from '../notifications/checks.js';
import type { Document, Store } from '../../store/store.js';
import { log } from '../../log.js';

// Notifications to show later (docs/api/scheduled.md): ntfy's delayed publishes. Each is kept in `scheduled.json`
// before its sender is answered, so a restart loses none; a timer waits for the next one, and one whose time passed
// while the daemon was stopped is shown when it starts. Each has an id (the sender's, or one made here), so a
// notification shown again after a crash between showing it and forgetting it replaces itself instead of doubling.

/** A notification waiting for its time, as it is listed. */
export interface ScheduledView {
  app: string;
  id: string;
  title: string;
  /** When it shows (ISO). */
  at: string;
  createdAt: string;
}

interface ScheduledEntry extends ScheduledView {
  /** The notification as `POST /v1/notify` read it when it was scheduled; the pipeline checks it again when it shows. */
  body: NotificationInput;
}

interface ScheduledFile {
  entries: ScheduledEntry[];
}

/** A timer waits at most this long before it looks again (Node's timers take at most 24.8 days). */
const LONGEST_WAIT_MS = 60 * 60_000;

export class ScheduledNotifications {
  private readonly byKey = new Map<string, ScheduledEntry>();
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly shownListeners: Array<(app: string, id: string) => void> = [];

  private constructor(
    private readonly store: Store,
    private readonly document: Document<ScheduledFile>,
    private readonly show: (body: NotificationInput) => Promise<unknown>,
    private readonly clock: () => number,
  ) {
    for (const entry of document.data.entries ?? []) if (entry?.app && entry.id) this.byKey.set(recordKey(entry.app, entry.id), entry);
  }

  /** `show` delivers a notification as `POST /v1/notify` does; nothing is shown before `start`. */
  static async open(
    store: Store,
    show: (body: NotificationInput) => Promise<unknown>,
    clock: () => number = Date.now,
  ): Promise<ScheduledNotifications> {
    return new ScheduledNotifications(store, await store.open<ScheduledFile>('scheduled.json', { entries: [] }), show, clock);
  }

  /** Calls back after each one it showed (a relayed one tells the relay then). */
  onShown(listener: (app: string, id: string) => void): void {
    this.shownListeners.push(listener);
  }

  /** Shows what is due (it came due while the daemon was stopped) and waits for the rest. */
  start(): void {
    this.arm();
  }

  /** The waiting notifications, soonest first; of one app when `app` is given. */
  list(app?: string): ScheduledView[] {
    return [...this.byKey.values()]
      .filter((entry) => app === undefined || entry.app === app)
      .sort((a, b) => Date.parse(a.at) - Date.parse(b.at))
      .map(({ body: _body, ...view }) => view);
  }

  /**
   * Keeps a notification (as `POST /v1/notify` read it) to show at `at`, replacing one of the same app and id;
   * answered once it is on disk.
   */
  async schedule(body: NotificationInput, at: Date): Promise<ScheduledView> {
    const id = body.id || randomUUID().toUpperCase();
    const key = recordKey(body.app, id);
    if (!this.byKey.has(key) && this.byKey.size >= MAX_SCHEDULED) throw errors.tooManyScheduled();
    const entry: ScheduledEntry = {
      app: body.app,
      id,
      title: body.title ?? '',
      at: at.toISOString(),
      createdAt: new Date(this.clock()).toISOString(),
      body: { ...body, id },
    };
    this.byKey.set(key, entry);
    await this.save();
    this.arm();
    const { body: _body, ...view } = entry;
    return view;
  }

  /** Cancels one before its time: 404 when none of this app and id waits. */
  async cancel(app: string, id: string): Promise<void> {
    if (!this.byKey.delete(recordKey(app, id))) throw errors.scheduledNotFound(app, id);
    await this.save();
    this.arm();
  }

  /** Forgets every waiting notification of an app (the app was removed). */
  async removeApp(app: string): Promise<void> {
    const before = this.byKey.size;
    for (const [key, entry] of this.byKey) if (entry.app === app) this.byKey.delete(key);
    if (this.byKey.size !== before) await this.save();
    this.arm();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Waits for the soonest; what is due now is shown at once. */
  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.closed || this.byKey.size === 0) return;
    const soonest = Math.min(...[...this.byKey.values()].map((entry) => Date.parse(entry.at)));
    const wait = Math.max(0, Math.min(soonest - this.clock(), LONGEST_WAIT_MS));
    this.timer = setTimeout(() => void this.showDue(), wait);
    this.timer.unref();
  }

  /**
   * Shows each notification whose time has come, in order, then forgets it. One that cannot be shown any more (its
   * app was refused meanwhile: 200 apps) is logged and forgotten: keeping it would try again forever.
   */
  private async showDue(): Promise<void> {
    this.timer = null;
    const now = this.clock();
    const due = [...this.byKey.values()].filter((entry) => Date.parse(entry.at) <= now).sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
    for (const entry of due) {
      if (this.closed) return;
      const key = recordKey(entry.app, entry.id);
      if (this.byKey.get(key) !== entry) continue; // cancelled, or scheduled again, while an earlier one showed
      // Off the list before it shows: the file still holds it until the save below, so a crash in between shows
      // it again at the next start, under its id, in its own place.
      this.byKey.delete(key);
      try {
        await this.show(entry.body);
        for (const listener of this.shownListeners) listener(entry.app, entry.id);
      } catch (error) {
        log.warn(`[${entry.app}] ${entry.id}: the scheduled notification could not be shown: ${(error as Error).message}`);
      }
    }
    if (due.length > 0) await this.save().catch((error: Error) => log.error(`scheduled.json: ${error.message}`));
    this.arm();
  }

  private save(): Promise<void> {
    this.document.data = { entries: [...this.byKey.values()] };
    return this.store.save(this.document);
  }
}
