import { open } from 'node:fs/promises';
import { log } from '../../log.js';
import { Journal } from '../../store/journal.js';
import { safeFileName } from '../../store/safe-name.js';
import type { Document, Store } from '../../store/store.js';
import { SearchIndex } from './history-search.js';
import type { ImageCache } from '../media/images.js';
import type { Settings } from '../settings/settings.js';
import { foldForSearch } from '../../../protocol/search-text.js';
import type { HistoryRecord } from '../../../protocol/types.js';

const FOLDER = 'history';
/** A change is in the journal at once; the app's History file follows at most this much later (a checkpoint). */
const CHECKPOINT_DELAY_MS = 1000;
/** History files read at the same time while the daemon loads History in the background after it starts. */
const LOAD_CONCURRENCY = 4;

/**
 * `history/<app>.json`: records oldest first (so a new one is an append in memory), and `seq`, the last
 * journal change the file includes.
 */
interface HistoryFile {
  app: string;
  seq?: number;
  records: HistoryRecord[];
}

/** A change to History as the journal holds it; replaying the journal after a crash repeats these. */
type Change =
  | { op: 'put'; app: string; record: HistoryRecord }
  | { op: 'set'; app: string; record: HistoryRecord }
  | { op: 'remove'; app: string; id: string }
  | { op: 'restore'; app: string; record: HistoryRecord }
  | { op: 'clear'; app: string }
  | { op: 'trim'; app: string; cap: number };
type JournalEntry = Change & { seq: number };

/**
 * What changed in History, as it happens (live changes only, never a replay of the journal): the person's app
 * shows it at once. `stored` is a new record or a changed one (`previous` is the record it replaced, by id);
 * `removed` a record deleted or evicted by the per-app cap; `cleared` every record of an app.
 */
export type HistoryEvent =
  | { type: 'stored'; record: HistoryRecord; previous?: HistoryRecord }
  | { type: 'removed'; record: HistoryRecord }
  | { type: 'cleared'; app: string };

class AppHistory {
  readonly byId = new Map<string, HistoryRecord>();
  private index: SearchIndex | null = null;

  constructor(
    readonly app: string,
    readonly document: Document<HistoryFile>,
  ) {
    for (const record of document.data.records) this.byId.set(record.id, record);
  }

  get records(): HistoryRecord[] {
    return this.document.data.records;
  }

  get loadedSeq(): number {
    return this.document.data.seq ?? 0;
  }

  changed(): void {
    this.index = null;
  }

  searchIndex(): SearchIndex {
    return (this.index ??= new SearchIndex(this.records));
  }
}

export interface HistoryQuery {
  app?: string;
  limit: number;
  /** Folded query words; every one must occur in the record's title, subtitle, body, app id or app name. */
  words?: string[];
  appName?: (app: string) => string;
  /** Only the apps this accepts: the others' records are not read at all. */
  apps?: (app: string) => boolean;
  /** Only records this accepts. */
  filter?: (record: HistoryRecord) => boolean;
}

/**
 * History: every notification's record, per app. A change is made in memory at once and written to the
 * journal; the promise it returns resolves when the journal line is on disk (so an acknowledged change survives
 * `kill -9`). The app's own file is rewritten by a checkpoint soon after, atomically, and the journal is then
 * dropped. Records are never changed in place: a change replaces the record object, so each record's JSON bytes
 * can be made once and reused by every later checkpoint of its app.
 *
 * When the daemon starts, History loads in the background: `load(app)` waits for one app (and jumps the queue),
 * `ready` for all of them.
 */
export class History {
  private readonly apps = new Map<string, AppHistory>();
  private readonly json = new WeakMap<HistoryRecord, Buffer>();
  private readonly loads = new Map<string, Promise<void>>();
  private readonly fileNames = new Set<string>();
  /** File names whose load has finished (well or not). */
  private readonly settled = new Set<string>();
  /** Journal changes left by a run that crashed, by app, waiting for that app's file to load. */
  private readonly leftovers = new Map<string, JournalEntry[]>();
  private readonly dirty = new Set<AppHistory>();
  private checkpointTimer: NodeJS.Timeout | null = null;
  private checkpointing: Promise<void> = Promise.resolve();
  private seq = 0;
  private journal!: Journal;
  /** Resolves when every app's History is in memory. */
  ready: Promise<void> = Promise.resolve();
  /** Told of every record the per-app cap evicts (its banner, if still up, must go with it). */
  onEvict: (record: HistoryRecord) => void = () => undefined;
  private readonly listeners = new Set<(event: HistoryEvent) => void>();
  /** The events of the change being applied now; null while the journal is replayed (nothing is told then). */
  private telling: HistoryEvent[] | null = null;

