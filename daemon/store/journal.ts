import { type FileHandle, mkdir, open, readFile, readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { log } from '../log.js';
import { PRIVATE_FILE_MODE, syncFolder } from './durable-file.js';

const PREFIX = 'journal-';
const SUFFIX = '.jsonl';

/**
 * An append-only journal of changes (JSON Lines), the write-ahead log in front of the per-app files. Appending
 * one batch of lines and fsyncing it costs the size of the change, whatever the size of the files it changes;
 * the files themselves are rewritten later, in checkpoints. Journals are numbered: a checkpoint starts a new one
 * and deletes the older ones once every change they hold is in the files.
 */
export class Journal {
  private handle: FileHandle | null = null;
  private currentNumber: number;
  /** Journals no longer appended to, kept until a checkpoint holds everything they hold. */
  private retired: Array<{ number: number; handle: FileHandle | null }>;

  private constructor(
    private readonly folder: string,
    private readonly leftovers: number[],
  ) {
    this.currentNumber = (leftovers.at(-1) ?? 0) + 1;
    this.retired = leftovers.map((number) => ({ number, handle: null }));
  }

  /** Finds the journals a previous run left (after a crash); new lines go to a fresh one. */
  static async open(folder: string): Promise<Journal> {
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const names = await readdir(folder);
    const numbers = names
      .filter((name) => name.startsWith(PREFIX) && name.endsWith(SUFFIX))
      .map((name) => Number(name.slice(PREFIX.length, -SUFFIX.length)))
      .filter((n) => Number.isInteger(n) && n > 0)
      .sort((a, b) => a - b);
    return new Journal(folder, numbers);
  }

  /**
   * Every line of the journals left behind, oldest first, parsed. A line cut short by a crash (the last one of a
   * file) was never acknowledged and is skipped; so is any other line that is not JSON, with a warning.
   */
  async readLeftovers(): Promise<unknown[]> {
    const entries: unknown[] = [];
    for (const number of this.leftovers) {
      const text = await readFile(this.fileOf(number), 'utf8');
      const lines = text.split('\n');
      lines.forEach((line, index) => {
        if (line === '') return;
        try {
          entries.push(JSON.parse(line));
        } catch {
          if (index !== lines.length - 1) log.warn(`${this.fileOf(number)} line ${index + 1} is not JSON; skipped`);
        }
      });
    }
    return entries;
  }

  /** Appends lines and makes them durable. Called by the store's group commit, one batch at a time. */
  async append(lines: Buffer[]): Promise<void> {
    let handle = this.handle;
    if (!handle) {
      // O_APPEND | O_SYNC: each write returns once it is on disk, one system call instead of write + fsync.
      handle = this.handle = await open(this.fileOf(this.currentNumber), 'as', PRIVATE_FILE_MODE);
      await syncFolder(this.folder); // the new journal's name must survive a power loss too
    }
    // `handle`, not `this.handle`: a rotation during this append leaves these lines in the older journal,
    // which is kept until the checkpoint that follows this batch is on disk.
    const batch = lines.length === 1 ? lines[0]! : Buffer.concat(lines);
    const { bytesWritten } = await handle.write(batch);
    if (bytesWritten !== batch.length) throw new Error(`journal: short write (${bytesWritten} of ${batch.length} bytes)`);
  }

  /** Starts a new journal for the lines that follow; the current one is retired. */
  rotate(): void {
    this.retired.push({ number: this.currentNumber, handle: this.handle });
    this.handle = null;
    this.currentNumber += 1;
  }

  /** Deletes the retired journals: call only once the files hold every change they hold. */
  async deleteRetired(): Promise<void> {
    const retired = this.retired;
    this.retired = [];
    for (const { handle } of retired) await handle?.close();
    await Promise.all(retired.map(({ number }) => unlink(this.fileOf(number)).catch(() => undefined)));
    await syncFolder(this.folder);
  }

  async close(): Promise<void> {
    await this.handle?.close();
    this.handle = null;
  }

  private fileOf(number: number): string {
    return path.join(this.folder, `${PREFIX}${String(number).padStart(6, '0')}${SUFFIX}`);
  }
}
