// History's data as the list paints it. History can hold 200,000 records, so the list never has them all: it says
// which rows it is about to paint (`showRange`) and this store asks the daemon for that window (offset/limit),
// keeps a bounded cache of rows by position, and applies the live events to it — a new notification goes in at
// once, a changed one is updated where it is, one shown again moves to the top.

import { batch, signal } from '@preact/signals';
import {
  APP_HISTORY_LIMIT,
  appPaths,
  type AppsAnswer,
  type AppSummary,
  type HistoryPage,
  type HistoryRow,
  type HistoryStateFilter,
} from '../../../protocol/app-api.js';
import { call, isAbort, messageOf, withQuery } from '../api.js';
import { onEvent, onStreamOpen } from '../live.js';

export interface Filters {
  q: string;
  app: string;
  state: HistoryStateFilter;
  /** `YYYY-MM-DD` (an <input type=date>), or empty. */
  from: string;
  to: string;
}

export const NO_FILTERS: Filters = { q: '', app: '', state: 'all', from: '', to: '' };

export const filters = signal<Filters>(NO_FILTERS);
/** Records matching the filters. */
export const total = signal(0);
/** Unread records in all of History: the page title's count. */
export const unreadTotal = signal(0);
/** The first window arrived (until then the list says it is loading, not that History is empty). */
export const loaded = signal(false);
export const loadError = signal('');
/** Bumped whenever a cached row changes: the list re-reads the cache. */
export const cacheVersion = signal(0);
/** A row went in at `position` (`serial` tells one from the next): a list scrolled past it keeps its rows in place. */
export const inserted = signal({ serial: 0, position: 0 });
export const apps = signal<AppSummary[]>([]);

/** How many rows one request asks for beyond what is painted. */
const FETCH_MARGIN = 30;
/** Rows kept in memory; far-away ones are dropped first (and asked for again when scrolled back to). */
const CACHE_ROWS = 3000;
/** Events in a burst that need the daemon's answer (a bulk delete, arrivals during a search) become one fetch. */
const RELOAD_DEBOUNCE_MS = 50;

const rows = new Map<number, HistoryRow>();
const positions = new Map<string, number>();
const keyOf = (app: string, id: string): string => `${app}\u0000${id}`;

/** Rows put in or taken out since the cache was reset: a window asked for before may no longer fit. */
let moves = 0;
let generation = 0;
let pending: Array<{ start: number; end: number; generation: number }> = [];
/** The window asked for first, before the list knows its height: rows 0-69 (40, and the margin). */
const FIRST_WINDOW = { offset: 0, limit: 70 } as const;
let shownRange = { start: 0, end: FIRST_WINDOW.limit - FETCH_MARGIN };
let reloadAbort: AbortController | undefined;

export function rowAt(position: number): HistoryRow | undefined {
  return rows.get(position);
}

/** A search or a filter narrows the list (its count is of the matches, not of History). */
export function isFiltered(current = filters.value): boolean {
  return Boolean(current.q.trim() || current.app || current.state !== 'all' || current.from || current.to);
}

/** The query of the current filters (the list's and the export's). */
export function filterQuery(current = filters.value): Record<string, string | undefined> {
  return {
    q: current.q.trim() || undefined,
    app: current.app || undefined,
    state: current.state === 'all' ? undefined : current.state,
    from: current.from || undefined,
    to: current.to || undefined,
  };
}

/** The list paints rows `[start, end)`: fetch what of it is missing. */
export function showRange(start: number, end: number): void {
  shownRange = { start, end };
  if (!loaded.value) return; // the first window is on its way
  let first = -1;
  let last = -1;
  for (let position = start; position < Math.min(end, total.value); position++) {
    if (rows.has(position) || isPending(position)) continue;
    if (first < 0) first = position;
    last = position;
  }
  if (first >= 0) void fetchWindow(Math.max(0, first - FETCH_MARGIN), last + 1 + FETCH_MARGIN);
}

