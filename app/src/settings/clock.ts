// Quiet hours' times of day as the person reads and writes them. The API speaks HH:MM on the 24-hour clock; the page
// speaks the person's own format, the one the rest of the window uses (models/time.ts: "10:30 PM", or "22:30" where
// the language writes it so) — in the list, the status, the form and its messages alike.

import type { DateFormats } from '../models/time.js';

const pad = (number: number): string => String(number).padStart(2, '0');

/** The API's "22:30" as the person reads it: "10:30 PM", or "22:30". */
export function clockTime(hhmm: string, formats: Pick<DateFormats, 'timeOfDay'>): string {
  const match = /^(\d{2}):(\d{2})$/.exec(hhmm);
  if (!match) return hhmm;
  return formats.timeOfDay.format(new Date(2000, 0, 1, Number(match[1]), Number(match[2])));
}

/**
 * A time as a person may type it — "22:30", "7:05", "10:30 PM", "10.30pm", "7 am" — as the API's HH:MM; null when it
 * is not a time of day. An hour alone needs AM or PM (is "7" the morning or the evening?).
 */
export function parseClock(text: string): string | null {
  const match = /^\s*(\d{1,2})(?:\s*[:.h]\s*(\d{2}))?\s*(?:([ap])\.?\s*m\.?)?\s*$/i.exec(text);
  if (!match || (match[2] === undefined && match[3] === undefined)) return null;
  let hours = Number(match[1]);
  const minutes = Number(match[2] ?? 0);
  const half = match[3]?.toLowerCase();
  if (half) {
    if (hours < 1 || hours > 12) return null;
    hours = (hours % 12) + (half === 'p' ? 12 : 0);
  }
  return hours > 23 || minutes > 59 ? null : `${pad(hours)}:${pad(minutes)}`;
}
