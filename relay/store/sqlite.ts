// The embedded backend: one SQLite file (better-sqlite3) in the data folder, for one relay process.
//
// Locking: one process and one connection, so every transaction runs alone — a stronger guarantee than one per
// computer. Group commit: transactions that queue up while one runs are run together in the next one, each
// inside its own savepoint (a failing one rolls back alone), and share a single COMMIT.
//
// Durability: WAL, and nothing a transaction did is answered or announced before it is on disk. SQLite's
// synchronous=FULL would give that by an fsync inside every COMMIT — on the event loop's thread, which then
// sits idle while the disk works. Instead the COMMIT writes the WAL (synchronous=NORMAL) and the relay itself
// calls fdatasync on the WAL file, off the event loop (libuv's thread pool), before it answers or sends
// anything of that batch; meanwhile the next batch runs. One fdatasync covers every batch committed before it
// started, and SQLite's recovery replays every complete transaction in a synced WAL, so an acknowledged
// write survives a power cut just as with synchronous=FULL (docs/relay.md, "Storage"; docs/performance.md,
// "bench:relay-throughput").
//
// Checkpoints (copying the WAL back into the database file) run on a thread of their own: checkpointer.ts.

import type Database from 'better-sqlite3';
import { Kysely, SqliteDialect, type SqliteDatabase } from 'kysely';
import { chmodSync, closeSync, fdatasync, mkdirSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { log } from '../log.js';
import { Checkpointer } from './checkpointer.js';
import {
  LocalBus,
  committedMessages,
  newJob,
  runJob,
  settleJobs,
  type Backend,
  type DeviceTx,
  type Job,
  type Outcome,
  type RelayDb,
} from './backend.js';
import { migrate } from './migrate.js';
import { runPreparedDirectly, type DirectRun } from './prepared.js';
import type { RelayDatabase } from './schema.js';
import { setTaskDue } from './tasks.js';

export const SQLITE_FILE = 'relay.sqlite';

/**
 * The most transactions one COMMIT carries. Small enough that a batch runs while the one before waits for its
 * fdatasync (so the loop and the disk work at once), large enough to share a COMMIT among a burst. In
 * bench:relay-throughput 8, 16 and 32 did alike, 4 and 256 worse.
 */
const MAX_BATCH = 16;

/** SQLite's own checkpoint interval (pages of WAL), in force again if the checkpoint thread fails. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;

/** The database and the files SQLite keeps beside it. */
const SQLITE_FILES = (file: string): string[] => [file, `${file}-wal`, `${file}-shm`];

/**
 * The database's files are the relay's alone: 0600, whatever the umask and the folder's mode (docs/relay.md,
 * "Storage"). SQLite makes the WAL and the shared-memory file with the main file's mode, so the main file is made
 * 0600 before SQLite opens it; files an earlier relay left readable are made 0600 again.
 */
function ownerOnly(file: string): void {
  closeSync(openSync(file, 'a', 0o600)); // an empty file is an empty database to SQLite
  for (const name of SQLITE_FILES(file)) {
    try {
      chmodSync(name, 0o600); // the umask may have taken bits from the mode asked for at creation
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

export async function openSqlite(dataDir: string): Promise<Backend> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, SQLITE_FILE);
  ownerOnly(file);
  const { database, statements } = sqliteKeptForLife(file);
  // exec, not pragma(): pragma() prepares a statement and drops it, and a dropped statement is what crashes on Node 24.
  database.exec('PRAGMA journal_mode = WAL');
  database.exec('PRAGMA synchronous = NORMAL'); // the relay syncs the WAL itself before answering: WalSync below
  const db = new Kysely<RelayDatabase>({ dialect: new SqliteDialect({ database: statements }) });
  const wal = new WalSync(`${file}-wal`);
  try {
    await migrate(db, 'sqlite');
    await wal.sync();
  } catch (error) {
    wal.close();
    await db.destroy();
    throw error;
  }
  database.exec('PRAGMA wal_autocheckpoint = 0'); // never inside a COMMIT on the event loop: the Checkpointer does them
  const checkpointer = new Checkpointer(file, () => database.exec(`PRAGMA wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`));
  return new SqliteBackend(db, wal, checkpointer, statements.run);
}

/**
 * fdatasync of the WAL file on libuv's thread pool. Each request starts one at once (several may run together),
 * and whichever finishes vouches for every request made before it began: fdatasync makes durable all that was
 * written to the file before the call.
 */
class WalSync {
  private fd: number | undefined;
  private requested = 0;
  private readonly waiting: Array<{ seq: number; resolve: () => void; reject: (error: Error) => void }> = [];

  constructor(private readonly file: string) {}

  /** Resolves once everything committed before the call is on disk. */
  sync(): Promise<void> {
    return new Promise((resolve, reject) => {
      const seq = ++this.requested;
      this.waiting.push({ seq, resolve, reject });
      let fd: number;
      try {
        fd = this.fd ??= openSync(this.file, 'r'); // SQLite made it with the first write; it keeps it while open
      } catch (error) {
        return this.settle(seq, error as Error);
      }
      fdatasync(fd, (error) => this.settle(seq, error ?? undefined));
    });
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  /** The fdatasync begun for request `seq` ended: every request up to it is settled, in order. */
  private settle(seq: number, error: Error | undefined): void {
    while (this.waiting.length > 0 && this.waiting[0]!.seq <= seq) {
      const waiter = this.waiting.shift()!;
      if (error) waiter.reject(error);
      else waiter.resolve();
    }
  }
}

/**
 * better-sqlite3's objects (databases and statements) are never left for the garbage collector. Node 24.19 and
 * later give every addon object built on `node::ObjectWrap` an environment clean-up hook that its destructor
 * removes, and that removal aborts the process ("Assertion failed: (env) != nullptr") when the collector destroys
 * the object outside a JavaScript context — an idle collection, say. better-sqlite3 12 (the last major that runs
 * on Node 20) is built that way. An object that stays reachable is never destroyed that way, so each one is kept
 * here for the life of the process; they are few: one database per backend and one statement per distinct SQL
 * text (docs/relay.md, "Storage").
 */
const keptForLife = new Set<object>();

function keepForLife<T extends object>(object: T): T {
  keptForLife.add(object);
  return object;
}

/**
 * A SQLite database whose better-sqlite3 objects are all kept for the life of the process (keptForLife): the
 * database itself, and, for Kysely's dialect, its statements, one per SQL text. Anything that opens the relay's
 * database file — the relay, and tests that look into it — opens it this way, never with a bare `new Database`.
 */
export function sqliteKeptForLife(file: string): { database: Database.Database; statements: StatementCache } {
  const database = keepForLife(new (sqliteDriver())(file));
  return { database, statements: new StatementCache(database) };
}

/**
 * better-sqlite3, loaded when the embedded database is first opened: it is an optional dependency (a native part,
 * common/native-parts.ts), and a relay on PostgreSQL runs without it.
 */
function sqliteDriver(): typeof Database {
  return createRequire(import.meta.url)('better-sqlite3') as typeof Database;
}

/**
 * Kysely prepares every statement anew; better-sqlite3 statements can be reused, and the relay's queries repeat,
 * so prepared statements are kept by their SQL text (one connection: a statement is never used twice at once).
 * The relay's SQL texts are a fixed set written in its code, so the cache needs no bound (and may have none: a
 * statement let go would be collected — see keptForLife). Kysely's dialect uses it, and so do prepared queries
 * inside a batch (`run`, the same as the dialect's connection does, without Kysely's executor).
 */
class StatementCache implements SqliteDatabase {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly database: Database.Database) {}

  close(): void {
    this.database.close();
  }

  prepare(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = keepForLife(this.database.prepare(text));
      this.statements.set(text, statement);
    }
    return statement;
  }

  readonly run: DirectRun = (text, parameters) => {
    const statement = this.prepare(text);
    if (statement.reader) return { rows: statement.all(parameters) };
    return { rows: [], numAffectedRows: BigInt(statement.run(parameters).changes) };
  };
}

class SqliteBackend implements Backend {
  readonly dialect = 'sqlite' as const;
  readonly bus = new LocalBus();
  private readonly queue: Job[] = [];
  private draining = false;

  /** Batches committed and waiting for their fdatasync. */
  private syncing = 0;

  constructor(
    readonly db: RelayDb,
    private readonly wal: WalSync,
    private readonly checkpointer: Checkpointer,
    private readonly runDirectly: DirectRun,
  ) {}

  /** One queue for everything (one writer); a job's group is not used: here a statement costs no round trip. */
  withDeviceLock<T>(_deviceId: string, work: (tx: DeviceTx) => Promise<T>): Promise<T> {
    return this.enqueue(work);
  }

  withRelayLock<T>(work: (tx: DeviceTx) => Promise<T>): Promise<T> {
    return this.enqueue(work);
  }

  async claimTask(name: string, now: number, nextDueAt: number, work: () => Promise<void>): Promise<boolean> {
    // One process: nobody else can hold the task, so a due row (or none yet) is enough.
    const row = await this.db.selectFrom('tasks').select('due_at').where('name', '=', name).executeTakeFirst();
    if (row && row.due_at > now) return false;
    await work();
    await this.enqueue((tx) => setTaskDue(tx.db, name, nextDueAt));
    return true;
  }

  async close(): Promise<void> {
    while (this.draining || this.queue.length > 0 || this.syncing > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await this.checkpointer.close();
    await this.db.destroy();
    this.wal.close();
  }

  private enqueue<T>(work: (tx: DeviceTx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push(newJob(work, resolve, reject));
      if (!this.draining) {
        this.draining = true;
        void this.drain();
      }
    });
  }

  /**
   * Runs batches until nothing is left. Before each batch it lets the event loop take in what arrived: a batch
   * runs without giving the loop a turn, so requests pile up unread meanwhile, and one turn of the loop turns
   * them into jobs of the next batch rather than a batch each. When the WAL is to start over, the batch also
   * waits for that checkpoint.
   */
  private async drain(): Promise<void> {
    try {
      for (;;) {
        await nextLoopTurn();
        if (this.queue.length === 0) break;
        await this.checkpointer.beforeBatch();
        await this.runBatch(this.queue.splice(0, MAX_BATCH));
      }
    } finally {
      this.draining = false;
    }
  }

  /**
   * One transaction for the whole batch, one savepoint per job, one COMMIT; then, once the WAL is on disk (the
   * next batch runs meanwhile), the messages and the answers.
   */
  private async runBatch(batch: Job[]): Promise<void> {
    const outcomes: Outcome[] = [];
    try {
      await this.db.connection().execute(async (conn) => {
        // The batch holds the one connection until it ends: its own statements, and the jobs' prepared queries,
        // run on it directly.
        const run = this.runDirectly;
        runPreparedDirectly(conn, run);
        run('begin immediate', []);
        try {
          for (const job of batch) outcomes.push(await runInSavepoint(conn, run, job));
          run('commit', []);
        } catch (error) {
          try {
            run('rollback', []);
          } catch {
            // the transaction is gone already (SQLite rolled it back itself); the error that ended it is the news
          }
          throw error;
        }
      });
    } catch (error) {
      for (const job of batch) job.reject(error); // the COMMIT failed: nothing of this batch is stored
      return;
    }
    this.checkpointer.committed();
    this.syncing += 1;
    this.wal.sync().then(
      () => {
        this.syncing -= 1;
        for (const message of committedMessages(outcomes)) this.bus.deliver(message);
        settleJobs(batch, outcomes);
      },
      (error: Error) => {
        this.syncing -= 1;
        log.error(`the database could not be synced to disk: ${error.message}`);
        for (const job of batch) job.reject(error); // not known to be durable: nothing of it is acknowledged
      },
    );
  }
}

/** After the next poll phase of the event loop (two check phases away), when newly read requests have run. */
const nextLoopTurn = (): Promise<void> => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));

async function runInSavepoint(conn: RelayDb, run: DirectRun, job: Job): Promise<Outcome> {
  run('savepoint job', []);
  const outcome = await runJob(conn, job);
  if (!outcome.ok) run('rollback to job', []);
  run('release job', []);
  return outcome;
}
