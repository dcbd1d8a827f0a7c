import { log } from '../log.js';
import { safeFileName } from '../store/safe-name.js';
import type { Document, Store } from '../store/store.js';
import type { ImageCache } from './images.js';
import { foldForSearch } from './search-text.js';
import type { HistoryRecord } from './types.js';

const FOLDER = 'history';

/** One file per app: `history/<app>.json`, records oldest first (so a new one is an append in memory). */
interface HistoryFile {
  app: string;
  records: HistoryRecord[];
}

class AppHistory {
  readonly byId = new Map<string, HistoryRecord>();

  constructor(
    readonly app: string,
    readonly document: Document<HistoryFile>,
  ) {
    for (const record of document.data.records) this.byId.set(record.id, record);
  }

  get records(): HistoryRecord[] {
    return this.document.data.records;
  }
}

export interface HistoryQuery {
  app?: string;
  limit: number;
  /** Folded query words; every one must occur in the record's title, subtitle, body, app id or app name. */
  words?: string[];
  appName?: (app: string) => string;
  /** Only records this accepts. */
  filter?: (record: HistoryRecord) => boolean;
}

/**
 * History: every notification's record, per app, newest last in memory and on disk. Records are never changed
 * in place; a change replaces the record object. That lets two caches hang off each record safely: its JSON
 * text (so writing an app's file re-serialises only what changed) and its folded search text.
 */
export class History {
  private readonly apps = new Map<string, AppHistory>();
  private readonly json = new WeakMap<HistoryRecord, string>();
  private readonly searchText = new WeakMap<HistoryRecord, string>();

  constructor(
    private readonly store: Store,
    private readonly images: ImageCache,
    private readonly capPerApp: () => number,
  ) {}

  async load(): Promise<void> {
    const names = await this.store.listJSON(FOLDER);
    await Promise.all(names.map((name) => this.loadFile(`${FOLDER}/${name}`)));
  }

  private async loadFile(relativePath: string): Promise<void> {
    const document = await this.store.open<HistoryFile>(relativePath, { app: '', records: [] }, this.serialize);
    const { app, records } = document.data;
    if (typeof app !== 'string' || app === '' || !Array.isArray(records) || this.apps.has(app)) {
      log.warn(`${relativePath} is not a History file of Notifier; left alone`);
      return;
    }
    this.apps.set(app, new AppHistory(app, document));
    for (const record of records) this.images.retain(record.imagePath);
  }

  get(app: string, id: string): HistoryRecord | undefined {
    return this.apps.get(app)?.byId.get(id);
  }

  /** Every app with History. */
  appIds(): string[] {
    return [...this.apps.keys()].filter((app) => this.apps.get(app)!.records.length > 0);
  }

  /**
   * Stores a record as the newest of its app, replacing one with the same id, and evicts the oldest beyond
   * the per-app cap. The change is made at once; the promise resolves when it is on disk.
   */
  put(record: HistoryRecord): Promise<void> {
    const history = this.appHistory(record.app);
    const previous = history.byId.get(record.id);
    if (previous) this.drop(history, previous);
    history.records.push(record);
    history.byId.set(record.id, record);
    this.images.retain(record.imagePath);
    const excess = history.records.length - this.capPerApp();
    if (excess > 0) {
      for (const evicted of history.records.splice(0, excess)) {
        history.byId.delete(evicted.id);
        this.images.release(evicted.imagePath);
      }
    }
    return this.save(history);
  }

  /** Replaces a record with `change(record)` where it stands; undefined when there is no such record. */
  update(app: string, id: string, change: (record: HistoryRecord) => HistoryRecord): Promise<void> | undefined {
    const history = this.apps.get(app);
    const current = history?.byId.get(id);
    if (!history || !current) return undefined;
    const next = change(current);
    if (next === current) return Promise.resolve();
    history.records[history.records.lastIndexOf(current)] = next;
    history.byId.set(id, next);
    this.images.retain(next.imagePath);
    this.images.release(current.imagePath);
    return this.save(history);
  }

  /** Removes one record; undefined when there is no such record. */
  remove(app: string, id: string): Promise<void> | undefined {
    const history = this.apps.get(app);
    const current = history?.byId.get(id);
    if (!history || !current) return undefined;
    this.drop(history, current);
    return this.save(history);
  }

  /** Removes every record of one app, or of every app. */
  clear(app?: string): Promise<void> {
    const targets = app === undefined ? [...this.apps.values()] : [this.apps.get(app)].filter((h) => h !== undefined);
    for (const history of targets) {
      for (const record of history.records) this.images.release(record.imagePath);
      history.records.length = 0;
      history.byId.clear();
    }
    return Promise.all(targets.map((history) => this.save(history))).then(() => undefined);
  }

