// The embedded backend: one SQLite file (better-sqlite3) in the data folder, for one relay process.
//
// Durability: WAL with synchronous=FULL, so a transaction is on disk when COMMIT returns, and a client is
// answered only after that. Locking: one process and one connection, so every transaction runs alone — a
// stronger guarantee than one per computer. Group commit: transactions that queue up while one commits are run
// together in the next one, each inside its own savepoint (a failing one rolls back alone), and share a single
// COMMIT and fsync. Under load this turns N fsyncs into one (docs/performance.md, "Relay").

import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type SqliteDatabase } from 'kysely';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { LocalBus, type Backend, type BusMessage, type DeviceTx, type RelayDb } from './backend.js';
import { migrate } from './migrate.js';
import type { RelayDatabase } from './schema.js';

export const SQLITE_FILE = 'relay.sqlite';

/** The most transactions one COMMIT carries: bounds how long a batch keeps the others waiting. */
const MAX_BATCH = 256;

interface Job {
  work: (tx: DeviceTx) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown; messages: BusMessage[] } | { ok: false; error: unknown };

export async function openSqlite(dataDir: string): Promise<Backend> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const database = new Database(path.join(dataDir, SQLITE_FILE));
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  const db = new Kysely<RelayDatabase>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
  await migrate(db, 'sqlite');
  return new SqliteBackend(db);
}

/** Most distinct statements kept prepared; the relay's are a few dozen, so this only bounds odd ones. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every statement anew; better-sqlite3 statements can be reused, and the relay's queries repeat,
 * so prepared statements are kept by their SQL text (one connection: a statement is never used twice at once).
 */
function withStatementCache(database: Database.Database): SqliteDatabase {
  const statements = new Map<string, Database.Statement>();
  return {
    close: () => database.close(),
    prepare: (text: string) => {
      let statement = statements.get(text);
      if (!statement) {
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.clear();
        statement = database.prepare(text);
        statements.set(text, statement);
      }
      return statement;
    },
  };
}

class SqliteBackend implements Backend {
  readonly dialect = 'sqlite' as const;
  readonly bus = new LocalBus();
  private readonly queue: Job[] = [];
  private draining = false;

  constructor(readonly db: RelayDb) {}

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
    await this.enqueue(async (tx) => {
      await tx.db
        .insertInto('tasks')
        .values({ name, due_at: nextDueAt })
        .onConflict((oc) => oc.column('name').doUpdateSet({ due_at: nextDueAt }))
        .execute();
    });
    return true;
  }

  async nextTaskDue(): Promise<number | undefined> {
    const row = await this.db.selectFrom('tasks').select((eb) => eb.fn.min<number>('due_at').as('due')).executeTakeFirst();
    return row?.due ?? undefined;
  }

  async close(): Promise<void> {
    while (this.draining || this.queue.length > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await this.db.destroy();
  }

  private enqueue<T>(work: (tx: DeviceTx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) {
        this.draining = true;
        void this.drain();
      }
    });
  }

  /**
   * Runs batches until nothing is left. Before each batch it lets the event loop take in what arrived: a COMMIT
   * blocks the loop while it waits for the disk, so requests pile up unread meanwhile, and one turn of the loop
   * turns them into jobs of the next batch rather than a batch each.
   */
  private async drain(): Promise<void> {
    try {
      for (;;) {
        await nextLoopTurn();
        if (this.queue.length === 0) break;
        await this.runBatch(this.queue.splice(0, MAX_BATCH));
      }
    } finally {
      this.draining = false;
    }
  }

  /** One transaction for the whole batch, one savepoint per job, one COMMIT; then answers and messages. */
  private async runBatch(batch: Job[]): Promise<void> {
    if (process.env.RELAY_DEBUG_BATCH) process.stderr.write(`batch ${batch.length}\n`);
    const outcomes: Outcome[] = [];
    try {
      await this.db.connection().execute(async (conn) => {
        await sql`begin immediate`.execute(conn);
        try {
          const t0 = performance.now();
          for (const job of batch) outcomes.push(await runInSavepoint(conn, job));
          const t1 = performance.now();
          await sql`commit`.execute(conn);
          if (process.env.RELAY_DEBUG_BATCH) process.stderr.write(`timing ${(t1 - t0).toFixed(2)} ${(performance.now() - t1).toFixed(2)}\n`);
        } catch (error) {
          await sql`rollback`.execute(conn).catch(() => undefined);
          throw error;
        }
      });
    } catch (error) {
      for (const job of batch) job.reject(error); // the COMMIT failed: nothing of this batch is stored
      return;
    }
    for (const outcome of outcomes) if (outcome.ok) for (const message of outcome.messages) this.bus.deliver(message);
    batch.forEach((job, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.error);
    });
  }
}

/** After the next poll phase of the event loop (two check phases away), when newly read requests have run. */
const nextLoopTurn = (): Promise<void> => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));

async function runInSavepoint(conn: RelayDb, job: Job): Promise<Outcome> {
  const messages: BusMessage[] = [];
  await sql`savepoint job`.execute(conn);
  try {
    const value = await job.work({ db: conn, publish: (message) => messages.push(message) });
    await sql`release job`.execute(conn);
    return { ok: true, value, messages };
  } catch (error) {
    await sql`rollback to job`.execute(conn);
    await sql`release job`.execute(conn);
    return { ok: false, error };
  }
}
