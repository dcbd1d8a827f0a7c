import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { Low } from 'lowdb';
import { errors } from '../../protocol/errors.js';
import { DurableJSONFile, type FileContent, syncFolder } from './durable-file.js';
import type { Journal } from './journal.js';

/** What the group commit writes: a file it can write whole or remove. */
interface StoredFile {
  readonly filePath: string;
  write(): Promise<void>;
  remove(): Promise<void>;
}

/** One JSON file of the support folder, held in memory by lowdb and written through the store's group commit. */
export class Document<T> implements StoredFile {
  readonly db: Low<T>;
  readonly adapter: DurableJSONFile<T>;

  constructor(
    readonly relativePath: string,
    absolutePath: string,
    defaultData: T,
    serialize?: (data: T) => FileContent,
  ) {
    this.adapter = new DurableJSONFile<T>(absolutePath, serialize);
    this.db = new Low<T>(this.adapter, defaultData);
  }

  get data(): T {
    return this.db.data;
  }

  set data(value: T) {
    this.db.data = value;
  }

  get filePath(): string {
    return this.adapter.filePath;
  }

  write(): Promise<void> {
    return this.db.write();
  }

  remove(): Promise<void> {
    return this.adapter.remove();
  }
}

type Operation = 'write' | 'delete';

interface Waiter {
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

function newWaiter(): Waiter {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  // A batch may fail while nobody awaits it yet; the callers that do await it still see the rejection.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/**
 * The support folder's files, written with group commit: every change made during one tick of the event loop
 * (and every change made while the previous batch was being written) goes into one batch; each touched file is
 * written once, atomically and fsynced; the folders that changed are fsynced so the renames survive a power
 * loss; and only then are the callers of `save` answered. A route therefore replies only after its change is
 * on disk, and 16 concurrent notifications cost one write, not 16.
 */
export class Store {
  private pending = new Map<StoredFile, Operation>();
  private pendingLines: Buffer[] = [];
  private journal: Journal | null = null;
  private waiter: Waiter | null = null;
  private scheduled = false;
  private writing: Promise<void> | null = null;

  constructor(readonly root: string) {}

  /** Opens (reads) one document; a missing file gives `defaultData`. */
  async open<T>(relativePath: string, defaultData: T, serialize?: (data: T) => FileContent): Promise<Document<T>> {
    const document = new Document<T>(relativePath, this.resolve(relativePath), defaultData, serialize);
    await document.db.read();
    return document;
  }

  /** A document for a file that does not exist yet; nothing is written until `save`. */
  create<T>(relativePath: string, data: T, serialize?: (data: T) => FileContent): Document<T> {
    return new Document<T>(relativePath, this.resolve(relativePath), data, serialize);
  }

  /** Absolute path of a file inside the support folder. Callers pass names made by `safeFileName`. */
  resolve(relativePath: string): string {
    const absolute = path.resolve(this.root, relativePath);
    if (!absolute.startsWith(this.root + path.sep)) {
      throw new Error(`refusing a path outside the support folder: ${relativePath}`);
    }
    return absolute;
  }

  /** Size in bytes of a file of the support folder. */
  async size(relativePath: string): Promise<number> {
    return (await stat(this.resolve(relativePath))).size;
  }

  /** Names of the `.json` files in one folder of the support folder (none when it does not exist). */
  async listJSON(relativeFolder: string): Promise<string[]> {
    const entries = await this.entries(relativeFolder);
    return entries
      .filter((entry) => entry.isFile() && entry.name.endsWith('.json') && !entry.name.startsWith('.'))
      .map((entry) => entry.name);
  }

  /** Names of the sub-folders of one folder of the support folder (none when it does not exist). */
  async listFolders(relativeFolder: string): Promise<string[]> {
    const entries = await this.entries(relativeFolder);
    return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  }

  private async entries(relativeFolder: string): Promise<Dirent[]> {
    try {
      return await readdir(this.resolve(relativeFolder), { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  /** Journal lines go to this journal (see daemon/store/journal.ts). */
  useJournal(journal: Journal): void {
    this.journal = journal;
  }

  /** Resolves once the line is durable in the journal. */
  appendToJournal(line: Buffer): Promise<void> {
    this.pendingLines.push(line);
    return this.schedule();
  }

  /** Resolves once `document`'s current data is on disk. */
  save(document: StoredFile): Promise<void> {
    return this.enqueue(document, 'write');
  }

  /** Resolves once `document`'s file is gone from disk. */
  delete(document: StoredFile): Promise<void> {
    return this.enqueue(document, 'delete');
  }

  /** Resolves when everything handed to the store so far is on disk (used on shutdown). */
  async settle(): Promise<void> {
    while (this.scheduled || this.writing) {
      await (this.writing ?? new Promise((resolve) => setImmediate(resolve)));
    }
  }

  private enqueue(document: StoredFile, operation: Operation): Promise<void> {
    this.pending.set(document, operation);
    return this.schedule();
  }

  private schedule(): Promise<void> {
    this.waiter ??= newWaiter();
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.startWriting());
    }
    return this.waiter.promise;
  }

  private startWriting(): void {
    this.scheduled = false;
    if (this.writing) return; // the running loop picks the new batch up when the current one is on disk
    this.writing = this.writeBatches().finally(() => {
      this.writing = null;
    });
  }

  private async writeBatches(): Promise<void> {
    while (this.pending.size > 0 || this.pendingLines.length > 0) {
      const batch = this.pending;
      const lines = this.pendingLines;
      const waiter = this.waiter!;
      this.pending = new Map();
      this.pendingLines = [];
      this.waiter = null;
      try {
        await this.writeBatch(batch, lines);
        waiter.resolve();
      } catch (error) {
        waiter.reject(errors.saveFailed((error as Error).message));
      }
    }
  }

  private async writeBatch(batch: Map<StoredFile, Operation>, lines: Buffer[]): Promise<void> {
    const folders = new Set<string>();
    const journaled = lines.length > 0 ? this.journal!.append(lines) : Promise.resolve();
    await Promise.all([
      journaled,
      ...[...batch].map(async ([document, operation]) => {
        folders.add(path.dirname(document.filePath));
        if (operation === 'write') await document.write();
        else await document.remove();
      }),
    ]);
    await Promise.all([...folders].map(syncFolder));
  }
}
