// When a delayed ntfy publish is to show (docs/api/ntfy.md#nt9): ntfy's `delay`, `at` and `in` take a duration
// (`30m`, `2 hours`, `1h30m`), a Unix time in seconds, or a time of day (`10am`, `17:30`, `tomorrow, 9am`). The
// time is read against the computer's clock and zone; it must be at least 10 seconds and at most 3 days away, as
// ntfy's defaults are. Pure: the caller gives the moment now.

import { ntfyErrors } from './ntfy-errors.js';

/** ntfy's defaults: a delay under 10 seconds is refused (deliver it now instead), one over 3 days too. */
export const DELAY_RANGE_MS = { min: 10_000, max: 3 * 24 * 60 * 60_000 } as const;

const UNIT_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `90s`, `30m`, `2 hours`, `1h30m`, `1 day`: numbers, each with its unit (s, sec, m, min, h, hr, hour, d, day). */
const DURATION = /^(?:\s*\d+(?:\.\d+)?\s*(?:s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?))+\s*$/i;
const DURATION_PART = /(\d+(?:\.\d+)?)\s*([a-z]+)/gi;

/** A Unix time in seconds (ntfy's `at=1639194738`): ten digits or more. */
const UNIX_SECONDS = /^\d{10,}$/;

/** `10am`, `9:30pm`, `17:30`, with `tomorrow` before it (and a comma or not). */
const TIME_OF_DAY = /^(tomorrow\s*,?\s*)?(\d{1,2})(?::(\d{2}))?\s*(am|pm)?$/i;

/** The moment `text` names, checked against the range; an NtfyError (40004, 40005, 40006) when it cannot be. */
export function deliveryTime(text: string, now: Date): Date {
  const at = readTime(text.trim(), now);
  if (at === null) throw ntfyErrors.delayUnreadable(text);
  const ahead = at.getTime() - now.getTime();
  if (ahead < DELAY_RANGE_MS.min) throw ntfyErrors.delayTooSmall();
  if (ahead > DELAY_RANGE_MS.max) throw ntfyErrors.delayTooLarge();
  return at;
}

function readTime(text: string, now: Date): Date | null {
  if (UNIX_SECONDS.test(text)) return new Date(Number(text) * 1000);
  if (DURATION.test(text)) return new Date(now.getTime() + durationMs(text));
  const clock = TIME_OF_DAY.exec(text);
  return clock ? timeOfDay(clock, now) : null;
}

function durationMs(text: string): number {
  let total = 0;
  for (const [, amount, unit] of text.matchAll(DURATION_PART)) total += Number(amount) * UNIT_MS[unit!.toLowerCase()[0]!]!;
  return total;
}

/** The next time the clock shows it (today, else tomorrow), or tomorrow's when `tomorrow` is said. */
function timeOfDay([, tomorrow, hourText, minuteText, half]: RegExpExecArray, now: Date): Date | null {
  let hour = Number(hourText);
  const minute = minuteText === undefined ? 0 : Number(minuteText);
  if (minute > 59 || (half ? hour < 1 || hour > 12 : hour > 23)) return null;
  if (half) hour = (hour % 12) + (half.toLowerCase() === 'pm' ? 12 : 0);
  const at = new Date(now.getFullYear(), now.getMonth(), now.getDate() + (tomorrow ? 1 : 0), hour, minute);
  if (!tomorrow && at.getTime() <= now.getTime()) at.setDate(at.getDate() + 1);
  return at;
}
