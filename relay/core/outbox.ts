// The webhook outbox (docs/relay-api.md#ra209, #ra210; docs/relay.md, "Reply events"): one worker per relay
// process delivers the events queued in `event_outbox`.
//
//   - Woken at once when a transaction that queued events commits (the bus: in-process on SQLite, NOTIFY on
//     PostgreSQL, so every process hears it), and by a timer set only for the next due retry: nothing polls while
//     the outbox is empty.
//   - Head of line: only a subscription's oldest waiting event is eligible, so each subscription gets its events
//     in order, one at a time.
//   - Claimed before it is sent: the claim (`claimed_until`) is written in a transaction that, on PostgreSQL,
//     selects the rows `FOR UPDATE SKIP LOCKED`, so however many processes look at once, each event is claimed
//     by one. A claim outlasts any delivery (10 s deadline), so no other process sends it meanwhile; if the
//     process dies, the claim runs out and another takes the event.
//   - The outcome (delivered, given up, retry at a time) is written in the computer's locked transaction.

import { sql } from 'kysely';
import type { RelayDb } from '../store/backend.js';
import { countRows, oneOf } from '../store/queries.js';
import { DELIVERIES_IN_FLIGHT, DELIVERY_CLAIM_MS, MAX_DELIVERY_AGE_MS, MAX_DELIVERY_ATTEMPTS, RETRY_WAIT_MS, TIME } from '../limits.js';
import { log } from '../log.js';
import { replyEvents, webhookDuration } from '../metrics.js';
import { hostOf, publicHostProblem } from '../host-rules.js';
import type { Relay } from './relay.js';
import { endSubscription } from './subscriptions.js';
import { sendWebhook, verdictOf, type Verdict } from './webhooks.js';

/** Timers of the outbox; tests of the retry timing pass their own. */
export interface Scheduler {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

/** Node's timers; "now" is the next turn of the event loop (a timer of 0 would wait at least a millisecond). */
export const timerScheduler: Scheduler = {
  set: (run, ms) => (ms <= 0 ? { immediate: setImmediate(run) } : { timeout: setTimeout(run, ms).unref() }),
  clear: (handle) => {
    const timer = handle as { immediate?: NodeJS.Immediate; timeout?: NodeJS.Timeout };
    clearImmediate(timer.immediate);
    clearTimeout(timer.timeout);
  },
};

/** When due events could not be claimed (another process holds them for a moment), look again this much later. */
const RECHECK_MS = TIME.SECOND;

interface Claimed {
  id: string;
  device_id: string;
  sub_id: string;
  payload: string;
  attempts: number;
  created_at: number;
  url: string;
  secret: string;
}

/** What became of one attempt; `released` gives the event back untouched (the process is stopping). */
type Outcome = Verdict | { outcome: 'released' };

/** No earlier event of the same subscription waits: the row is its subscription's head (RA210). */
const IS_HEAD = sql<boolean>`not exists (select 1 from event_outbox as p where p.sub_id = o.sub_id and p.seq < o.seq)`;

function dueHeads(db: RelayDb, now: number, limit: number) {
  return db
    .selectFrom('event_outbox as o')
    .innerJoin('event_subs as s', 's.id', 'o.sub_id')
    .select(['o.id', 'o.device_id', 'o.sub_id', 'o.payload', 'o.attempts', 'o.created_at', 's.url', 's.secret'])
    .where('o.next_at', '<=', now)
    .where((eb) => eb.or([eb('o.claimed_until', 'is', null), eb('o.claimed_until', '<=', now)]))
    .where(IS_HEAD)
    .orderBy('o.next_at')
    .orderBy('o.seq')
    .limit(limit);
}

/**
 * Claims up to `limit` due heads for this process (see the top of the file). The dialects differ in one thing:
 * PostgreSQL locks the rows it reads (FOR UPDATE SKIP LOCKED), so the processes looking at once claim different
 * ones; on the embedded database one process has the one connection, so its transaction is alone anyway (and
 * SQLite has no row locks). A claim lost in a crash only means the event is sent again, so it need not wait for
 * the disk.
 */
async function claimDue(relay: Relay, now: number, limit: number): Promise<Claimed[]> {
  const { dialect } = relay.store;
  return relay.store.db.transaction().execute(async (trx) => {
    const query = dueHeads(trx, now, limit);
    const rows = await (dialect === 'postgres' ? query.forUpdate('o').skipLocked() : query).execute();
    if (rows.length > 0) {
      const ids = rows.map((row) => row.id);
      await trx
        .updateTable('event_outbox')
        .set({ claimed_until: now + DELIVERY_CLAIM_MS })
        .where(oneOf(dialect, 'id', ids))
        .execute();
    }
    return rows;
  });
}

/** When the next head becomes due (or its claim runs out); undefined when nothing waits. */
async function nextDue(db: RelayDb): Promise<number | undefined> {
  const row = await db
    .selectFrom('event_outbox as o')
    .select(sql<number | null>`min(case when o.claimed_until > o.next_at then o.claimed_until else o.next_at end)`.as('due'))
    .where(IS_HEAD)
    .executeTakeFirst();
  return row?.due == null ? undefined : Number(row.due);
}

/** Reply events waiting in the outbox, queued or to be retried, on the whole relay (relay_reply_events_waiting). */
export const waitingEvents = (db: RelayDb): Promise<number> => countRows(db.selectFrom('event_outbox'));

/**
 * RA210: when to try again after failed attempt number `attempts`: 1 minute, doubling up to an hour, or a longer
 * Retry-After; undefined when the event is given up (8 attempts, or the next would be more than 24 hours after
 * it was queued).
 */
export function nextAttemptAt(attempts: number, queuedAt: number, finishedAt: number, retryAfterMs?: number): number | undefined {
  if (attempts >= MAX_DELIVERY_ATTEMPTS) return undefined;
  const backoff = Math.min(RETRY_WAIT_MS.first * 2 ** (attempts - 1), RETRY_WAIT_MS.max);
  const at = finishedAt + Math.max(backoff, retryAfterMs ?? 0);
  return at > queuedAt + MAX_DELIVERY_AGE_MS ? undefined : at;
}

export class Outbox {
  private timer: { at: number; handle: unknown } | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private readonly abort = new AbortController();
  private unsubscribe: Array<() => void> = [];

