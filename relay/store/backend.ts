// What the relay needs of its database, whichever it is (docs/relay.md, "Storage"):
//   - a query layer (Kysely) over one schema,
//   - withDeviceLock: one transaction per check-then-write of a computer, never two at once for the same one —
//     as if each computer had its own single-threaded server,
//   - withRelayLock: the same for the relay-wide rules of pairing,
//   - a bus: small messages (ids) to every relay process, sent when the transaction that caused them commits,
//   - claimTask: background work done by one process at a time.
// sqlite.ts and postgres.ts implement it; what they do alike is written once (here, tasks.ts, lists.ts,
// prepared.ts), Kysely building it for either dialect.

import type { Kysely } from 'kysely';
import type { NotifyFrame } from '../../protocol/relay/frames.js';
import { log } from '../log.js';
import type { RelayDatabase } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';
export type RelayDb = Kysely<RelayDatabase>;

/**
 * A message between relay processes. Ids only: a receiver re-reads the rows, so a message can never carry a
 * stale copy of anything, and it stays far below PostgreSQL's NOTIFY size limit. The one exception stays inside
 * the process that committed it: `frame`, the new note exactly as committed, which spares that process reading
 * it back when it holds the socket; it is never sent to another process.
 */
export type BusMessage =
  /**
   * A notification `r` was queued for computer `d`: the process holding its socket pushes it. `g`, when known, is
   * the computer's socket in force as the note's transaction saw it under the computer's lock (null: none): other
   * processes need hear of the note only when one of them holds that socket (Bus.setSocketHolder). A socket that opens
   * later, anywhere, takes the lock after the note committed and sends it with the rest of the queue.
   */
  | { t: 'note'; d: string; r: string; frame?: NotifyFrame; g?: number | null }
  /** A receipt or reply for notification `r` landed: long-polls waiting on it wake up. */
  | { t: 'receipt'; d: string; r: string }
  /** Socket generation `g` of computer `d` is now in force: older sockets close with 4000. */
  | { t: 'stream'; d: string; g: number }
  /** Computer `d` was unpaired or removed: its socket closes with 4001, its long-polls end. */
  | { t: 'gone'; d: string }
  /** Connector approval `i` of computer `d` is new or changed: its socket gets the `consent` frame (RA111). */
  | { t: 'consent'; d: string; i: string }
  /** Approval `i` of computer `d` closed with status `s`: its socket gets `consent_resolved` (RA111). */
  | { t: 'consent_resolved'; d: string; i: string; s: string }
  /** Webhook deliveries were queued: every process's outbox looks for due ones (docs/relay-api.md#ra210). */
  | { t: 'outbox' };

/** What a locked transaction works with. */
export interface DeviceTx {
  db: RelayDb;
  /** Queues a message; it is sent if and when this transaction commits. */
  publish(message: BusMessage): void;
}

export interface Bus {
  /** Every message from every process (this one's right after its commit). Returns the unsubscribe function. */
  subscribe(handler: (message: BusMessage) => void): () => void;
  /**
   * Called after messages may have been missed (PostgreSQL: the listening connection was lost and is back):
   * whoever keeps state from messages catches up from the database.
   */
  onResync(handler: () => void): () => void;
  /** Tells the bus how to know whether this process holds socket generation `gen` of a computer (relay/ws). */
  setSocketHolder(holds: (deviceId: string, gen: number) => boolean): void;
}

export interface Backend {
  readonly dialect: Dialect;
  /** For reads that need no lock. */
  readonly db: RelayDb;
  readonly bus: Bus;
  /**
   * Runs `work` in one transaction that no other transaction of this computer overlaps. With `grouped`, a backend
   * may run it together with the jobs of the same group beside it in the computer's queue (PostgreSQL does).
   */
  withDeviceLock<T>(deviceId: string, work: (tx: DeviceTx) => Promise<T>, grouped?: Grouped): Promise<T>;
  /** Runs `work` in one transaction that no other relay-wide transaction overlaps (pairing). */
  withRelayLock<T>(work: (tx: DeviceTx) => Promise<T>): Promise<T>;
  /**
   * Claims background task `name` if it is due at `now` and no other process holds it, runs `work` while
   * holding it, then makes it due again at `nextDueAt`. Returns whether it ran.
   */
  claimTask(name: string, now: number, nextDueAt: number, work: () => Promise<void>): Promise<boolean>;
  close(): Promise<void>;
  /** PostgreSQL: the pool's connections (all, idle) and the requests waiting for one (relay_db_pool_connections). */
  poolUse?(): { total: number; idle: number; waiting: number };
  /** PostgreSQL: the requests on this process in or waiting for their computer's transaction, not yet settled (relay_db_requests_queued). */
  queuedRequests?(): number;
}