function isPending(position: number): boolean {
  return pending.some((window) => window.generation === generation && position >= window.start && position < window.end);
}

async function fetchWindow(start: number, end: number, signal?: AbortSignal): Promise<void> {
  const window = { start, end: Math.min(end, start + APP_HISTORY_LIMIT.max), generation };
  const movesBefore = moves;
  pending.push(window);
  let stale = false;
  try {
    const page = await call<HistoryPage>(
      'GET',
      withQuery(appPaths.history, { ...filterQuery(), offset: window.start, limit: window.end - window.start }),
      undefined,
      { signal },
    );
    if (window.generation !== generation) return;
    // Rows went in or out while it travelled: whether the daemon counted them is unknown, so ask again.
    if (moves !== movesBefore) stale = true;
    else store(page, window.start);
  } catch (error) {
    if (!isAbort(error) && window.generation === generation) loadError.value = messageOf(error);
  } finally {
    pending = pending.filter((other) => other !== window);
  }
  if (stale) {
    if (loaded.value) showRange(shownRange.start, shownRange.end);
    else scheduleReload();
  }
}

function store(page: HistoryPage, at: number): void {
  batch(() => {
    page.items.forEach((row, index) => put(at + index, row));
    total.value = page.total;
    unreadTotal.value = page.unread;
    loaded.value = true;
    loadError.value = '';
    evictFarRows();
    cacheVersion.value++;
  });
}

function put(position: number, row: HistoryRow): void {
  const old = rows.get(position);
  if (old) positions.delete(keyOf(old.app, old.id));
  rows.set(position, row);
  positions.set(keyOf(row.app, row.id), position);
}

/** Every cached row from `from` on moves `by` places (one went in or out above them). */
function moveRows(from: number, by: number): void {
  const moved = [...rows.entries()].filter(([position]) => position >= from).sort((a, b) => (by > 0 ? b[0] - a[0] : a[0] - b[0]));
  for (const [position] of moved) rows.delete(position);
  for (const [position, row] of moved) put(position + by, row);
  moves++;
}

function insertAt(position: number, row: HistoryRow): void {
  moveRows(position, 1);
  put(position, row);
  total.value++;
  inserted.value = { serial: inserted.value.serial + 1, position };
}

function removeAt(position: number): void {
  const row = rows.get(position);
  if (row) positions.delete(keyOf(row.app, row.id));
  rows.delete(position);
  moveRows(position + 1, -1);
  total.value = Math.max(0, total.value - 1);
}

function evictFarRows(): void {
  if (rows.size <= CACHE_ROWS) return;
  const middle = (shownRange.start + shownRange.end) / 2;
  const far = [...rows.keys()].sort((a, b) => Math.abs(b - middle) - Math.abs(a - middle));
  for (const position of far.slice(0, rows.size - CACHE_ROWS / 2)) {
    const row = rows.get(position)!;
    rows.delete(position);
    positions.delete(keyOf(row.app, row.id));
  }
}

/** Drops everything and fetches the window the list shows (a new filter, a reconnect, a bulk delete). */
export async function reload(): Promise<void> {
  generation++;
  reloadAbort?.abort();
  reloadAbort = new AbortController();
  rows.clear();
  positions.clear();
  pending = [];
  const start = Math.max(0, shownRange.start - FETCH_MARGIN);
  await fetchWindow(start, Math.max(shownRange.end, start + 1) + FETCH_MARGIN, reloadAbort.signal);
}

export function setFilters(change: Partial<Filters>): void {
  filters.value = { ...filters.value, ...change };
  shownRange = { start: 0, end: shownRange.end - shownRange.start };
  void reload();
}

export async function loadApps(): Promise<void> {
  try {
    apps.value = (await call<AppsAnswer>('GET', appPaths.apps)).apps;
  } catch {
    // the app filter lists what it knows; History itself still works
  }
}