  constructor(
    private readonly store: Store,
    private readonly images: ImageCache,
    /** The setting historyCapPerApp, read when a record is put (it changes while the service runs). */
    private readonly cap: Pick<Settings, 'historyCapPerApp'>,
  ) {}

  /** Reads the journal a crash left behind and starts loading History in the background. */
  async open(): Promise<void> {
    this.journal = await Journal.open(this.store.resolve(FOLDER));
    this.store.useJournal(this.journal);
    for (const entry of (await this.journal.readLeftovers()) as JournalEntry[]) {
      if (typeof entry?.app !== 'string' || typeof entry.seq !== 'number') continue;
      this.seq = Math.max(this.seq, entry.seq);
      if (!this.leftovers.has(entry.app)) this.leftovers.set(entry.app, []);
      this.leftovers.get(entry.app)!.push(entry);
    }
    const names = await this.store.listJSON(FOLDER);
    // New changes must be numbered above every change a file already holds (from earlier runs too), or a
    // replay after a crash would take them as written. The number is at the head of each file: no full read.
    const written = await Promise.all(names.map((name) => readSeqOf(this.store.resolve(`${FOLDER}/${name}`))));
    this.seq = written.reduce((max, seq) => Math.max(max, seq), this.seq);
    for (const name of names) this.fileNames.add(name);
    this.ready = this.loadEverything();
  }

  /** True when this app's History is in memory (or it has none on disk): `load(app)` would not wait. */
  isLoaded(app: string): boolean {
    return this.apps.has(app) || !this.fileNames.has(`${safeFileName(app)}.json`);
  }

  /** Resolves when this app's History is in memory. */
  load(app: string): Promise<void> {
    if (this.apps.has(app)) return Promise.resolve();
    const name = `${safeFileName(app)}.json`;
    return this.fileNames.has(name) ? this.loadFile(name) : Promise.resolve();
  }

  private async loadEverything(): Promise<void> {
    const queue = [...this.fileNames];
    const worker = async (): Promise<void> => {
      for (let name = queue.shift(); name !== undefined; name = queue.shift()) await this.loadFile(name);
    };
    await Promise.all(Array.from({ length: LOAD_CONCURRENCY }, worker));
    // Apps whose only trace is the journal (new since the last checkpoint before a crash).
    for (const app of [...this.leftovers.keys()]) this.appHistory(app);
    if (this.dirty.size > 0) await this.checkpoint(); // fold the replayed journal into the files at once
  }

  private loadFile(name: string): Promise<void> {
    let loading = this.loads.get(name);
    if (!loading) {
      loading = this.readFile(`${FOLDER}/${name}`)
        .catch((error: Error) => log.error(`${FOLDER}/${name}: ${error.message}`))
        .finally(() => this.settled.add(name));
      this.loads.set(name, loading);
    }
    return loading;
  }

  private async readFile(relativePath: string): Promise<void> {
    const document = await this.store.open<HistoryFile>(relativePath, { app: '', records: [] }, this.serialize);
    const { app, records } = document.data;
    if (typeof app !== 'string' || app === '' || !Array.isArray(records) || this.apps.has(app)) {
      log.warn(`${relativePath} is not a History file of Notifier; left alone`);
      return;
    }
    this.adopt(new AppHistory(app, document));
  }

  /** Takes an app's History into memory and replays what the journal holds for it beyond its file. */
  private adopt(history: AppHistory): void {
    this.apps.set(history.app, history);
    for (const record of history.records) this.images.retain(record.imagePath);
    const entries = this.leftovers.get(history.app) ?? [];
    this.leftovers.delete(history.app);
    for (const entry of entries) {
      if (entry.seq > history.loadedSeq) this.apply(history, entry);
    }
  }

  get(app: string, id: string): HistoryRecord | undefined {
    return this.apps.get(app)?.byId.get(id);
  }

  /**
   * Stores a record as the newest of its app, replacing one with the same id, and evicts the oldest beyond the
   * per-app cap. Made at once; the promise resolves when the change is durable.
   */
  put(record: HistoryRecord): Promise<void> {
    return this.change({ op: 'put', app: record.app, record });
  }

