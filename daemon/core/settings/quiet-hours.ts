import { randomUUID } from 'node:crypto';
import { errors } from '../../../protocol/errors.js';
import { MAX_QUIET_WINDOWS, QUIET_AD_HOC_MAX_MINUTES, QUIET_SUMMARY_TITLES, QUIET_WINDOW_ID_BYTES } from '../../../protocol/limits.js';
import { log } from '../../log.js';
import type { Document, Store } from '../../store/store.js';

// Quiet hours (docs/api/settings.md#s8, #s9, #s11): scheduled windows and a one-off quiet period, and what they silence at an instant.
// The first part is pure: every function takes `now`, so tests set the clock. The `QuietHours` class at the end
// holds the person's configuration (`quiet-hours.json`), and speaks the summary when a window that asked for
// one ends.

/** Canonical day names, indexed like `Date.getDay()` (Sunday is 0). */
export const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
const DAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** One scheduled window: on `days` (empty: every day) from `start` to `end`, local time. */
export interface QuietWindow {
  id: string;
  days: string[];
  start: string;
  end: string;
  speech: boolean;
  sounds: boolean;
  banners: boolean;
  /** Speak one summary of what came in when the window ends. */
  speakSummary: boolean;
}

/** A one-off quiet period (the tray's "Quiet for an hour", `notifier quiet --for 30`). */
export interface QuietAdHoc {
  until: string;
  speech: boolean;
  sounds: boolean;
  banners: boolean;
}

/** What is stored. */
export interface QuietConfig {
  windows: QuietWindow[];
  adHoc?: QuietAdHoc;
  /** `resume`: the occurrences of windows that end at or before this instant are over. */
  resumedUntil?: string;
}

/** What is silenced at an instant. `until` and `source` only while active. */
export interface QuietStatus {
  active: boolean;
  speech: boolean;
  sounds: boolean;
  banners: boolean;
  until?: string;
  source?: 'window' | 'adhoc' | 'both';
}

/** The reply of GET and PUT /v1/settings/quiet-hours. */
export interface QuietReply {
  windows: QuietWindow[];
  adHoc?: QuietAdHoc;
  status: QuietStatus;
}

const NOTHING: QuietStatus = { active: false, speech: false, sounds: false, banners: false };

// ---------------------------------------------------------------------------------------------------------------
// Times and days.

const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Strict `HH:MM` (00:00 to 23:59) to minutes after midnight; null for anything else. */
export function minutesOfDay(text: string): number | null {
  const match = HH_MM.exec(text);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

/** `mon`, `Mon`, `MON`, `Monday`, `tues` -> `mon`; null when it is not a day. */
export function normalizeDay(name: string): string | null {
  const word = name.trim().toLowerCase();
  if (word.length < 3) return null;
  const index = DAY_NAMES.findIndex((full) => full.startsWith(word));
  return index < 0 ? null : DAYS[index]!;
}

/** Local midnight of the day `offset` days after the day of `date`, at `minutes` after midnight. */
function localTime(date: Date, offset: number, minutes: number): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + offset, Math.floor(minutes / 60), minutes % 60);
}

/**
 * The occurrence of a window that starts on the day `offset` days from `now`, or null when the window does not
 * run that day. A window belongs to the day it starts: Monday 22:30 to 07:30 runs into Tuesday morning.
 */
function occurrenceOn(window: QuietWindow, now: Date, offset: number): { start: Date; end: Date } | null {
  const start = minutesOfDay(window.start);
  const end = minutesOfDay(window.end);
  if (start === null || end === null || start === end) return null;
  const day = localTime(now, offset, 0);
  if (window.days.length > 0 && !window.days.includes(DAYS[day.getDay()]!)) return null;
  return { start: localTime(now, offset, start), end: localTime(now, start < end ? offset : offset + 1, end) };
}

/** The occurrence of a window running at `now` (start inclusive, end exclusive), or null. */
export function occurrence(window: QuietWindow, now: Date): { start: Date; end: Date } | null {
  for (const offset of [0, -1]) {
    const found = occurrenceOn(window, now, offset);
    if (found && found.start <= now && now < found.end) return found;
  }
  return null;
}

