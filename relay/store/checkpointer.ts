// Checkpoints of the embedded database, on a thread of their own (docs/relay.md, "Storage").
//
// A checkpoint copies the WAL back into the database file and syncs both. SQLite runs one by itself inside the
// COMMIT that takes the WAL past 1,000 pages — on the event loop, which then waits 15-25 ms for the two syncs,
// several times a second under load: a tenth of the relay's time in bench:relay-throughput. So the relay's own
// connection never checkpoints (wal_autocheckpoint = 0), and a second connection on a worker thread does, every
// COMMITS_PER_CHECKPOINT commits. It runs `PRAGMA wal_checkpoint(PASSIVE)`, which copies what was committed
// without taking the write lock, so the relay's transactions go on meanwhile; and it syncs the WAL before it
// copies and the database file after, as SQLite's own checkpoints do, so nothing acknowledged is ever only in
// pages that are not yet on disk.
//
// SQLite starts the WAL over (writes it again from its beginning) only when a transaction begins while every
// page of it has been copied. Under steady load some transaction always commits while a checkpoint runs, and the
// WAL would grow for as long as the load lasts. So once it holds RESTART_PAGES, the next checkpoint runs while
// the relay holds back its next batch (requests arriving meanwhile wait and join it): it copies only what came
// since the checkpoint before, and the transaction after it starts the WAL over.

import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { log } from '../log.js';

/** About 1,000 pages of WAL under load (SQLite's own interval), fewer when batches are small. */
const COMMITS_PER_CHECKPOINT = 64;

/** The WAL size (pages of 4 KiB) past which it is made to start over: about 32 MiB. */
const RESTART_PAGES = 8192;

/** What `PRAGMA wal_checkpoint` answers: pages in the WAL, and how many of them are copied. */
interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

/**
 * The worker: its own connection to the file, one checkpoint per message. Plain CommonJS run with `eval`, so the
 * same code runs from dist/ and under the tests' compiler. Like every better-sqlite3 object (sqlite.ts,
 * keepForLife), its database and statement stay reachable until the worker ends.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const database = new Database(workerData.file, { fileMustExist: true });
const checkpoint = database.prepare('PRAGMA wal_checkpoint(PASSIVE)');
parentPort.on('message', (message) => {
  if (message === 'close') {
    database.close();
    parentPort.close();
    return;
  }
  try {
    parentPort.postMessage({ result: checkpoint.get() });
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message) });
  }
});
`;

export class Checkpointer {
  private readonly worker: Worker;
  private commits = 0;
  /** The checkpoint running now. */
  private running: Promise<CheckpointResult | undefined> | undefined;
  private pending: ((result: CheckpointResult | undefined) => void) | undefined;
  /** The WAL passed RESTART_PAGES: the next checkpoint runs between batches. */
  private restartDue = false;
  private failed = false;

  /**
   * Starts the worker on the database `file` (already in WAL mode). `onFailure` is called once if the worker
   * cannot go on; the caller then lets SQLite checkpoint by itself again.
   */
  constructor(file: string, onFailure: () => void) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file } });
    this.worker.unref(); // the relay's shutdown closes it; it never keeps a process alive by itself
    this.worker.on('message', (message: { result?: CheckpointResult; error?: string }) => {
      if (message.error !== undefined) log.error(`a checkpoint of the database failed: ${message.error}`);
      this.settle(message.result);
    });
    this.worker.on('error', (error) => {
      if (this.failed) return;
      this.failed = true;
      log.error(`the checkpoint thread failed (${error.message}): SQLite checkpoints by itself from now on`);
      this.restartDue = false;
      this.settle(undefined);
      onFailure();
    });
  }

  /** A batch committed: every COMMITS_PER_CHECKPOINT of them, a checkpoint starts (unless one runs). */
  committed(): void {
    this.commits += 1;
    if (this.commits < COMMITS_PER_CHECKPOINT || this.running || this.restartDue) return;
    void this.checkpoint().then((result) => {
      // It copied the WAL as it was when it began: if a commit came meanwhile, the WAL cannot start over.
      const restartBlocked = this.commits > 0 || (result !== undefined && result.checkpointed < result.log);
      if (result && result.log >= RESTART_PAGES && restartBlocked) this.restartDue = true;
    });
  }

  /**
   * Called before each batch: undefined when it may run now, else a promise of the moment it may (the WAL is to
   * start over, and the checkpoint of what is left runs first, while no transaction runs).
   */
  beforeBatch(): Promise<void> | undefined {
    if (!this.restartDue) return undefined;
    return (async () => {
      await this.running;
      const result = await this.checkpoint();
      if (result && result.checkpointed < result.log) log.error(`the database's WAL could not start over (${result.log} pages)`);
      this.restartDue = false; // whatever came of it: a batch is never held twice in a row for this
    })();
  }

  async close(): Promise<void> {
    await this.running;
    if (this.failed) return;
    const exited = new Promise((resolve) => this.worker.once('exit', resolve));
    this.worker.postMessage('close');
    await exited;
  }

  private checkpoint(): Promise<CheckpointResult | undefined> {
    if (this.failed) return Promise.resolve(undefined);
    this.commits = 0;
    const running = new Promise<CheckpointResult | undefined>((resolve) => (this.pending = resolve));
    this.running = running;
    this.worker.postMessage('checkpoint');
    return running;
  }

  private settle(result: CheckpointResult | undefined): void {
    const resolve = this.pending;
    this.pending = undefined;
    this.running = undefined;
    resolve?.(result);
  }
}
