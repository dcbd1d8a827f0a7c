// Every desktop notification in History (docs/desktop.md, "Every desktop notification in History"): when the person
// turns it on, other programs' notifications are read off the session bus (integrations/notification-monitor.ts)
// and kept as History records of the app `desktop.<program>`: what the program sent, then how its banner ended and
// which of its actions the person chose. They are the person's: read-only in the window (the program owns their
// buttons), delivered read (the person saw the program's own banner), never shown to the API token (records.ts).
// Notifier's own banners carry the desktop entry `notifier` and are never kept twice.
//
// Events are applied one after another, in the order the bus gave them: a picture is made into a file before the
// record that shows it is put, and the server's id for a banner is known only after its `Notify` was read.

import { randomUUID } from 'node:crypto';
import { NOTIFY_FIELD_BYTES } from '../../../protocol/limits.js';
import { bodyFromMarkup, desktopAppId, excludedByDefault, type ProgramKeep } from '../../../protocol/desktop-programs.js';
import { cutUTF8 } from '../../../protocol/text.js';
import type { HistoryRecord, Notification } from '../../../protocol/types.js';
import type { MonitorOptions, MonitorStart, NotifyCall, ObservedEvent } from '../../integrations/notification-monitor.js';
import { log } from '../../log.js';
import type { Document, Store } from '../../store/store.js';
import type { History } from '../history/history.js';
import type { ImageCache } from '../media/images.js';
import { pngOfRawImage } from '../media/raw-image.js';

/** The desktop entry of Notifier's own banners (daemon/present/dbus.ts): never kept twice. */
export const OWN_DESKTOP_ENTRY = 'notifier';
/** Banners whose end and actions are followed (by the server's id); older ones are forgotten first. */
const MAX_FOLLOWED = 1000;
/** A monitor that ended by itself (the server changed, the bus hiccupped) is opened again after this long. */
const REOPEN_AFTER_MS = 1000;
/** `NotificationClosed`'s reasons (the notification specification), as the record says how the banner ended. */
const ENDINGS: Readonly<Record<number, string>> = { 1: 'expired', 2: 'dismissed', 3: 'closed-by-program' };
/** The specification's urgency: 0 low, 1 normal, 2 critical (which stays until dismissed: Notifier's urgent). */
const PRIORITY_OF_URGENCY: Readonly<Record<number, Notification['priority']>> = { 0: 'low', 2: 'urgent' };

/** What the monitor is doing, as Settings says it. */
export type MonitorState = { state: 'off' } | { state: 'starting' } | { state: 'on' } | { state: 'refused'; reason: string };

/** A program seen on the bus, and what the person keeps of it. */
export interface ProgramView {
  app: string;
  name: string;
  keep: ProgramKeep;
  /** Why it is left out until the person keeps it (a password manager, a two-factor app...). */
  excludedByDefault?: string;
}

interface ProgramEntry {
  name: string;
  desktopEntry?: string;
  /** The person's choice; absent: all, or none for a program left out by default. */
  keep?: ProgramKeep;
}

interface DesktopFile {
  /** The person turned "Keep every desktop notification in History" on. */
  keep?: boolean;
  programs: Record<string, ProgramEntry>;
}

/** A banner of another program being followed: its record, and its actions' labels by key. */
interface Followed {
  app: string;
  id: string;
  labels: Map<string, string>;
}

export interface DesktopHistoryParts {
  store: Store;
  history: History;
  images: ImageCache;
  /** Opens the bus monitor (the session bus's, or another given by the daemon's options). */
  startMonitor(options: Omit<MonitorOptions, 'address'>): Promise<MonitorStart>;
}

export class DesktopHistory {
  private monitor: { close(): void } | null = null;
  private state: MonitorState = { state: 'off' };
  private work: Promise<void> = Promise.resolve();
  private reopen: NodeJS.Timeout | null = null;
  /** `Notify` calls read, by caller and serial, until the server answers with the banner's id. */
  private readonly asked = new Map<string, Followed>();
  private readonly byServerId = new Map<number, Followed>();
  private readonly listeners = new Set<() => void>();

  private constructor(
    private readonly parts: DesktopHistoryParts,
    private readonly document: Document<DesktopFile>,
  ) {
    document.data.programs ??= {};
  }

  static async open(parts: DesktopHistoryParts): Promise<DesktopHistory> {
    return new DesktopHistory(parts, await parts.store.open<DesktopFile>('desktop.json', { programs: {} }));
  }