/** Whether a row that just arrived belongs in the list as filtered (`undefined`: only the daemon knows). */
function matches(row: HistoryRow, current: Filters): boolean | undefined {
  if (current.app && row.app !== current.app) return false;
  if (current.state === 'unread' && row.read) return false;
  if (current.state === 'waiting' && !row.state.waiting) return false;
  if (current.state === 'replied' && !row.state.replied) return false;
  if (current.state === 'failed' && !row.state.failed) return false;
  const delivered = Date.parse(row.deliveredAt);
  if (current.from && delivered < new Date(`${current.from}T00:00:00`).getTime()) return false;
  if (current.to && delivered > new Date(`${current.to}T23:59:59.999`).getTime()) return false;
  return current.q.trim() === '' ? true : undefined; // the search's words are the daemon's to match
}

/** How many rows from the top are in memory without a gap. */
function knownTop(): number {
  let count = 0;
  while (rows.has(count)) count++;
  return count;
}

/**
 * Where a row not in memory goes, newest first; `undefined` when that is below the rows known from the top (a row
 * there may be one that changed rather than one that arrived: only the daemon knows).
 */
function placeFor(row: HistoryRow): number | undefined {
  const top = knownTop();
  for (let position = 0; position < top; position++) if (rows.get(position)!.deliveredAt <= row.deliveredAt) return position;
  return top === total.value ? top : undefined;
}

let appsTimer: ReturnType<typeof setTimeout> | undefined;
/** A row of an app not known yet: the apps (the filter's choices, their icons) are asked for again, once a burst is over. */
function learnApp(app: string): void {
  if (apps.value.some((known) => known.app === app)) return;
  clearTimeout(appsTimer);
  appsTimer = setTimeout(() => void loadApps(), RELOAD_DEBOUNCE_MS);
}

function onRow(row: HistoryRow): void {
  learnApp(row.app);
  const at = positions.get(keyOf(row.app, row.id));
  if (at !== undefined && rows.get(at)!.deliveredAt === row.deliveredAt) {
    put(at, row); // it changed where it is
    cacheVersion.value++;
    return;
  }
  if (!loaded.value) return scheduleReload();
  batch(() => {
    if (at !== undefined) removeAt(at); // shown again, or replaced: it moves to where its new time puts it
    const fits = matches(row, filters.value);
    const place = fits ? placeFor(row) : undefined;
    if (place !== undefined) insertAt(place, row);
    else if (fits !== false) scheduleReload();
    cacheVersion.value++;
  });
}

function onRemoved(removed: { app?: string; id?: string }): void {
  const at = removed.app && removed.id ? positions.get(keyOf(removed.app, removed.id)) : undefined;
  if (at === undefined) return scheduleReload();
  batch(() => {
    removeAt(at);
    cacheVersion.value++;
  });
}

/** Every record of an app (or of every app) was marked read: the rows in memory say so at once. */
function onAllRead({ app }: { app?: string }): void {
  if (filters.value.state === 'unread') return scheduleReload(); // they leave the list
  for (const [position, row] of rows) if (!row.read && (app === undefined || row.app === app)) rows.set(position, { ...row, read: true });
  cacheVersion.value++;
}

let reloadTimer: ReturnType<typeof setTimeout> | undefined;
function scheduleReload(): void {
  clearTimeout(reloadTimer);
  reloadTimer = setTimeout(() => void reload(), RELOAD_DEBOUNCE_MS);
}

/** The list's data follows the daemon's events from the start (the page title's count needs them everywhere). */
export function followEvents(): void {
  onEvent('row', ({ row }) => onRow(row));
  onEvent('removed', onRemoved);
  onEvent('unread', ({ unread }) => (unreadTotal.value = unread));
  onEvent('read', onAllRead);
  // The stream opened: what the first fetch answered may have missed an event, so the rows in view are asked for
  // again over what is shown; after the stream was lost, everything is (rows elsewhere may have changed too).
  onStreamOpen((again) => {
    if (again) void reload();
    else void fetchWindow(Math.max(0, shownRange.start - FETCH_MARGIN), shownRange.end + FETCH_MARGIN);
    void loadApps();
  });
}
