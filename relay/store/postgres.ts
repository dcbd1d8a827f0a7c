// The PostgreSQL backend (DATABASE_URL=postgres://...): all state in one database that any number of relay
// processes share behind a load balancer (docs/relay.md, "Several nodes").
//
//   - withDeviceLock: a transaction that starts with pg_advisory_xact_lock(<64-bit key of the device id>), so
//     the check-then-write steps of one computer (rate limit, queue full, dedupe) never interleave, on any
//     node; the lock ends with the transaction. Group commit, per computer: calls for a computer that arrive
//     while its transaction runs wait in its queue and run together in the next one, each after the first in a
//     savepoint of its own (a failing one rolls back alone and its caller gets its error), under one lock and
//     one COMMIT — a burst pays for the lock, the round trips of BEGIN and COMMIT and the commit's WAL flush once.
//     Jobs of one group (backend.ts, JobGroup: the notifications of a burst) are taken out of the queue together
//     and run as one call of the group, in one savepoint, which makes a burst's notifications a few statements.
//   - computers share transactions: at most MAX_TRANSACTIONS run at once; computers ready meanwhile go into the
//     next one together, their locks taken in one statement in the order of their keys (locksOf). A group there
//     takes the jobs of the same group that the other computers have next (inTurn): several computers'
//     notifications are done together too.
//   - round trips: the batch's own statements need no round trip of their own: BEGIN and the lock ride with the
//     first job's first statement, releasing a savepoint and opening the next with each later job's first
//     (batch-pipeline.ts), the bus messages with COMMIT — and COMMIT with the last write of a group when nothing
//     waits after it (EndWithLastWrite); and the relay's prepared
//     queries (prepared.ts) are named statements on each connection, parsed and planned once.
//   - bus: NOTIFY inside that transaction (PostgreSQL delivers it only on commit, and not at all on rollback),
//     LISTEN on one dedicated connection per process. Messages are ids; receivers re-read rows. A process hands
//     its own messages to itself right after the commit, and ignores their echo.
//   - claimTask: SELECT ... FOR UPDATE SKIP LOCKED on the task's row, held while the task runs: one node runs
//     it, the others skip it; a node that dies mid-task releases it with its connection.

import { Kysely, PostgresDialect } from 'kysely';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { log } from '../log.js';
import { listenReconnects } from '../metrics.js';
import { LocalBus, committedMessages, newJob, runJob, settleJobs } from './backend.js';
import type { Backend, BusMessage, DeviceTx, Grouped, Job, JobGroup, LastWrite, Outcome, RelayDb } from './backend.js';
import { migrate } from './migrate.js';
import { preparedTexts } from './prepared.js';
import { pipelineOf, pipelinedQuery, rollBackJob, sendLater, sendNow, type PipelineControl } from './batch-pipeline.js';
import type { RelayDatabase } from './schema.js';
import { setTaskDue } from './tasks.js';

const CHANNEL = 'notifier_relay';
/** Connections per relay process, besides the listening one. Long-polls hold none while they wait. */
const POOL_SIZE = 20;
/** How long to wait before listening again after the connection was lost (doubling up to the maximum). */
const RELISTEN_MS = { first: 500, max: 30_000 };
/**
 * The most jobs of one computer a transaction carries: a burst shares its lock and COMMIT, while the first answers
 * of a batch wait for no more than this many jobs' round trips. The same bound as sqlite.ts's. A transaction takes
 * in computers until they have this many jobs waiting in all, so it carries at most this many computers.
 */
const MAX_BATCH = 16;
/**
 * The most transactions of computers' queues a process runs at once. More computers with requests wait, and the
 * next transaction to start takes them together.
 */
export const MAX_TRANSACTIONS = 4;
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
  pool.on('connect', (client) => {
    client.on('error', (error) => log.warn(`a PostgreSQL connection in use failed: ${error.message}`));
    client.query = pipelinedQuery(client, statementName) as typeof client.query;
  });
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

