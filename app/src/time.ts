// Times as a person reads them in a list ("3 min ago"), with the exact time for a tooltip.

import { signal } from '@preact/signals';

/** The clock the relative times are drawn against; ticks every 30 s while the window is visible. */
export const now = signal(Date.now());

const TICK_MS = 30_000;
setInterval(() => {
  if (document.visibilityState === 'visible') now.value = Date.now();
}, TICK_MS);
document.addEventListener('visibilitychange', () => (now.value = Date.now()));

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

interface Formats {
  timeOfDay: Intl.DateTimeFormat;
  weekday: Intl.DateTimeFormat;
  sameYear: Intl.DateTimeFormat;
  otherYear: Intl.DateTimeFormat;
  exact: Intl.DateTimeFormat;
}

let made: Formats | undefined;

/**
 * The date formats, made on first use. The first one costs the browser tens of milliseconds (it loads its locale
 * data): main.tsx makes them while the first rows are on their way, rather than before asking for them.
 */
export function formats(): Formats {
  made ??= {
    timeOfDay: new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' }),
    weekday: new Intl.DateTimeFormat(undefined, { weekday: 'short', hour: 'numeric', minute: '2-digit' }),
    sameYear: new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' }),
    otherYear: new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' }),
    exact: new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'medium' }),
  };
  return made;
}

export function relativeTime(iso: string, at = now.value): string {
  const { timeOfDay, weekday, sameYear, otherYear } = formats();
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  const ago = at - time;
  if (ago < -MINUTE) return `at ${timeOfDay.format(time)}`; // in the future: a snooze's end
  if (ago < 45_000) return 'just now';
  if (ago < HOUR) return `${Math.max(1, Math.round(ago / MINUTE))} min ago`;
  if (ago < 12 * HOUR) return `${Math.round(ago / HOUR)} h ago`;
  const days = calendarDaysBetween(time, at);
  if (days === 0) return timeOfDay.format(time);
  if (days === 1) return `Yesterday ${timeOfDay.format(time)}`;
  if (ago < 6 * DAY) return weekday.format(time);
  const date = new Date(time);
  return (date.getFullYear() === new Date(at).getFullYear() ? sameYear : otherYear).format(time);
}

/** Midnights passed from `from` to `to`, in local time. */
function calendarDaysBetween(from: number, to: number): number {
  const start = new Date(from);
  const end = new Date(to);
  const midnight = (date: Date): number => new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
  return Math.round((midnight(end) - midnight(start)) / DAY);
}

export function exactTime(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : formats().exact.format(time);
}

/** "until 14:30" or "until Tue 09:00": when a snooze ends. */
export function untilTime(iso: string, at = now.value): string {
  const { timeOfDay, weekday } = formats();
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  return time - at < 12 * HOUR && new Date(time).getDate() === new Date(at).getDate() ? timeOfDay.format(time) : weekday.format(time);
}

/** Minutes from now until 09:00 tomorrow, local time: the snooze "Tomorrow morning". */
export function minutesUntilTomorrowMorning(from = new Date()): number {
  const morning = new Date(from);
  morning.setDate(morning.getDate() + 1);
  morning.setHours(9, 0, 0, 0);
  return Math.max(1, Math.round((morning.getTime() - from.getTime()) / MINUTE));
}
