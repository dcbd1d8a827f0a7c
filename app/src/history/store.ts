// History's data as the list paints it. History can hold 200,000 records, so the list never has them all: it says
// which rows it is about to paint (`showRange`) and this store asks the daemon for that window (offset/limit),
// keeps a bounded cache of rows by position, and applies the live events to it — a new notification goes on top
// at once, a changed one is updated where it is.

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
import { onEvent, onReconnect } from '../live.js';

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
/** Bumped when a row went on top: a list scrolled down keeps its rows where they were. */
export const prepended = signal(0);
export const apps = signal<AppSummary[]>([]);

/** How many rows one request asks for beyond what is painted, and at most (the API's limit). */
const FETCH_MARGIN = 30;
/** Rows kept in memory; far-away ones are dropped first (and asked for again when scrolled back to). */
const CACHE_ROWS = 3000;

const rows = new Map<number, HistoryRow>();
const positions = new Map<string, number>();
const keyOf = (app: string, id: string): string => `${app}\u0000${id}`;

/** Rows put on top since the cache was reset: a window asked for before is stored that many places lower. */
let shift = 0;
let generation = 0;
let pending: Array<{ start: number; end: number; shift: number; generation: number }> = [];
let shownRange = { start: 0, end: 40 };
let newest = '';
let searchAbort: AbortController | undefined;

export function rowAt(position: number): HistoryRow | undefined {
  return rows.get(position);
}

export function positionOf(app: string, id: string): number | undefined {
  return positions.get(keyOf(app, id));
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
  return pending.some(
    (window) =>
      window.generation === generation && position >= window.start + shift - window.shift && position < window.end + shift - window.shift,
  );
}

async function fetchWindow(start: number, end: number, signal?: AbortSignal): Promise<void> {
  const window = { start, end: Math.min(end, start + APP_HISTORY_LIMIT.max), shift, generation };
  pending.push(window);
  let retry = false;
  try {
    const page = await call<HistoryPage>(
      'GET',
      withQuery(appPaths.history, { ...filterQuery(), offset: window.start, limit: window.end - window.start }),
      undefined,
      { signal },
    );
    if (window.generation !== generation) return;
    // Rows came on top while it travelled: whether the daemon counted them is unknown, so ask again.
    if (window.shift !== shift) retry = true;
    else store(page, window.start);
  } catch (error) {
    if (!isAbort(error) && window.generation === generation) loadError.value = messageOf(error);
  } finally {
    pending = pending.filter((other) => other !== window);
  }
  if (retry) showRange(shownRange.start, shownRange.end);
}

function store(page: HistoryPage, at: number): void {
  batch(() => {
    page.items.forEach((row, index) => put(at + index, row));
    if (at === 0 && page.items[0] && page.items[0].deliveredAt > newest) newest = page.items[0].deliveredAt;
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
  searchAbort?.abort();
  searchAbort = new AbortController();
  rows.clear();
  positions.clear();
  pending = [];
  shift = 0;
  newest = '';
  const { start, end } = shownRange;
  const size = Math.max(end - start, 1) + FETCH_MARGIN;
  await fetchWindow(0, Math.max(end, size) + FETCH_MARGIN, searchAbort.signal);
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

function onRow(row: HistoryRow): void {
  const at = positions.get(keyOf(row.app, row.id));
  if (at !== undefined) {
    put(at, row);
    cacheVersion.value++;
    return;
  }
  if (!loaded.value || row.deliveredAt < newest) return; // a change to a row not in view: fetched when scrolled to
  const fits = matches(row, filters.value);
  if (fits === undefined) scheduleReload();
  else if (fits) putOnTop(row);
}

function putOnTop(row: HistoryRow): void {
  const moved = [...rows.entries()].sort((a, b) => b[0] - a[0]);
  batch(() => {
    rows.clear();
    positions.clear();
    for (const [position, old] of moved) put(position + 1, old);
    put(0, row);
    shift++;
    newest = row.deliveredAt;
    total.value++;
    prepended.value++;
    cacheVersion.value++;
  });
}

function onRemoved(removed: { app?: string; id?: string }): void {
  const at = removed.app && removed.id ? positions.get(keyOf(removed.app, removed.id)) : undefined;
  if (at === undefined) {
    scheduleReload();
    return;
  }
  const moved = [...rows.entries()].sort((a, b) => a[0] - b[0]);
  batch(() => {
    rows.clear();
    positions.clear();
    for (const [position, old] of moved) if (position !== at) put(position > at ? position - 1 : position, old);
    shift--;
    total.value = Math.max(0, total.value - 1);
    cacheVersion.value++;
  });
}

let reloadTimer: ReturnType<typeof setTimeout> | undefined;
/** Several events in a burst (a bulk delete, arrivals during a search) become one fetch. */
function scheduleReload(): void {
  clearTimeout(reloadTimer);
  reloadTimer = setTimeout(() => void reload(), 50);
}

/** The list's data follows the daemon's events from the start (the page title's count needs them everywhere). */
export function followEvents(): void {
  onEvent('row', ({ row }) => onRow(row));
  onEvent('removed', onRemoved);
  onEvent('unread', ({ unread }) => (unreadTotal.value = unread));
  onReconnect(() => {
    void reload();
    void loadApps();
  });
}