/** Statement names by SQL text: one per prepared query of the relay. */
const statementNames = new Map<string, string>();

/**
 * The relay's prepared queries (prepared.ts) are named statements on each connection: PostgreSQL parses and plans
 * each once per connection instead of once per call. Other queries (any text, any number of values) stay unnamed,
 * so the statements a connection keeps stay a small, fixed set.
 */
function statementName(text: string): string | undefined {
  if (!preparedTexts.has(text)) return undefined;
  let name = statementNames.get(text);
  if (!name) statementNames.set(text, (name = `relay_${statementNames.size + 1}`));
  return name;
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
  /** Each computer's queue on this process, while it has jobs waiting or a transaction under way. */
  private readonly devices = new Map<string, DeviceQueue>();
  /** Computers with jobs waiting and no transaction under way, in the order they became so. */
  private readonly ready = new Set<DeviceQueue>();
  /** Transactions of computers under way (at most MAX_TRANSACTIONS). */
  private running = 0;
  /** Whether the ready computers' transactions start at the end of this turn of the event loop. */
  private startPending = false;
  /** The jobs waiting for the relay-wide lock's next transaction, while its transactions run. */
  private relayJobs: Job[] | undefined;
  /** Computers' jobs not yet settled: waiting for their transaction, or in one under way (relay_db_requests_queued). */
  private lockedJobs = 0;

  constructor(
    readonly db: RelayDb,
    private readonly url: string,
    private readonly pool: pg.Pool,
  ) {}

  poolUse(): { total: number; idle: number; waiting: number } {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount };
  }

  queuedRequests(): number {
    return this.lockedJobs;
  }

  withDeviceLock<T>(deviceId: string, work: (tx: DeviceTx) => Promise<T>, grouped?: Grouped): Promise<T> {
    this.lockedJobs++;
    return new Promise<T>((resolve, reject) => {
      let queue = this.devices.get(deviceId);
      if (!queue) this.devices.set(deviceId, (queue = { deviceId, key: deviceLockKey(deviceId), jobs: [], busy: false }));
      queue.jobs.push(newJob(work, resolve, reject, grouped));
      if (!queue.busy) this.makeReady(queue); // else it joins the transaction under way, or waits for the next
    }).finally(() => this.lockedJobs--);
  }

  withRelayLock<T>(work: (tx: DeviceTx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const job = newJob(work, resolve, reject);
      if (this.relayJobs) return void this.relayJobs.push(job);
      this.relayJobs = [job];
      void this.drainRelayJobs(this.relayJobs);
    });
  }

  /** The task's row, made if need be, is locked while the task runs: a node that finds it locked skips it. */
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
      await setTaskDue(trx, name, nextDueAt);
      return true;
    });
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

  /**
   * A computer has jobs and no transaction: its jobs go into the next transaction to start, with those of the other
   * computers ready by then. Requests read in the same turn of the event loop (a wave of them, answered together
   * the turn before) start together, rather than the first of them alone.
   */
  private makeReady(queue: DeviceQueue): void {
    this.ready.add(queue);
    if (this.startPending) return;
    this.startPending = true;
    setImmediate(() => {
      this.startPending = false;
      this.startTransactions();
    });
  }

  /**
   * Starts a transaction for the computers ready, oldest first, enough of them for MAX_BATCH jobs — and more such
   * transactions while computers are ready and fewer than MAX_TRANSACTIONS run. Beyond that they wait, and the
   * next transaction to start takes them together: under load, computers share transactions. With independent
   * agents a computer has about one request in flight, so without this each notification and each ack would be a
   * transaction of its own (docs/performance.md, "On PostgreSQL (issue 21)").
   */
  private startTransactions(): void {
    while (this.ready.size > 0 && this.running < MAX_TRANSACTIONS) {
      const queues: DeviceQueue[] = [];
      let jobs = 0;
      for (const queue of this.ready) {
        if (jobs >= MAX_BATCH) break;
        queues.push(queue);
        jobs += queue.jobs.length;
      }
      for (const queue of queues) {
        this.ready.delete(queue);
        queue.busy = true;
      }
      this.running += 1;
      void this.runBatch(
        locksOf(queues),
        queues.map((queue) => queue.jobs),
      ).finally(() => this.transactionEnded(queues));
    }
  }

  private transactionEnded(queues: DeviceQueue[]): void {
    this.running -= 1;
    for (const queue of queues) {
      queue.busy = false;
      if (queue.jobs.length > 0) this.ready.add(queue);
      else this.devices.delete(queue.deviceId);
    }
    this.startTransactions();
  }

  /** Runs the relay-wide lock's batches, one transaction at a time, until none waits. */
  private async drainRelayJobs(jobs: Job[]): Promise<void> {
    try {
      await new Promise((resolve) => setImmediate(resolve)); // as for a computer: the same turn's requests join
      // The two-number form of the lock has its own key space: it can never meet a device's one-number key.
      while (jobs.length > 0) await this.runBatch('select pg_advisory_xact_lock(0, 1)', [jobs]);
    } finally {
      this.relayJobs = undefined;
    }
  }

  /**
   * One transaction: BEGIN and the locks, then the jobs waiting in its queues, one computer's after another in
   * turn (at most MAX_BATCH of each; those that arrive meanwhile join), each after the first in a savepoint —
   * jobs of one group next to each other in one savepoint together — then the bus messages of those that ended
   * well and COMMIT. Only then are the messages delivered here and the jobs answered; if the transaction fails as
   * a whole, every job of it gets the error. BEGIN, the locks and each savepoint ride with the next statement
   * (batch-pipeline.ts); the messages and COMMIT ride with a group's last write when no job waits after it.
   *
   * The first job, when it runs alone, needs no savepoint: if it fails, the whole transaction is rolled back (it is
   * all that transaction did) and the jobs after it run in the next one. A transaction of one job — most of them,
   * when each computer has one request at a time — is then BEGIN, the lock, the job's statements and COMMIT, which
   * a savepoint would slow by a fifth or more (docs/performance.md, "On PostgreSQL (issue 21)").
   */
  private async runBatch(lock: string, queues: Job[][]): Promise<void> {
    const batch: Job[] = [];
    const outcomes: Outcome[] = [];
    const { take, waiting } = inTurn(queues);
    try {
      await this.db.connection().execute(async (conn) => {
        const end = new EndWithLastWrite(await pipelineOf(conn), waiting, (messages) =>
          this.notifyStatements([...committedMessages(outcomes), ...messages]),
        );
        await sendLater(conn, `begin; ${lock}`);
        try {
          const savepoints = new JobSavepoints(conn);
          for (let next = take(); next; next = take()) {
            batch.push(...next);
            if (next.length > 1) {
              const group = await runGroupInSavepoint(savepoints, next, end);
              outcomes.push(...group.outcomes);
              if (group.ended) return; // its last write committed the transaction
            } else if (batch.length > 1) outcomes.push(await runInSavepoint(savepoints, next[0]!));
            else {
              const outcome = await runJob(conn, next[0]!);
              outcomes.push(outcome);
              if (!outcome.ok) return void (await sendNow(conn, 'rollback')); // it was all the transaction did
            }
          }
          await sendNow(conn, [...this.notifyStatements(committedMessages(outcomes)), 'commit'].join('; '));
        } catch (error) {
          await sendNow(conn, 'rollback').catch(() => undefined); // the connection may be gone: the error that ended it is the news
          throw error;
        }
      });
    } catch (error) {
      // No transaction began: these would have been next.
      if (batch.length === 0) for (let next = take(); next; next = take()) batch.push(...next);
      for (const job of batch) job.reject(error);
      return;
    }
    for (const message of committedMessages(outcomes)) this.bus.deliver(message); // committed: this process hears it now
    settleJobs(batch, outcomes);
  }

  /**
   * NOTIFY of the messages other processes need (delivered by PostgreSQL only if the transaction commits), as the
   * statements to go before COMMIT (none or one). Only those: a transaction that notifies holds PostgreSQL's one
   * notification lock of the database from its NOTIFY through its commit — its flush to disk included — so such
   * commits queue behind each other across every computer and node (docs/performance.md,
   * "On PostgreSQL (issue 21)"; docs/relay.md, "Several nodes").
   */
  private notifyStatements(committed: BusMessage[]): string[] {
    const messages = committed.filter((message) => this.bus.concernsOthers(message));
    if (messages.length === 0) return [];
    const payloads = messages.map((message) => pg.escapeLiteral(JSON.stringify({ ...message, frame: undefined, from: this.nodeId })));
    return [`select pg_notify('${CHANNEL}', payload) from unnest(array[${payloads.join(', ')}]::text[]) as payload`];
  }
}