/** Occurrences of a window not ended by `resume`. */
function running(config: QuietConfig, window: QuietWindow, now: Date): { start: Date; end: Date } | null {
  const found = occurrence(window, now);
  if (!found) return null;
  return config.resumedUntil !== undefined && found.end.getTime() <= Date.parse(config.resumedUntil) ? null : found;
}

// ---------------------------------------------------------------------------------------------------------------
// Status.

/** What is silenced at `now`: the union of the running windows and an unexpired ad hoc period. */
export function quietStatus(config: QuietConfig, now: Date): QuietStatus {
  let speech = false;
  let sounds = false;
  let banners = false;
  let until = 0;
  let fromWindow = false;
  let fromAdHoc = false;
  for (const window of config.windows) {
    const found = running(config, window, now);
    if (!found) continue;
    fromWindow = true;
    speech ||= window.speech;
    sounds ||= window.sounds;
    banners ||= window.banners;
    until = Math.max(until, found.end.getTime());
  }
  const adHoc = liveAdHoc(config, now);
  if (adHoc) {
    fromAdHoc = true;
    speech ||= adHoc.speech;
    sounds ||= adHoc.sounds;
    banners ||= adHoc.banners;
    until = Math.max(until, Date.parse(adHoc.until));
  }
  // A period that silences nothing is not quiet.
  if (!(speech || sounds || banners)) return { ...NOTHING };
  const source = fromWindow && fromAdHoc ? 'both' : fromWindow ? 'window' : 'adhoc';
  return { active: true, speech, sounds, banners, until: new Date(until).toISOString(), source };
}

function liveAdHoc(config: QuietConfig, now: Date): QuietAdHoc | undefined {
  return config.adHoc && now.getTime() < Date.parse(config.adHoc.until) ? config.adHoc : undefined;
}

/** docs/api/settings.md#s14: `priority: urgent` breaks through quiet hours only for an app the person allowed. */
export function effectiveStatus(status: QuietStatus, priority: string | undefined, urgentBreaksQuiet: boolean): QuietStatus {
  return status.active && urgentBreaksQuiet && priority === 'urgent' ? { ...NOTHING } : status;
}

/** Is a window that asked for a spoken summary (and silences speech) running at `now`? */
export function summaryWindowRunning(config: QuietConfig, now: Date): boolean {
  return config.windows.some((window) => window.speakSummary && window.speech && running(config, window, now) !== null);
}

/** The reply of the quiet-hours routes. An ad hoc period that is over is not shown. */
export function quietReply(config: QuietConfig, now: Date): QuietReply {
  const adHoc = liveAdHoc(config, now);
  return { windows: config.windows, ...(adHoc ? { adHoc } : {}), status: quietStatus(config, now) };
}

/**
 * The next instant after `now` at which the status may change (a window starts or ends, the ad hoc period or a
 * resume runs out), or null when nothing is scheduled.
 */
export function nextChange(config: QuietConfig, now: Date): Date | null {
  const after = now.getTime();
  let next = Infinity;
  const consider = (time: number): void => {
    if (time > after && time < next) next = time;
  };
  for (const window of config.windows) {
    for (let offset = -1; offset <= 7; offset++) {
      const found = occurrenceOn(window, now, offset);
      if (found) {
        consider(found.start.getTime());
        consider(found.end.getTime());
      }
    }
  }
  if (config.adHoc) consider(Date.parse(config.adHoc.until));
  if (config.resumedUntil) consider(Date.parse(config.resumedUntil));
  return next === Infinity ? null : new Date(next);
}