  /** Replaces a record with `change(record)` where it stands; undefined when there is no such record. */
  update(app: string, id: string, change: (record: HistoryRecord) => HistoryRecord): Promise<void> | undefined {
    const current = this.get(app, id);
    if (!current) return undefined;
    const next = change(current);
    return next === current ? Promise.resolve() : this.change({ op: 'set', app, record: next });
  }

  /** Removes one record; undefined when there is no such record. */
  remove(app: string, id: string): Promise<void> | undefined {
    return this.get(app, id) ? this.change({ op: 'remove', app, id }) : undefined;
  }

  /**
   * Puts back a record the person deleted (the window's Undo) where its delivery time places it, unless a newer one
   * took its id meanwhile. Its app's History must be loaded.
   */
  restore(record: HistoryRecord): Promise<void> {
    return this.change({ op: 'restore', app: record.app, record });
  }

  /**
   * Keeps a record's picture while the record is out of History but may come back (a deletion the person can undo);
   * `letGoPicture` when it will not, and the picture goes unless a record holds it.
   */
  holdPicture(record: HistoryRecord): void {
    this.images.retain(record.imagePath);
  }

  letGoPicture(record: HistoryRecord): void {
    this.images.release(record.imagePath);
    void this.images.sweep();
  }

  /** Removes every record of one app, or of every app. */
  clear(app?: string): Promise<void> {
    const apps = app === undefined ? [...this.apps.keys()] : this.apps.has(app) ? [app] : [];
    return Promise.all(apps.map((id) => this.change({ op: 'clear', app: id }))).then(() => undefined);
  }

  /**
   * Removes an app's History for good (DELETE /v1/apps/{id}): its records, then, at once rather than at the next
   * checkpoint, its file and the journal lines that held them.
   */
  async removeApp(app: string): Promise<void> {
    await this.load(app);
    if (!this.apps.has(app)) return;
    await this.change({ op: 'clear', app });
    await this.checkpoint();
    const history = this.apps.get(app);
    // A notification that arrived meanwhile was acknowledged: its History stays.
    if (history && history.records.length === 0) {
      this.apps.delete(app);
      this.dirty.delete(history);
      this.fileNames.delete(`${safeFileName(app)}.json`);
    }
  }

  /** The cap was lowered (setting historyCapPerApp): every app's oldest records beyond it go at once. */
  async trim(): Promise<void> {
    await this.ready;
    const cap = this.cap.historyCapPerApp;
    const over = [...this.apps.values()].filter((history) => history.records.length > cap);
    await Promise.all(over.map((history) => this.change({ op: 'trim', app: history.app, cap })));
  }

  /** Records newest first, from one app or merged across all, optionally only those matching query words. */
  query({ app, limit, words = [], appName = (id) => id, apps = () => true, filter = () => true }: HistoryQuery): HistoryRecord[] {
    if (limit <= 0) return [];
    const named = app === undefined ? [...this.apps.values()] : [this.apps.get(app)].filter((h) => h !== undefined);
    const sources = named.filter((history) => apps(history.app));
    const cursors = sources.map((history) => cursor(matching(history, words, appName, filter))).filter((c) => c.current);
    return mergeNewestFirst(cursors, limit);
  }

  size(): { apps: number; records: number } {
    let records = 0;
    for (const history of this.apps.values()) records += history.records.length;
    return { apps: this.apps.size, records };
  }

  /**
   * Builds every app's search index, one app per turn of the event loop (requests go on being served), so the
   * first search after a start does not pay for all of them.
   */
  warmSearch(): void {
    const pending = [...this.apps.values()];
    const next = (): void => {
      pending.shift()?.searchIndex();
      if (pending.length > 0) setImmediate(next);
    };
    setImmediate(next);
  }

  /** Writes every changed app's file and drops the journal; called on a clean stop. */
  async close(): Promise<void> {
    await this.ready;
    await this.checkpoint();
    await this.journal.close();
  }