/**
 * The savepoint each job (or group of jobs) after a batch's first runs in, opened with the job's first statement:
 * the first one opened, then each releasing the one before (what the job before it did is kept).
 */
class JobSavepoints {
  private opened = false;
  constructor(readonly conn: RelayDb) {}

  async open(): Promise<void> {
    await sendLater(this.conn, this.opened ? 'release savepoint job; savepoint job' : 'savepoint job');
    this.opened = true;
  }
}

/**
 * A transaction's NOTIFY and COMMIT sent with a group's last write, when no job waits after the group
 * (batch-pipeline.ts, endWithNext): one round trip less per transaction whose last job is a group — most of them
 * under load (docs/performance.md, "On PostgreSQL (issue 21)"). Jobs that arrive after that go into the next
 * transaction.
 */
class EndWithLastWrite {
  constructor(
    private readonly pipeline: PipelineControl,
    private readonly waiting: () => boolean,
    /** The NOTIFY statements of the transaction, the group's `messages` included. */
    private readonly notifyStatements: (messages: BusMessage[]) => string[],
  ) {}

  /** Offered to each group (JobGroup.run's lastWrite). */
  readonly offer: LastWrite = (messages) => {
    if (!this.waiting()) this.pipeline.endWithNext([...this.notifyStatements(messages), 'commit']);
  };