/** "N message(s) while you were away: A, B, C, D, and 2 more"; null when nothing came in. */
export function summaryText(titles: string[]): string | null {
  if (titles.length === 0) return null;
  const clean = titles.map((title) =>
    title
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\s+/g, ' ')
      .trim(),
  );
  const shown = clean.slice(0, QUIET_SUMMARY_TITLES);
  const more = titles.length - shown.length;
  const count = titles.length;
  return `${count} message${count === 1 ? '' : 's'} while you were away: ${shown.join(', ')}${more > 0 ? `, and ${more} more` : ''}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Changes (PUT /v1/settings/quiet-hours). Every problem is a 400 naming the field; nothing is changed then.

const bad = errors.invalidQuietHours;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function flag(source: Record<string, unknown>, key: string, where: string, fallback: boolean): boolean {
  const value = source[key];
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw bad(`${where}.${key} must be true or false`);
  return value;
}

const WINDOW_KEYS = ['id', 'days', 'start', 'end', 'speech', 'sounds', 'banners', 'speakSummary'];
const AD_HOC_KEYS = ['until', 'minutes', 'speech', 'sounds', 'banners'];
const UPDATE_KEYS = ['windows', 'resume', 'adHoc'];

function onlyKnown(source: Record<string, unknown>, known: string[], where: string): void {
  const unknown = Object.keys(source).find((key) => !known.includes(key));
  if (unknown !== undefined) throw bad(`unknown field: ${where}${unknown} (known: ${known.join(', ')})`);
}

/** One window as sent: strict HH:MM, start != end, days forgiving and stored lower-case, flags defaulted. */
function readWindow(raw: unknown, index: number): QuietWindow {
  const where = `windows[${index}]`;
  if (!isObject(raw)) throw bad(`${where} must be an object`);
  onlyKnown(raw, WINDOW_KEYS, `${where}.`);
  let id = raw.id;
  if (id === undefined || id === null) id = randomUUID().toUpperCase();
  if (typeof id !== 'string' || id === '' || Buffer.byteLength(id) > QUIET_WINDOW_ID_BYTES) {
    throw bad(`${where}.id must be a non-empty string of at most ${QUIET_WINDOW_ID_BYTES} bytes`);
  }
  for (const key of ['start', 'end'] as const) {
    const value = raw[key];
    if (typeof value !== 'string' || minutesOfDay(value) === null) throw bad(`${where}.${key} must be HH:MM (24-hour)`);
  }
  const [start, end] = [raw.start as string, raw.end as string];
  if (start === end) throw bad(`${where}: start and end are the same`);
  const rawDays = raw.days ?? [];
  if (!Array.isArray(rawDays)) throw bad(`${where}.days must be an array of day names`);
  const days: string[] = [];
  for (const name of rawDays) {
    const day = typeof name === 'string' ? normalizeDay(name) : null;
    if (day === null) throw bad(`${where}.days: unknown day '${typeof name === 'string' ? name : JSON.stringify(name)}'`);
    if (!days.includes(day)) days.push(day);
  }
  return {
    id,
    days,
    start,
    end,
    speech: flag(raw, 'speech', where, true),
    sounds: flag(raw, 'sounds', where, false),
    banners: flag(raw, 'banners', where, false),
    speakSummary: flag(raw, 'speakSummary', where, false),
  };
}

/** The scheduled windows as sent: at most 24, ids unique. */
export function readWindows(raw: unknown): QuietWindow[] {
  if (!Array.isArray(raw)) throw bad('windows must be an array');
  if (raw.length > MAX_QUIET_WINDOWS) throw bad(`at most ${MAX_QUIET_WINDOWS} windows`);
  const windows = raw.map(readWindow);
  windows.forEach((window, index) => {
    if (windows.findIndex((other) => other.id === window.id) !== index) throw bad(`windows[${index}]: duplicate id`);
  });
  return windows;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** `until`: the next time the clock reads HH:MM (today if still ahead, else tomorrow), or a future ISO 8601 date. */
function readUntil(text: string, now: Date): Date {
  const minutes = minutesOfDay(text);
  if (minutes !== null) {
    const today = localTime(now, 0, minutes);
    return today > now ? today : localTime(now, 1, minutes);
  }
  const match = ISO_DATE.exec(text);
  // A date alone is local midnight (Date.parse would read it as UTC); a date and time without a zone is local.
  const time = !match
    ? NaN
    : text.length === 10
      ? new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])).getTime()
      : Date.parse(text);
  if (Number.isNaN(time)) throw bad('adHoc.until must be HH:MM or an ISO 8601 date');
  if (time <= now.getTime()) throw bad('adHoc.until is in the past');
  return new Date(time);
}

/** A one-off quiet period as sent: `minutes` in (0, 10080] or `until`; speech and sounds silenced by default. */
export function readAdHoc(raw: unknown, now: Date): QuietAdHoc {
  if (!isObject(raw)) throw bad('adHoc must be an object');
  onlyKnown(raw, AD_HOC_KEYS, 'adHoc.');
  const { minutes, until } = raw;
  if (minutes !== undefined && until !== undefined) throw bad('adHoc takes until or minutes, not both');
  let end: Date;
  if (minutes !== undefined) {
    if (typeof minutes !== 'number' || !(minutes > 0 && minutes <= QUIET_AD_HOC_MAX_MINUTES)) {
      throw bad(`adHoc.minutes must be greater than 0 and at most ${QUIET_AD_HOC_MAX_MINUTES}`);
    }
    end = new Date(now.getTime() + minutes * 60_000);
  } else if (typeof until === 'string' && until !== '') {
    end = readUntil(until, now);
  } else if (until !== undefined) {
    throw bad('adHoc.until must be HH:MM or an ISO 8601 date');
  } else {
    throw bad('adHoc needs until or minutes');
  }
  return {
    until: end.toISOString(),
    speech: flag(raw, 'speech', 'adHoc', true),
    sounds: flag(raw, 'sounds', 'adHoc', true),
    banners: flag(raw, 'banners', 'adHoc', false),
  };
}

/** "Resume": ends the ad hoc period and the current occurrence of every running window. */
export function resume(config: QuietConfig, now: Date): QuietConfig {
  const { adHoc: _, ...rest } = config;
  const ends = config.windows.map((window) => occurrence(window, now)?.end.getTime() ?? 0);
  const latest = Math.max(0, ...ends, config.resumedUntil ? Date.parse(config.resumedUntil) : 0);
  return latest > 0 ? { ...rest, resumedUntil: new Date(latest).toISOString() } : rest;
}

/**
 * A PUT body applied to `config`: `windows` (replaces the schedule), then `resume`, then `adHoc`, so one request
 * can end the current period and start another. Everything is checked before anything changes.
 */
export function updateQuietHours(config: QuietConfig, body: Record<string, unknown>, now: Date): QuietConfig {
  onlyKnown(body, UPDATE_KEYS, '');
  if (body.resume !== undefined && typeof body.resume !== 'boolean') throw bad('resume must be true or false');
  const windows = body.windows === undefined ? undefined : readWindows(body.windows);
  const adHoc = body.adHoc === undefined ? undefined : readAdHoc(body.adHoc, now);
  let next: QuietConfig = config;
  if (windows) {
    // A resume was about the windows being replaced.
    const { resumedUntil: _, ...rest } = next;
    next = { ...rest, windows };
  }
  if (body.resume === true) next = resume(next, now);
  if (adHoc) next = { ...next, adHoc };
  return next;
}

// ---------------------------------------------------------------------------------------------------------------
// The person's quiet hours, kept in `quiet-hours.json`.

/** Longest wait between two looks at the clock: a wall clock set forward or back is noticed within this. */
const LONGEST_WAIT_MS = 10 * 60_000;

export interface QuietHoursOptions {
  /** Epoch milliseconds now; tests move it. */
  clock?: () => number;
  /** Says the end-of-window summary. */
  onSummary: (text: string) => void;
}

/**
 * Quiet hours as the daemon lives them: the stored configuration, a timer at the next moment the status can
 * change, and the titles that came in while a window asking for a summary ran. When speech becomes audible again
 * after such a window (it ended, or the person resumed), the summary is said once. The titles are kept in memory
 * only: a restart during the window forgets them.
 */
export class QuietHours {
  private timer: NodeJS.Timeout | null = null;
  private held: string[] = [];
  private readonly listeners = new Set<() => void>();
  private wasSpeechQuiet: boolean;

  private constructor(
    private readonly store: Store,
    private readonly document: Document<QuietConfig>,
    private readonly clock: () => number,
    private readonly onSummary: (text: string) => void,
  ) {
    this.wasSpeechQuiet = this.status().speech;
    this.arm();
  }

  static async open(store: Store, options: QuietHoursOptions): Promise<QuietHours> {
    const document = await store.open<QuietConfig>('quiet-hours.json', { windows: [] });
    const clock = options.clock ?? Date.now;
    document.data = loaded(document.data, new Date(clock()));
    return new QuietHours(store, document, clock, options.onSummary);
  }

  private get config(): QuietConfig {
    return this.document.data;
  }

  now(): Date {
    return new Date(this.clock());
  }

  reply(): QuietReply {
    return quietReply(this.config, this.now());
  }

  /** What is silenced now. */
  status(): QuietStatus {
    return quietStatus(this.config, this.now());
  }

  /** What is silenced now for one notification: all of it, or nothing for an urgent one its app lets through. */
  statusFor(priority: string | undefined, urgentBreaksQuiet: boolean): QuietStatus {
    return effectiveStatus(this.status(), priority, urgentBreaksQuiet);
  }

  /** Remembers a notification that came in quietly, for the summary of a window that asked for one. */
  noteQuieted(title: string): void {
    if (summaryWindowRunning(this.config, this.now())) this.held.push(title);
  }

  /** PUT /v1/settings/quiet-hours: all or nothing; answered once it is on disk. */
  async update(body: Record<string, unknown>): Promise<QuietReply> {
    const reply = this.change(updateQuietHours(this.config, body, this.now()));
    await this.store.save(this.document);
    return reply;
  }

  /** The tray: quiet (speech and sounds) for `minutes`, at most a week; 0 resumes. Saved in the background. */
  quietFor(minutes: number): { quietUntil: string | null } {
    const body = minutes > 0 ? { adHoc: { minutes: Math.min(minutes, QUIET_AD_HOC_MAX_MINUTES) } } : { resume: true };
    const reply = this.change(updateQuietHours(this.config, body, this.now()));
    this.store.save(this.document).catch((error: Error) => log.error(`quiet-hours.json: ${error.message}`));
    return { quietUntil: reply.adHoc?.until ?? null };
  }

  private change(config: QuietConfig): QuietReply {
    this.document.data = config;
    this.tick();
    return this.reply();
  }

  /**
   * Calls back whenever the status may have changed: a change through the API or the tray, or the clock reaching a
   * window's start or end. Returns a function that stops.
   */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Looks at the clock: says the summary when speech just became audible again, and waits for the next change. */
  tick(): void {
    const speechQuiet = this.status().speech;
    if (this.wasSpeechQuiet && !speechQuiet) {
      const text = summaryText(this.held);
      this.held = [];
      if (text) this.onSummary(text);
    }
    this.wasSpeechQuiet = speechQuiet;
    this.arm();
    for (const listener of this.listeners) listener();
  }

  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const now = this.now();
    const next = nextChange(this.config, now);
    if (next === null) return;
    this.timer = setTimeout(() => this.tick(), Math.min(next.getTime() - now.getTime(), LONGEST_WAIT_MS));
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/** The stored configuration, checked as a PUT would be; what does not pass is dropped with a warning. */
function loaded(data: unknown, now: Date): QuietConfig {
  if (!isObject(data)) return { windows: [] };
  let windows: QuietWindow[] = [];
  try {
    windows = readWindows(data.windows ?? []);
  } catch (error) {
    log.warn(`quiet-hours.json: the windows are ignored: ${(error as Error).message}`);
  }
  const config: QuietConfig = { windows };
  const adHoc = data.adHoc;
  if (
    isObject(adHoc) &&
    typeof adHoc.until === 'string' &&
    !Number.isNaN(Date.parse(adHoc.until)) &&
    Date.parse(adHoc.until) > now.getTime()
  ) {
    config.adHoc = { until: adHoc.until, speech: adHoc.speech !== false, sounds: adHoc.sounds !== false, banners: adHoc.banners === true };
  }
  if (typeof data.resumedUntil === 'string' && !Number.isNaN(Date.parse(data.resumedUntil))) config.resumedUntil = data.resumedUntil;
  return config;
}