  /** Records newest first, from one app or merged across all, optionally only those matching query words. */
  query({ app, limit, words = [], appName = (id) => id, filter = () => true }: HistoryQuery): HistoryRecord[] {
    if (limit <= 0) return [];
    const sources = app === undefined ? [...this.apps.values()] : [this.apps.get(app)].filter((h) => h !== undefined);
    const cursors = sources
      .map((history) => {
        const matches = this.matcher(history, words, appName);
        return this.cursor(history, (record) => filter(record) && matches(record));
      })
      .filter((cursor) => cursor.current !== undefined);
    return mergeNewestFirst(cursors, limit);
  }

  private appHistory(app: string): AppHistory {
    let history = this.apps.get(app);
    if (!history) {
      const relativePath = `${FOLDER}/${safeFileName(app)}.json`;
      const document = this.store.create<HistoryFile>(relativePath, { app, records: [] }, this.serialize);
      history = new AppHistory(app, document);
      this.apps.set(app, history);
    }
    return history;
  }

  private drop(history: AppHistory, record: HistoryRecord): void {
    history.records.splice(history.records.lastIndexOf(record), 1);
    history.byId.delete(record.id);
    this.images.release(record.imagePath);
  }

  /** On disk first; pictures no record refers to any more are deleted only after that. */
  private save(history: AppHistory): Promise<void> {
    const written =
      history.records.length === 0 ? this.store.delete(history.document) : this.store.save(history.document);
    return written.then(() => this.images.sweep());
  }

  private readonly serialize = (data: HistoryFile): string => {
    const records = data.records.map((record) => {
      let text = this.json.get(record);
      if (text === undefined) {
        text = JSON.stringify(record);
        this.json.set(record, text);
      }
      return text;
    });
    return `{"app":${JSON.stringify(data.app)},"records":[${records.join(',')}]}`;
  };

  private textOf(record: HistoryRecord): string {
    let text = this.searchText.get(record);
    if (text === undefined) {
      const { title = '', subtitle = '', body = '' } = record.notification;
      text = foldForSearch(`${title}\n${subtitle}\n${body}`);
      this.searchText.set(record, text);
    }
    return text;
  }

  /** Words found in the app id or name hold for all of its records; the rest must be in each record's text. */
  private matcher(history: AppHistory, words: string[], appName: (app: string) => string) {
    if (words.length === 0) return () => true;
    const appText = foldForSearch(`${history.app}\n${appName(history.app)}`);
    const remaining = words.filter((word) => !appText.includes(word));
    if (remaining.length === 0) return () => true;
    return (record: HistoryRecord): boolean => {
      const text = this.textOf(record);
      return remaining.every((word) => text.includes(word));
    };
  }

  private cursor(history: AppHistory, matches: (record: HistoryRecord) => boolean): Cursor {
    const { records } = history;
    let index = records.length;
    const cursor: Cursor = {
      current: undefined,
      advance() {
        do index--;
        while (index >= 0 && !matches(records[index]!));
        cursor.current = index >= 0 ? records[index] : undefined;
      },
    };
    cursor.advance();
    return cursor;
  }
}

interface Cursor {
  current: HistoryRecord | undefined;
  advance(): void;
}

/** k-way merge of per-app newest-first cursors by `deliveredAt`, with a binary heap; stops after `limit`. */
function mergeNewestFirst(cursors: Cursor[], limit: number): HistoryRecord[] {
  const newer = (a: Cursor, b: Cursor): boolean => a.current!.deliveredAt > b.current!.deliveredAt;
  const heap = cursors;
  const siftDown = (start: number): void => {
    let parent = start;
    for (;;) {
      const left = parent * 2 + 1;
      const right = left + 1;
      let top = parent;
      if (left < heap.length && newer(heap[left]!, heap[top]!)) top = left;
      if (right < heap.length && newer(heap[right]!, heap[top]!)) top = right;
      if (top === parent) return;
      [heap[parent], heap[top]] = [heap[top]!, heap[parent]!];
      parent = top;
    }
  };
  for (let index = Math.floor(heap.length / 2) - 1; index >= 0; index--) siftDown(index);
  const out: HistoryRecord[] = [];
  while (heap.length > 0 && out.length < limit) {
    const head = heap[0]!;
    out.push(head.current!);
    head.advance();
    if (head.current === undefined) {
      heap[0] = heap[heap.length - 1]!;
      heap.pop();
    }
    siftDown(0);
  }
  return out;
}