  constructor(
    private readonly relay: Relay,
    private readonly scheduler: Scheduler = timerScheduler,
  ) {}

  /** Listens for queued events, and delivers what an earlier run left due. */
  start(): void {
    const bus = this.relay.store.bus;
    this.unsubscribe = [bus.subscribe((message) => message.t === 'outbox' && this.wake()), bus.onResync(() => this.wake())];
    this.wake();
  }

  /**
   * The node is draining: no new claims (the other nodes take what comes), but deliveries under way finish. Cutting
   * one the webhook had already taken would give it back, and another node would send it again under the same id.
   */
  drain(): void {
    this.stopped = true;
    for (const stop of this.unsubscribe) stop();
    this.unsubscribe = [];
    if (this.timer) this.scheduler.clear(this.timer.handle);
    this.timer = undefined;
  }

  /** Stops: no new claims; deliveries still under way are cut short and their events given back untouched. */
  async stop(): Promise<void> {
    this.drain();
    this.abort.abort();
    await this.idle();
  }

  /** Resolves once nothing is being claimed or delivered. */
  async idle(): Promise<void> {
    while (this.running || this.inFlight.size > 0) await Promise.all([this.running, ...this.inFlight]);
  }

  wake(): void {
    this.wakeAt(this.relay.clock());
  }

  /** One timer, for the earliest time anything asked for. */
  private wakeAt(at: number): void {
    if (this.stopped || (this.timer && this.timer.at <= at)) return;
    if (this.timer) this.scheduler.clear(this.timer.handle);
    const handle = this.scheduler.set(
      () => {
        this.timer = undefined;
        void this.run();
      },
      Math.max(0, at - this.relay.clock()),
    );
    this.timer = { at, handle };
  }

  /** Claims what is due (up to the free delivery slots) and starts sending it; a wake meanwhile runs it again. */
  private run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.again = false;
    this.running = this.claimAndSend().finally(() => {
      this.running = undefined;
      if (this.again) void this.run();
    });
    return this.running;
  }

