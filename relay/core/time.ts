// Time in the relay: Unix milliseconds inside, ISO 8601 on the wire, and the UTC day that budgets count in.

/** Where the relay reads the time; tests of time rules pass their own. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

export const iso = (ms: number): string => new Date(ms).toISOString();

const DAY_MS = 86_400_000;
let cachedDay = { start: 0, name: '1970-01-01' };

/** The UTC day (YYYY-MM-DD) a moment falls on: daily budgets and caps count per UTC day (RA50, RA51). */
export function utcDay(ms: number): string {
  // Asked several times per request, nearly always about the same day as the last time.
  if (ms < cachedDay.start || ms >= cachedDay.start + DAY_MS) {
    const start = Math.floor(ms / DAY_MS) * DAY_MS;
    cachedDay = { start, name: new Date(start).toISOString().slice(0, 10) };
  }
  return cachedDay.name;
}

/** Whole seconds until the next UTC midnight, when daily budgets renew (at least 1). */
export function secondsToMidnightUTC(ms: number): number {
  const next = new Date(ms);
  next.setUTCHours(24, 0, 0, 0);
  return Math.max(1, Math.ceil((next.getTime() - ms) / 1000));
}

/** Whole seconds from `now` until `then` (at least 1): what a Retry-After says. */
export const secondsUntil = (then: number, now: number): number => Math.max(1, Math.ceil((then - now) / 1000));