  /** Starts watching if the person turned it on. */
  start(): void {
    if (this.keeping) void this.watch();
  }

  get keeping(): boolean {
    return this.document.data.keep === true;
  }

  status(): MonitorState {
    return this.state;
  }

  /** Calls back when the monitor's state or the programs change (the window's Settings follow it). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The person turned keeping on or off; resolves once that is on disk and the monitor started or stopped. */
  async setKeeping(on: boolean): Promise<void> {
    this.document.data.keep = on;
    await this.parts.store.save(this.document);
    if (on) await this.watch();
    else this.stop();
  }

  /** Every program seen, by name. */
  programs(): ProgramView[] {
    return Object.entries(this.document.data.programs)
      .map(([app, entry]) => this.view(app, entry))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  program(app: string): ProgramView | undefined {
    const entry = this.document.data.programs[app];
    return entry && this.view(app, entry);
  }

  /** What the person keeps of one program from now on; undefined when no such program was seen. */
  async setProgramKeep(app: string, keep: ProgramKeep): Promise<ProgramView | undefined> {
    const entry = this.document.data.programs[app];
    if (!entry) return undefined;
    entry.keep = keep;
    await this.parts.store.save(this.document);
    this.changed();
    return this.view(app, entry);
  }

  close(): void {
    this.stop();
  }

  /** Waits until every event read so far is applied (tests, and the daemon's stop). */
  settled(): Promise<void> {
    return this.work;
  }

  private view(app: string, entry: ProgramEntry): ProgramView {
    const excluded = excludedByDefault({ appName: entry.name, ...(entry.desktopEntry ? { desktopEntry: entry.desktopEntry } : {}) });
    return {
      app,
      name: entry.name,
      keep: entry.keep ?? (excluded ? 'none' : 'all'),
      ...(excluded ? { excludedByDefault: excluded } : {}),
    };
  }

  private async watch(): Promise<void> {
    if (this.monitor || this.state.state === 'starting') return;
    this.setState({ state: 'starting' });
    const started = await this.parts.startMonitor({
      onEvent: (event) => this.observe(event),
      onEnd: (reason) => this.ended(reason),
    });
    if ('refused' in started) {
      log.warn(`desktop notifications: the session bus does not let Notifier watch them (${started.refused})`);
      this.setState({ state: 'refused', reason: started.refused });
      return;
    }
    if (!this.keeping) return started.monitor.close(); // turned off while it started
    this.monitor = started.monitor;
    this.setState({ state: 'on' });
  }

  private stop(): void {
    if (this.reopen) clearTimeout(this.reopen);
    this.reopen = null;
    this.monitor?.close();
    this.monitor = null;
    this.setState({ state: 'off' });
  }

  /** The monitor ended by itself: opened again (with the new server's name, when that is why). */
  private ended(reason: string): void {
    log.info(`desktop notifications: watching again (${reason})`);
    this.monitor = null;
    this.setState({ state: 'starting' });
    this.reopen = setTimeout(() => {
      this.reopen = null;
      this.setState({ state: 'off' });
      if (this.keeping) void this.watch();
    }, REOPEN_AFTER_MS);
    this.reopen.unref();
  }

  private setState(state: MonitorState): void {
    this.state = state;
    this.changed();
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  private observe(event: ObservedEvent): void {
    this.work = this.work.then(() => this.apply(event)).catch((error: Error) => log.warn(`desktop notifications: ${error.message}`));
  }

  private async apply(event: ObservedEvent): Promise<void> {
    switch (event.type) {
      case 'notify':
        return this.notified(event.sender, event.serial, event.call);
      case 'answered': {
        const followed = this.asked.get(`${event.to}#${event.serial}`);
        if (!followed) return;
        this.asked.delete(`${event.to}#${event.serial}`);
        this.follow(this.byServerId, event.id, followed);
        return;
      }
      case 'closed': {
        const followed = this.byServerId.get(event.id);
        if (!followed) return;
        this.byServerId.delete(event.id);
        const at = new Date().toISOString();
        const ending = ENDINGS[event.reason] ?? 'ended';
        await this.parts.history.update(followed.app, followed.id, (record) => ({
          ...record,
          dismissedAt: record.dismissedAt ?? at,
          notification: { ...record.notification, metadata: { ...record.notification.metadata, ending } },
        }));
        return;
      }
      case 'action': {
        const followed = this.byServerId.get(event.id);
        if (!followed) return;
        const label = followed.labels.get(event.key) ?? (event.key === 'default' ? 'Opened' : event.key);
        await this.parts.history.update(followed.app, followed.id, (record) => ({ ...record, actionUsed: label }));
        return;
      }
    }
  }

  /** A program's `Notify`: its record (unless the person keeps none of it), followed until the server answers. */
  private async notified(sender: string, serial: number, call: NotifyCall): Promise<void> {
    if (call.hints.desktopEntry === OWN_DESKTOP_ENTRY) return;
    const program = { appName: call.appName.trim(), ...(call.hints.desktopEntry ? { desktopEntry: call.hints.desktopEntry } : {}) };
    const app = desktopAppId(program);
    const keep = await this.seen(app, program);
    if (keep === 'none') return;
    // A program that replaces its banner (by the server's id) replaces its record.
    const replaced = call.replacesId !== 0 ? this.byServerId.get(call.replacesId) : undefined;
    const id = replaced?.app === app ? replaced.id : randomUUID().toUpperCase();
    const labels = new Map<string, string>();
    for (let i = 0; i + 1 < call.actions.length; i += 2) labels.set(call.actions[i]!, call.actions[i + 1]!);
    const record = await this.recordOf(app, id, call, keep === 'titles' ? undefined : labels);
    await this.parts.history.load(app);
    void this.parts.history.put(record).catch((error: Error) => log.error(`desktop notifications: not kept: ${error.message}`));
    this.follow(this.asked, `${sender}#${serial}`, { app, id, labels });
  }

  /** Notes a program the first time it is seen (saved: Settings lists it); what the person keeps of it. */
  private async seen(app: string, program: { appName: string; desktopEntry?: string }): Promise<ProgramKeep> {
    let entry = this.document.data.programs[app];
    if (!entry) {
      entry = {
        name: program.appName || program.desktopEntry || 'Unnamed program',
        ...(program.desktopEntry ? { desktopEntry: program.desktopEntry } : {}),
      };
      this.document.data.programs[app] = entry;
      await this.parts.store.save(this.document);
      this.changed();
    }
    return this.view(app, entry).keep;
  }

  private async recordOf(app: string, id: string, call: NotifyCall, labels: Map<string, string> | undefined): Promise<HistoryRecord> {
    const name = this.document.data.programs[app]!.name;
    const { body, link } = labels ? bodyFromMarkup(call.body) : { body: '', link: undefined };
    const priority = PRIORITY_OF_URGENCY[call.hints.urgency ?? 1];
    const metadata: Record<string, unknown> = {
      source: 'desktop',
      program: name,
      ...(call.hints.desktopEntry ? { desktopEntry: call.hints.desktopEntry } : {}),
      ...(call.hints.category ? { category: call.hints.category } : {}),
      ...(labels && labels.size > 0 ? { actions: [...labels.values()].filter((label) => label !== '') } : {}),
      ...(call.appIcon && !call.appIcon.includes('/') ? { iconName: call.appIcon } : {}),
    };
    const imagePath = labels ? await this.pictureOf(call) : null;
    return {
      id,
      app,
      deliveredAt: new Date().toISOString(),
      notification: {
        app,
        id,
        title: cutUTF8(call.summary.trim() || name, NOTIFY_FIELD_BYTES.title),
        ...(body ? { body: cutUTF8(body, NOTIFY_FIELD_BYTES.body) } : {}),
        ...(link ? { url: link } : {}),
        ...(priority ? { priority } : {}),
        metadata,
      },
      ...(imagePath ? { imagePath } : {}),
    };
  }

  /** The banner's picture: its raw pixels, else the file it names (hint or icon), kept in the picture cache. */
  private async pictureOf(call: NotifyCall): Promise<string | null> {
    const { imageData, imagePath } = call.hints;
    if (imageData) {
      const png = await pngOfRawImage(imageData);
      if (png) return this.parts.images.cache(`data:image/png;base64,${png.toString('base64')}`);
    }
    // An icon name (`mail-unread`) names no file: only a path or a file: URL is read.
    const file = [imagePath, call.appIcon].find((source) => source && (source.startsWith('/') || source.startsWith('file://')));
    return file ? this.parts.images.cache(file) : null;
  }

  private follow<K>(map: Map<K, Followed>, key: K, followed: Followed): void {
    map.set(key, followed);
    if (map.size > MAX_FOLLOWED) map.delete(map.keys().next().value!);
  }
}