/**
 * Jobs that can be done together: the jobs of one group in a computer's queue, and those the other computers of
 * the same transaction have next, run as one call of `run` with their inputs, in one savepoint (postgres.ts). A
 * job's own `work` must come to the same answers, and is what runs when the group cannot.
 */
export interface JobGroup {
  /**
   * Does the jobs of `inputs` together on the transaction's `db`: each one's value and the bus messages it
   * queued, in order — or undefined, having written nothing, to have them run one by one after all. If it
   * throws, what it did is rolled back and they run one by one, each failing alone.
   */
  run(db: RelayDb, inputs: unknown[], lastWrite?: LastWrite): Promise<Array<{ value: unknown; messages: BusMessage[] }> | undefined>;
}

/**
 * Offered to a group by a backend that can end its transaction with the group's last statement (postgres.ts):
 * the group calls it right before that statement — a write — with the messages it is about to answer. When no
 * other job waits, the statement then carries the transaction's COMMIT: one round trip less. The group must send
 * no statement after that one (it does not know whether the transaction has ended).
 */
export type LastWrite = (messages: BusMessage[]) => void;

/** A job's group, and its input to the group's `run`. */
export interface Grouped {
  group: JobGroup;
  input: unknown;
}

/** A locked transaction waiting for its turn in a batch (sqlite.ts, postgres.ts: one savepoint each). */
export interface Job {
  work: (tx: DeviceTx) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  grouped?: Grouped;
}

export const newJob = <T>(
  work: (tx: DeviceTx) => Promise<T>,
  resolve: (value: T) => void,
  reject: (error: unknown) => void,
  grouped?: Grouped,
): Job => ({
  work,
  resolve: resolve as (value: unknown) => void,
  reject,
  grouped,
});

/** How a job of a batch ended: its value and the messages it queued (sent if the batch commits), or its error. */
export type Outcome = { ok: true; value: unknown; messages: BusMessage[] } | { ok: false; error: unknown };

/** The messages of a batch's jobs that ended well: what its commit sends. */
export const committedMessages = (outcomes: Outcome[]): BusMessage[] => outcomes.flatMap((outcome) => (outcome.ok ? outcome.messages : []));

/** A job's work: its value and the messages it published, or its error (what it did is for the caller to undo). */
export async function runJob(conn: RelayDb, job: Job): Promise<Outcome> {
  const messages: BusMessage[] = [];
  try {
    return { ok: true, value: await job.work({ db: conn, publish: (message) => messages.push(message) }), messages };
  } catch (error) {
    return { ok: false, error };
  }
}

/** Settles a committed batch's jobs: each gets its value or its own error. */
export function settleJobs(batch: Job[], outcomes: Outcome[]): void {
  batch.forEach((job, index) => {
    const outcome = outcomes[index]!;
    if (outcome.ok) job.resolve(outcome.value);
    else job.reject(outcome.error);
  });
}

/** A bus inside one process: the embedded backend's, and the local half of PostgreSQL's. */
export class LocalBus implements Bus {
  private readonly handlers = new Set<(message: BusMessage) => void>();
  private readonly resyncHandlers = new Set<() => void>();
  private holds: (deviceId: string, gen: number) => boolean = () => false;

  subscribe(handler: (message: BusMessage) => void): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  onResync(handler: () => void): () => void {
    this.resyncHandlers.add(handler);
    return () => this.resyncHandlers.delete(handler);
  }

  setSocketHolder(holds: (deviceId: string, gen: number) => boolean): void {
    this.holds = holds;
  }

  /**
   * Whether a committed message concerns other processes: all do, except a note whose computer's socket in force
   * (as its transaction saw it) is none or is held here — delivered here, or sent when a socket opens.
   */
  concernsOthers(message: BusMessage): boolean {
    if (message.t !== 'note' || message.g === undefined) return true;
    return message.g !== null && !this.holds(message.d, message.g);
  }

  deliver(message: BusMessage): void {
    for (const handler of this.handlers) {
      try {
        handler(message);
      } catch (error) {
        log.error(`a bus handler failed: ${(error as Error).stack ?? String(error)}`);
      }
    }
  }

  resync(): void {
    for (const handler of this.resyncHandlers) handler();
  }
}
