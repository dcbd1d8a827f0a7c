// Times as a person reads them: how long ago ("3 min ago"), a row's clock time ("14:05", "Yesterday 22:10") and the
// day a list's rows are headed by ("Today", "Thursday"), with the exact time for a tooltip. A component that draws
// one reads the window's present and date formats with `useTime()` (models/time.ts), and is drawn again as the
// present moves on.

import type { VNode } from 'preact';
import { useModels } from '../models/context.js';
import type { DateFormats } from '../models/time.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The present (ms) and the formats a time is drawn with. */
export interface Moment {
  now: number;
  formats: DateFormats;
}

/** The window's present and date formats: the component that reads them is drawn again as the present moves on. */
export function useTime(): Moment {
  const { time } = useModels();
  return { now: time.now.value, formats: time.formats.value };
}

/** The date formats alone, for a component that draws only exact times (it is not drawn again as time passes). */
export function useDateFormats(): Pick<Moment, 'formats'> {
  return { formats: useModels().time.formats.value };
}

export function relativeTime(iso: string, { now, formats }: Moment): string {
  const { timeOfDay, weekday, sameYear, otherYear } = formats;
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  const ago = now - time;
  if (ago < -MINUTE) return `at ${timeOfDay.format(time)}`; // in the future: a snooze's end
  if (ago < 45_000) return 'just now';
  if (ago < HOUR) return `${Math.max(1, Math.round(ago / MINUTE))} min ago`;
  if (ago < 12 * HOUR) return `${Math.round(ago / HOUR)} h ago`;
  const days = calendarDaysBetween(time, now);
  if (days === 0) return timeOfDay.format(time);
  if (days === 1) return `Yesterday ${timeOfDay.format(time)}`;
  if (ago < 6 * DAY) return weekday.format(time);
  const date = new Date(time);
  return (date.getFullYear() === new Date(now).getFullYear() ? sameYear : otherYear).format(time);
}

/** The local midnight that starts the day `time` is in. */
export function dayStart(time: number): number {
  const date = new Date(time);
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}

/** Midnights passed from `from` to `to`, in local time. */
function calendarDaysBetween(from: number, to: number): number {
  return Math.round((dayStart(to) - dayStart(from)) / DAY);
}

/**
 * A row's time, which says when at a glance and stays true as the day goes on (unlike "just now"): "14:05" today,
 * "Yesterday 22:10", "Thu 09:12" within the week, then the date and the time.
 */
export function rowTime(iso: string, { now, formats }: Moment): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  const days = calendarDaysBetween(time, now);
  if (days <= 0) return formats.timeOfDay.format(time);
  if (days === 1) return `Yesterday ${formats.timeOfDay.format(time)}`;
  if (days < 7) return formats.weekday.format(time);
  return (new Date(time).getFullYear() === new Date(now).getFullYear() ? formats.dateTime : formats.otherYearTime).format(time);
}

/** The heading of a day's rows: "Today", "Yesterday", the weekday within the week ("Thursday"), else the date. */
export function dayLabel(time: number, { now, formats }: Moment): string {
  const days = calendarDaysBetween(time, now);
  if (days <= 0) return 'Today';
  if (days === 1) return 'Yesterday';
  if (days < 7) return formats.dayName.format(time);
  return (new Date(time).getFullYear() === new Date(now).getFullYear() ? formats.day : formats.otherYearDay).format(time);
}

export function exactTime(iso: string, { formats }: Pick<Moment, 'formats'>): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : formats.exact.format(time);
}

/** "until 14:30" or "until Tue 09:00": when a snooze ends. */
export function untilTime(iso: string, { now, formats }: Moment): string {
  const { timeOfDay, weekday } = formats;
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  return time - now < 12 * HOUR && new Date(time).getDate() === new Date(now).getDate() ? timeOfDay.format(time) : weekday.format(time);
}

/** Minutes from now until 09:00 tomorrow, local time: the snooze "Tomorrow morning". */
export function minutesUntilTomorrowMorning(from = new Date()): number {
  const morning = new Date(from);
  morning.setDate(morning.getDate() + 1);
  morning.setHours(9, 0, 0, 0);
  return Math.max(1, Math.round((morning.getTime() - from.getTime()) / MINUTE));
}

/** A row's time (`rowTime`), with the exact time on hover. */
export function When({ at }: { at: string }): VNode {
  const moment = useTime();
  return (
    <time class="when" dateTime={at} title={exactTime(at, moment)}>
      {rowTime(at, moment)}
    </time>
  );
}
