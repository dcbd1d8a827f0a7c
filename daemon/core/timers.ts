/** setTimeout waits at most 2^31-1 ms (24.8 days); a snooze may last 30 days, so long waits are chained. */
const LONGEST_TIMEOUT_MS = 2 ** 31 - 1;

export type TimerKind = 'expire' | 'snooze' | 'followUp';

/**
 * The core's timers (a banner's lifetime, a snooze, a follow-up), at most one of each kind per banner. Nothing
 * runs while nothing is due: no timer polls.
 */
export class Timers<Kind extends string = TimerKind> {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  /** Runs `task` at `when` (epoch ms), replacing a timer of the same kind for the same banner. */
  at(kind: Kind, banner: string, when: number, task: () => void): void {
    this.cancel(kind, banner);
    const key = `${kind}\u0000${banner}`;
    const arm = (): void => {
      const wait = when - Date.now();
      if (wait <= 0) {
        this.timers.delete(key);
        task();
        return;
      }
      this.timers.set(key, setTimeout(arm, Math.min(wait, LONGEST_TIMEOUT_MS)));
    };
    arm();
  }

  after(kind: Kind, banner: string, milliseconds: number, task: () => void): void {
    this.at(kind, banner, Date.now() + milliseconds, task);
  }

  has(kind: Kind, banner: string): boolean {
    return this.timers.has(`${kind}\u0000${banner}`);
  }

  cancel(kind: Kind, banner: string): void {
    const key = `${kind}\u0000${banner}`;
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
  }

  clear(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}

/** Now, as records and answers write a time: ISO 8601 in UTC. */
export const timestamp = (): string => new Date().toISOString();
