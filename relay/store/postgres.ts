// The PostgreSQL backend (DATABASE_URL=postgres://...): all state in one database that any number of relay
// processes share behind a load balancer (docs/relay.md, "Several nodes").
//
//   - withDeviceLock: a transaction that starts with pg_advisory_xact_lock(<64-bit key of the device id>), so
//     the check-then-write steps of one computer (rate limit, queue full, dedupe) never interleave, on any
//     node; the lock ends with the transaction.
//   - bus: NOTIFY inside that transaction (PostgreSQL delivers it only on commit, and not at all on rollback),
//     LISTEN on one dedicated connection per process. Messages are ids; receivers re-read rows. A process hands
//     its own messages to itself right after the commit, and ignores their echo.
//   - claimTask: SELECT ... FOR UPDATE SKIP LOCKED on the task's row, held while the task runs: one node runs
//     it, the others skip it; a node that dies mid-task releases it with its connection.

import { Kysely, PostgresDialect, sql, type RawBuilder } from 'kysely';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { log } from '../log.js';
import { listenReconnects } from '../metrics.js';
import { LocalBus, type Backend, type BusMessage, type DeviceTx, type RelayDb } from './backend.js';
import { migrate } from './migrate.js';
import type { RelayDatabase } from './schema.js';

const CHANNEL = 'notifier_relay';
/** Connections per relay process, besides the listening one. Long-polls hold none while they wait. */
const POOL_SIZE = 20;
/** How long to wait before listening again after the connection was lost (doubling up to the maximum). */
const RELISTEN_MS = { first: 500, max: 30_000 };
/** PostgreSQL's oid of int8 (bigint): times and counts; they fit a JavaScript number, so parse them as one. */
const INT8_OID = 20;

const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

export async function openPostgres(url: string): Promise<Backend> {
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE, types });
  // An idle connection that breaks (the server restarted) is dropped by the pool; it must not end the process.
  pool.on('error', (error) => log.warn(`a PostgreSQL connection failed: ${error.message}`));
  // A connection checked out by a request, between two of its queries, emits 'error' on its client, where the
  // pool listens only while it is idle: listen for good, or a restart of the server ends the process. The request
  // fails on its next query (answered 503, relay/http/errors.ts) and the pool drops the broken client.
  pool.on('connect', (client) => client.on('error', (error) => log.warn(`a PostgreSQL connection in use failed: ${error.message}`)));
  const db = new Kysely<RelayDatabase>({ dialect: new PostgresDialect({ pool }) });
  try {
    await migrate(db, 'postgres');
    const backend = new PostgresBackend(db, url, pool);
    await backend.listen();
    return backend;
  } catch (error) {
    await db.destroy();
    throw error;
  }
}

/** The advisory-lock key of a computer: its id is hex, so its first 15 digits are a positive 60-bit number. */
export function deviceLockKey(deviceId: string): string {
  return BigInt(`0x${deviceId.slice(0, 15)}`).toString();
}

class PostgresBackend implements Backend {
  readonly dialect = 'postgres' as const;
  readonly bus = new LocalBus();
  private listener: pg.Client | undefined;
  private closing = false;
  private relistenDelay = RELISTEN_MS.first;
  /** Marks this process's messages, so it can tell their echo from another process's. */
  private readonly nodeId = randomBytes(8).toString('hex');

  constructor(
    readonly db: RelayDb,
    private readonly url: string,
    private readonly pool: pg.Pool,
  ) {}

  poolUse(): { total: number; idle: number; waiting: number } {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount };
  }

  withDeviceLock<T>(deviceId: string, work: (tx: DeviceTx) => Promise<T>): Promise<T> {
    return this.locked(sql`select pg_advisory_xact_lock(${deviceLockKey(deviceId)}::bigint)`, work);
  }

  withRelayLock<T>(work: (tx: DeviceTx) => Promise<T>): Promise<T> {
    // The two-number form of the lock has its own key space: it can never meet a device's one-number key.
    return this.locked(sql`select pg_advisory_xact_lock(0, 1)`, work);
  }

  async claimTask(name: string, now: number, nextDueAt: number, work: () => Promise<void>): Promise<boolean> {
    await this.db
      .insertInto('tasks')
      .values({ name, due_at: now })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    return this.db.transaction().execute(async (trx) => {
      const due = await trx
        .selectFrom('tasks')
        .select('name')
        .where('name', '=', name)
        .where('due_at', '<=', now)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      if (!due) return false;
      await work();
      await trx.updateTable('tasks').set({ due_at: nextDueAt }).where('name', '=', name).execute();
      return true;
    });
  }

  async nextTaskDue(): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('tasks')
      .select((eb) => eb.fn.min<number>('due_at').as('due'))
      .executeTakeFirst();
    return row?.due ?? undefined;
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.listener?.end().catch(() => undefined);
    await this.db.destroy();
  }

  /** Opens the listening connection; when it is lost, opens it again and asks everyone to catch up. */
  async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (notification) => {
      if (notification.channel !== CHANNEL || !notification.payload) return;
      let message: BusMessage & { from?: string };
      try {
        message = JSON.parse(notification.payload) as BusMessage & { from?: string };
      } catch {
        return log.warn(`ignored a malformed bus message: ${notification.payload.slice(0, 200)}`);
      }
      if (message.from === this.nodeId) return; // delivered here already, right after the commit
      delete message.from;
      this.bus.deliver(message);
    });
    let lost = false;
    const onLost = (error?: Error): void => {
      if (lost || this.closing) return;
      lost = true;
      log.warn(`the PostgreSQL listening connection was lost${error ? ` (${error.message})` : ''}; listening again`);
      client.end().catch(() => undefined);
      setTimeout(() => void this.relisten(), this.relistenDelay);
      this.relistenDelay = Math.min(this.relistenDelay * 2, RELISTEN_MS.max);
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    this.listener = client;
  }

  private async relisten(): Promise<void> {
    if (this.closing) return;
    try {
      await this.listen();
      listenReconnects.inc();
      this.relistenDelay = RELISTEN_MS.first;
      this.bus.resync(); // messages sent while nobody listened are lost: catch up from the database
    } catch (error) {
      log.warn(`listening again failed (${(error as Error).message}); trying later`);
      setTimeout(() => void this.relisten(), this.relistenDelay);
      this.relistenDelay = Math.min(this.relistenDelay * 2, RELISTEN_MS.max);
    }
  }

  private async locked<T>(lock: RawBuilder<unknown>, work: (tx: DeviceTx) => Promise<T>): Promise<T> {
    const messages: BusMessage[] = [];
    const value = await this.db.transaction().execute(async (trx) => {
      await lock.execute(trx);
      const result = await work({ db: trx, publish: (message) => messages.push(message) });
      if (messages.length > 0) {
        const payloads = messages.map((message) => JSON.stringify({ ...message, frame: undefined, from: this.nodeId }));
        await sql`select pg_notify(${CHANNEL}, payload) from unnest(${payloads}::text[]) as payload`.execute(trx);
      }
      return result;
    });
    for (const message of messages) this.bus.deliver(message); // committed: this process hears it now
    return value;
  }
}
