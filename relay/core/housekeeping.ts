// Background work (docs/relay.md, "Several nodes"): the core's tasks — expiring notifications nobody took,
// deleting what has outlived its lifetime (reply events among it), and dropping idle computers — and the
// Housekeeper that runs them with the tasks of the floors above (the OAuth server's sweep; server.ts gives it the
// list). Each task is claimed through the store, so with several relay processes each run happens on one of them.
// Between runs nothing polls: one timer waits for the next task that is due.

import { AUDIO_KEEP_MS, RATE_WINDOW_MS, TASK_INTERVALS_MS, TIME, USAGE_KEEP_DAYS } from '../limits.js';
import { log } from '../log.js';
import { deleteUpTo } from '../store/queries.js';
import { nextTaskDue, tasksNotDue } from '../store/tasks.js';
import { pruneIdleDevices } from './devices.js';
import { deleteOldNotes, expireWaiting, queueTtlMs } from './notes.js';
import { forgetOldPairing } from './pairing.js';
import { deleteOldEvents } from './reply-events.js';
import type { Relay } from './relay.js';
import { utcDay } from './time.js';

/** A background task: its name (the row it is claimed by, and its interval in TASK_INTERVALS_MS) and its work. */
export interface Task {
  name: keyof typeof TASK_INTERVALS_MS;
  run: (relay: Relay, now: number) => Promise<void>;
}

/** The core's tasks. */
export const CORE_TASKS: readonly Task[] = [
  { name: 'expireNotes', run: expireNotes },
  { name: 'deleteOld', run: deleteOld },
  { name: 'pruneDevices', run: async (relay, now) => void (await pruneIdleDevices(relay, now)) },
];

/** The shortest and longest sleep between looks at the task table. */
const SLEEP_MS = { min: TIME.SECOND, max: TIME.HOUR };

/** RA45: notifications that waited past the queue lifetime become suppressed/expired (and wake long-polls). */
async function expireNotes(relay: Relay, now: number): Promise<void> {
  const devices = await relay.store.db
    .selectFrom('notes')
    .select('device_id')
    .distinct()
    .where('acked_at', 'is', null)
    .where('suppressed_at', 'is', null)
    .where('created_at', '<=', now - queueTtlMs(relay))
    .execute();
  for (const { device_id } of devices) await relay.store.withDeviceLock(device_id, (tx) => expireWaiting(relay, tx, device_id, now));
}

/** Notes past their lifetime, per-key hits out of every window, old usage days, old recordings and pairing rows. */
async function deleteOld(relay: Relay, now: number): Promise<void> {
  const db = relay.store.db;
  await deleteOldNotes(relay, db, now);
  await deleteOldEvents(db, now);
  await deleteUpTo(db, 'key_hits', 'at', now - RATE_WINDOW_MS);
  await db
    .deleteFrom('usage_days')
    .where('day', '<', utcDay(now - USAGE_KEEP_DAYS * TIME.DAY))
    .execute();
  await deleteUpTo(db, 'reply_audio', 'created_at', now - AUDIO_KEEP_MS);
  await forgetOldPairing(db, now);
}

export class Housekeeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly relay: Relay,
    private readonly tasks: readonly Task[],
  ) {}

  start(): void {
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Runs every task that is due now (each claimed, so one process runs it). */
  async runDueTasks(): Promise<void> {
    // Should the look fail, every task is tried: its claim says whether it is due.
    const notDue = await tasksNotDue(this.relay.store.db, this.relay.clock()).catch(() => new Set<string>());
    for (const task of this.tasks) {
      if (notDue.has(task.name)) continue;
      const now = this.relay.clock();
      try {
        await this.relay.store.claimTask(task.name, now, now + TASK_INTERVALS_MS[task.name], () => task.run(this.relay, now));
      } catch (error) {
        log.error(`background task ${task.name} failed: ${(error as Error).stack ?? String(error)}`);
      }
    }
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.runDueTasks().then(async () => {
        const due = await nextTaskDue(this.relay.store.db).catch(() => undefined);
        const wait = due === undefined ? SLEEP_MS.max : due - this.relay.clock();
        this.schedule(Math.min(SLEEP_MS.max, Math.max(SLEEP_MS.min, wait)));
      });
    }, delayMs);
    this.timer.unref();
  }
}