  private async claimAndSend(): Promise<void> {
    try {
      let claimedAny = false;
      for (;;) {
        const free = DELIVERIES_IN_FLIGHT - this.inFlight.size;
        if (free <= 0 || this.stopped) return; // a delivery that finishes wakes it again
        const claimed = await claimDue(this.relay, this.relay.clock(), free);
        for (const row of claimed) this.track(this.deliver(row));
        claimedAny ||= claimed.length > 0;
        if (claimed.length < free) break;
      }
      const due = await nextDue(this.relay.store.db);
      if (due === undefined) return; // nothing waits: no timer until the bus says otherwise
      const now = this.relay.clock();
      this.wakeAt(!claimedAny && due <= now ? now + RECHECK_MS : due);
    } catch (error) {
      log.error(`the webhook outbox failed: ${(error as Error).stack ?? String(error)}`);
      this.wakeAt(this.relay.clock() + RECHECK_MS);
    }
  }

  private track(delivery: Promise<void>): void {
    this.inFlight.add(delivery);
    void delivery.finally(() => {
      this.inFlight.delete(delivery);
      this.wake(); // the subscription's next event may now be its head
    });
  }

  /** RA209, RA210: one attempt and its outcome. Never rejects. */
  private async deliver(row: Claimed): Promise<void> {
    try {
      await this.record(row, await this.attempt(row));
    } catch (error) {
      log.error(`delivering ${row.id} failed: ${(error as Error).stack ?? String(error)}`, {
        deviceId: row.device_id,
        eventId: row.id,
        subscriptionId: row.sub_id,
      });
    }
  }

  private async attempt(row: Claimed): Promise<Outcome> {
    if (this.relay.clock() >= row.created_at + MAX_DELIVERY_AGE_MS) return { outcome: 'dropped' }; // waited 24 h behind others
    // The host rules as they are now (the relay may have restarted with other EVENT_CALLBACK_HOSTS): a failure.
    const host = hostOf(new URL(row.url));
    const allowed = this.relay.eventCallbackHosts;
    if (publicHostProblem(host) !== undefined || (allowed.length > 0 && !allowed.includes(host))) return { outcome: 'retry' };
    try {
      const message = { id: row.id, subscriptionId: row.sub_id, secret: row.secret, body: row.payload };
      const timer = webhookDuration.startTimer();
      const answer = await sendWebhook(this.relay, row.url, message, this.abort.signal).finally(() => timer());
      return verdictOf(answer, this.relay.clock());
    } catch {
      // No answer: cut short by stop(), else a timeout or a network error.
      return this.abort.signal.aborted ? { outcome: 'released' } : { outcome: 'retry' };
    }
  }

  private async record(row: Claimed, outcome: Outcome): Promise<void> {
    const finished = this.relay.clock();
    const attempts = row.attempts + 1;
    const retryAt = outcome.outcome === 'retry' ? nextAttemptAt(attempts, row.created_at, finished, outcome.retryAfterMs) : undefined;
    if (outcome.outcome === 'gone')
      log.info(`subscription ${row.sub_id} ended: its callback answered 410 Gone`, { deviceId: row.device_id, subscriptionId: row.sub_id });
    if (outcome.outcome === 'dropped' || (outcome.outcome === 'retry' && retryAt === undefined))
      log.info(`event ${row.id} given up after ${attempts} attempt(s)`, {
        deviceId: row.device_id,
        eventId: row.id,
        subscriptionId: row.sub_id,
        attempts,
      });
    countAttempt(outcome.outcome, retryAt);
    await this.relay.store.withDeviceLock(row.device_id, async (tx) => {
      if (this.stopped) tx.publish({ t: 'outbox' }); // this node claims no more: the others take the next event now
      const thisRow = tx.db.updateTable('event_outbox').where('id', '=', row.id);
      if (outcome.outcome === 'gone') return endSubscription(tx, row.device_id, row.sub_id);
      if (outcome.outcome === 'released') return void (await thisRow.set({ claimed_until: null }).execute());
      if (retryAt !== undefined) return void (await thisRow.set({ attempts, next_at: retryAt, claimed_until: null }).execute());
      await tx.db.deleteFrom('event_outbox').where('id', '=', row.id).execute(); // delivered, or given up
    });
  }
}

/** relay_reply_events_total: what one attempt came to (a release at shutdown is no attempt). */
function countAttempt(outcome: Outcome['outcome'], retryAt: number | undefined): void {
  if (outcome === 'released') return;
  if (outcome === 'retry') replyEvents.inc({ outcome: retryAt === undefined ? 'given_up' : 'retried' });
  else if (outcome === 'dropped') replyEvents.inc({ outcome: 'given_up' });
  else replyEvents.inc({ outcome });
}