  /** After a group: whether its last write committed the transaction. An end offered but not sent is withdrawn. */
  ended(): boolean {
    return this.pipeline.ended();
  }
}

/** One computer's queue on this process. */
interface DeviceQueue {
  deviceId: string;
  /** Its advisory-lock key (deviceLockKey). */
  key: string;
  jobs: Job[];
  /** Whether a transaction holding its lock is under way: jobs that arrive join it, or wait for the next. */
  busy: boolean;
}

/**
 * The statement that takes the computers' locks: one, or several in one statement in the order of their keys.
 * Every transaction that takes several takes them in that one order, and one that takes one waits for no other,
 * so transactions can never wait for each other in a circle. The keys are numbers made here from hex digits: they
 * go into the SQL text as they are.
 */
function locksOf(queues: DeviceQueue[]): string {
  if (queues.length === 1) return `select pg_advisory_xact_lock(${queues[0]!.key})`;
  const keys = queues.map((queue) => queue.key).sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
  return `select pg_advisory_xact_lock(key) from unnest(array[${keys.join(', ')}]::bigint[]) as key`;
}

/**
 * The jobs a transaction takes next: from each computer's queue in turn, its next job or group (takeGroup), up to
 * MAX_BATCH jobs of each computer; none when no queue has any waiting with room left. A group also takes the jobs
 * of the same group at the head of the other computers' queues: the notifications of several computers, each
 * with its own request, are then done together as one computer's burst is (notify-group.ts).
 */