  /** Calls back after every live change (HistoryEvent); returns a function that stops. */
  onChange(listener: (event: HistoryEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The records of one app, oldest first: the order they were delivered in, so their `deliveredAt` ascends
   * (the caller must not change the array).
   */
  recordsOf(app: string): readonly HistoryRecord[] {
    return this.apps.get(app)?.records ?? [];
  }

  /** The apps that have History in memory. */
  appIds(): string[] {
    return [...this.apps.keys()];
  }

  private change(change: Change): Promise<void> {
    const history = this.appHistory(change.app);
    const entry: JournalEntry = { ...change, seq: ++this.seq };
    const events: HistoryEvent[] = (this.telling = []);
    try {
      this.apply(history, entry);
    } finally {
      this.telling = null;
    }
    this.tell(events);
    return this.store.appendToJournal(this.journalLine(entry)).then(() => this.images.sweep());
  }

  private tell(events: HistoryEvent[]): void {
    for (const event of events) {
      for (const listener of this.listeners) {
        try {
          listener(event);
        } catch (error) {
          log.error(`a History listener failed: ${(error as Error).stack ?? String(error)}`);
        }
      }
    }
  }

  /** The one place History changes, live or replayed from the journal. */
  private apply(history: AppHistory, entry: JournalEntry): void {
    switch (entry.op) {
      case 'put': {
        const previous = history.byId.get(entry.record.id);
        if (previous) this.drop(history, previous);
        history.records.push(entry.record);
        history.byId.set(entry.record.id, entry.record);
        this.images.retain(entry.record.imagePath);
        this.telling?.push({ type: 'stored', record: entry.record, ...(previous ? { previous } : {}) });
        this.evictBeyond(history, this.cap.historyCapPerApp);
        break;
      }
      case 'trim':
        this.evictBeyond(history, entry.cap);
        break;
      case 'set': {
        const current = history.byId.get(entry.record.id);
        if (!current) return;
        history.records[history.records.lastIndexOf(current)] = entry.record;
        history.byId.set(entry.record.id, entry.record);
        this.images.retain(entry.record.imagePath);
        this.images.release(current.imagePath);
        this.telling?.push({ type: 'stored', record: entry.record, previous: current });
        break;
      }
      case 'restore': {
        if (history.byId.has(entry.record.id)) return; // a newer notification took its id: it stays
        history.records.splice(firstAfter(history.records, entry.record.deliveredAt), 0, entry.record);
        history.byId.set(entry.record.id, entry.record);
        this.images.retain(entry.record.imagePath);
        this.telling?.push({ type: 'stored', record: entry.record });
        this.evictBeyond(history, this.cap.historyCapPerApp);
        break;
      }
      case 'remove': {
        const current = history.byId.get(entry.id);
        if (!current) return;
        this.drop(history, current);
        this.telling?.push({ type: 'removed', record: current });
        break;
      }
      case 'clear':
        for (const record of history.records) this.images.release(record.imagePath);
        history.records.length = 0;
        history.byId.clear();
        this.telling?.push({ type: 'cleared', app: history.app });
        break;
    }
    history.changed();
    this.markDirty(history);
  }

  /** Evicts an app's oldest records beyond `cap` (their banners go too: onEvict). */
  private evictBeyond(history: AppHistory, cap: number): void {
    // `shift` moves the array's start in place; `splice(0, n)` moves every record that stays (docs/performance-history.md).
    while (history.records.length > cap) {
      const evicted = history.records.shift()!;
      history.byId.delete(evicted.id);
      this.images.release(evicted.imagePath);
      this.telling?.push({ type: 'removed', record: evicted });
      this.onEvict(evicted);
    }
  }

  private appHistory(app: string): AppHistory {
    let history = this.apps.get(app);
    if (!history) {
      const name = `${safeFileName(app)}.json`;
      // Creating it now would overwrite the file still loading: callers wait for `load(app)` first.
      if (this.fileNames.has(name) && !this.settled.has(name)) throw new Error(`History of ${app} is not loaded yet`);
      history = new AppHistory(app, this.store.create<HistoryFile>(`${FOLDER}/${name}`, { app, records: [] }, this.serialize));
      this.fileNames.add(name);
      this.settled.add(name);
      this.adopt(history);
    }
    return history;
  }

  private drop(history: AppHistory, record: HistoryRecord): void {
    history.records.splice(history.records.lastIndexOf(record), 1);
    history.byId.delete(record.id);
    this.images.release(record.imagePath);
  }

  private markDirty(history: AppHistory): void {
    this.dirty.add(history);
    this.checkpointTimer ??= setTimeout(() => void this.checkpoint(), CHECKPOINT_DELAY_MS);
  }

  /**
   * Rewrites the files of the apps that changed (each atomically: temporary file, fsync, rename) and then
   * deletes the journals whose changes they now hold. A new journal takes the changes made meanwhile.
   */
  private checkpoint(): Promise<void> {
    this.checkpointing = this.checkpointing.then(async () => {
      if (this.checkpointTimer) clearTimeout(this.checkpointTimer);
      this.checkpointTimer = null;
      if (this.dirty.size === 0) return;
      this.journal.rotate();
      const targets = [...this.dirty];
      this.dirty.clear();
      try {
        await Promise.all(targets.map((h) => (h.records.length > 0 ? this.store.save(h.document) : this.store.delete(h.document))));
        // A crashed run's journal still holds changes of apps not loaded yet: it stays until they are.
        if (this.leftovers.size === 0) await this.journal.deleteRetired();
      } catch (error) {
        log.error(`History checkpoint failed (the journal keeps every change): ${(error as Error).message}`);
        for (const history of targets) this.markDirty(history);
      }
    });
    return this.checkpointing;
  }

  private recordBytes(record: HistoryRecord): Buffer {
    let bytes = this.json.get(record);
    if (bytes === undefined) {
      bytes = Buffer.from(JSON.stringify(record));
      this.json.set(record, bytes);
    }
    return bytes;
  }

  private journalLine(entry: JournalEntry): Buffer {
    if (entry.op === 'put' || entry.op === 'set') {
      const head = `{"seq":${entry.seq},"op":"${entry.op}","app":${JSON.stringify(entry.app)},"record":`;
      return Buffer.concat([Buffer.from(head), this.recordBytes(entry.record), LINE_END]);
    }
    return Buffer.from(`${JSON.stringify(entry)}\n`);
  }

  /**
   * The file as a list of chunks written with one `writev`: each record's bytes are reused, so a checkpoint
   * costs a copy into the page cache, not a re-serialisation. `seq` says which journal changes it includes.
   */
  private readonly serialize = (data: HistoryFile): Buffer[] => {
    const chunks: Buffer[] = [Buffer.from(`{"app":${JSON.stringify(data.app)},"seq":${this.seq},"records":[`)];
    data.records.forEach((record, index) => {
      if (index > 0) chunks.push(COMMA);
      chunks.push(this.recordBytes(record));
    });
    chunks.push(CLOSE);
    return chunks;
  };
}

/** How much of a History file holds its head (`{"app":"<id>","seq":N,`): an app id is at most 128 bytes. */
const HEAD_BYTES = 2048;
const HEAD = /^\{"app":"(?:[^"\\]|\\.)*","seq":(\d+)/;

/** The index of the first record delivered after `time`, in records ordered by `deliveredAt` (a binary search). */
export function firstAfter(records: readonly HistoryRecord[], time: string): number {
  let low = 0;
  let high = records.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (records[middle]!.deliveredAt <= time) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The `seq` a History file was written with, read from its head; 0 when it has none (older or hand-made). */
async function readSeqOf(file: string): Promise<number> {
  const handle = await open(file, 'r').catch(() => null);
  if (!handle) return 0;
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(HEAD_BYTES), 0, HEAD_BYTES, 0);
    return Number(HEAD.exec(buffer.toString('utf8', 0, bytesRead))?.[1] ?? 0);
  } finally {
    await handle.close();
  }
}