function inTurn(queues: Job[][]): { take: () => Job[] | undefined; waiting: () => boolean } {
  const taken = queues.map(() => 0);
  let turn = 0;
  const hasRoom = (index: number): boolean => queues[index]!.length > 0 && taken[index]! < MAX_BATCH;
  const takeFrom = (index: number): Job[] => {
    const jobs = takeGroup(queues[index]!, MAX_BATCH - taken[index]!);
    taken[index] = taken[index]! + jobs.length;
    return jobs;
  };
  const take = (): Job[] | undefined => {
    for (let tried = 0; tried < queues.length; tried++) {
      const index = turn++ % queues.length;
      if (!hasRoom(index)) continue;
      const jobs = takeFrom(index);
      const group = jobs[0]!.grouped?.group;
      if (group)
        for (const [other, queue] of queues.entries())
          if (other !== index && queue[0]?.grouped?.group === group && taken[other]! < MAX_BATCH) jobs.push(...takeFrom(other));
      return jobs;
    }
    return undefined;
  };
  /** Whether `take` would give more jobs now. */
  const waiting = (): boolean => queues.some((_, index) => hasRoom(index));
  return { take, waiting };
}

/**
 * The first job waiting and, when it has a group, the other jobs of its group waiting (at most `room` in all), in
 * their order. They go ahead of jobs of other kinds queued between them (a computer's acks, between the
 * notifications of a burst): those came concurrently with them, in no order a caller could rely on.
 */
function takeGroup(jobs: Job[], room: number): Job[] {
  const group = jobs[0]!.grouped?.group;
  if (!group) return jobs.splice(0, 1);
  const taken: Job[] = [];
  for (let index = 0; index < jobs.length && taken.length < room;) {
    if (jobs[index]!.grouped?.group === group) taken.push(...jobs.splice(index, 1));
    else index++;
  }
  return taken;
}

/**
 * Jobs of one group in a savepoint, done by the group together (a job alone runs its own work: the group saves
 * nothing there). If the group declines, the jobs run one by one (it wrote nothing); if it fails, what it did is
 * rolled back first, so each job fails alone. With the outcomes: whether the group's last write ended the
 * transaction (EndWithLastWrite).
 */
async function runGroupInSavepoint(
  savepoints: JobSavepoints,
  jobs: Job[],
  end: EndWithLastWrite,
): Promise<{ outcomes: Outcome[]; ended: boolean }> {
  await savepoints.open();
  let answers: Awaited<ReturnType<JobGroup['run']>>;
  try {
    answers = await jobs[0]!.grouped!.group.run(
      savepoints.conn,
      jobs.map((job) => job.grouped!.input),
      end.offer,
    );
  } catch (error) {
    if (end.ended()) throw error; // committed, then failed: there is nothing to undo, and the batch ends with the error
    // If this fails too (a statement of the batch's own failed, the connection is gone), the batch ends with the error.
    await rollBackJob(savepoints.conn).catch(() => {
      throw error;
    });
    return { outcomes: await runEach(savepoints, jobs), ended: false };
  }
  const ended = end.ended();
  if (answers) return { outcomes: answers.map(({ value, messages }) => ({ ok: true, value, messages })), ended };
  if (ended) throw new Error('a group declined after its last write'); // a group's own mistake: the batch ends
  return { outcomes: await runEach(savepoints, jobs), ended: false };
}

/** Jobs one by one, each in its own savepoint. */
async function runEach(savepoints: JobSavepoints, jobs: Job[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const job of jobs) outcomes.push(await runInSavepoint(savepoints, job));
  return outcomes;
}

/** One job in a savepoint: if it fails, it is rolled back to it, and the jobs before it keep what they did. */
async function runInSavepoint(savepoints: JobSavepoints, job: Job): Promise<Outcome> {
  await savepoints.open();
  const outcome = await runJob(savepoints.conn, job);
  if (!outcome.ok) {
    // If this fails too (the transaction did not begin, the connection is gone), the batch ends with the job's error.
    await rollBackJob(savepoints.conn).catch(() => {
      throw outcome.error;
    });
  }
  return outcome;
}