const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']}');
const LINE_END = Buffer.from('}\n');

/** One app's records matching the query, newest first, lazily. */
function* matching(
  history: AppHistory,
  words: string[],
  appName: (app: string) => string,
  accept: (record: HistoryRecord) => boolean,
): Generator<HistoryRecord> {
  // Words found in the app id or name hold for every record of the app; the rest must be in each record.
  const appText = words.length > 0 ? foldForSearch(`${history.app}\n${appName(history.app)}`) : '';
  const remaining = words.filter((word) => !appText.includes(word));
  if (remaining.length > 0) {
    yield* history.searchIndex().matches(remaining, accept);
    return;
  }
  const { records } = history;
  for (let index = records.length - 1; index >= 0; index--) if (accept(records[index]!)) yield records[index]!;
}

interface Cursor {
  current: HistoryRecord | undefined;
  advance(): void;
}

function cursor(source: Generator<HistoryRecord>): Cursor {
  const result: Cursor = {
    current: undefined,
    advance() {
      const next = source.next();
      result.current = next.done ? undefined : next.value;
    },
  };
  result.advance();
  return result;
}

/** k-way merge of per-app newest-first cursors by `deliveredAt`, with a binary heap; stops after `limit`. */
function mergeNewestFirst(heap: Cursor[], limit: number): HistoryRecord[] {
  const newer = (a: Cursor, b: Cursor): boolean => a.current!.deliveredAt > b.current!.deliveredAt;
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
