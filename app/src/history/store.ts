// History's data as the list paints it. History can hold 200,000 records, so the list never has them all: it says
// which rows it is about to paint (`showRange`) and this store asks the daemon for that window (offset/limit),
// keeps a bounded cache of rows by position, and applies the live events to it — a new notification goes in at
// once, a changed one is updated where it is, one shown again moves to the top.
//
// The pages and the events travel on separate connections, so an event may arrive after a page that already
// counts its row, or a page after events it does not count. Both are numbered (docs/app.md#live-events): the
// rows in memory include the changes up to `known`; an event is applied when it is the next one; a page is stored
// when it includes exactly the changes up to `known` — one ahead waits for the events before it, one behind is
// asked for again.

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
/**
 * Changes kept while no page they follow has come (a daemon that fails to answer while its stream goes on): beyond
 * this the oldest are dropped, and the gap that leaves makes the window load afresh once a page comes.
 */
const EARLY_KEPT = 5000;
/** Rows kept in memory; far-away ones are dropped first (and asked for again when scrolled back to). */
const CACHE_ROWS = 3000;
/**
 * Events in a burst that need the daemon's answer become one fetch: the rows' (a bulk delete, arrivals during a
 * search) this long after the first of them — waiting for the last, a steady stream would put it off for ever —
 * and the apps' (a new app's rows) this long after the last.
 */
const BURST_WAIT_MS = 50;

const rows = new Map<number, HistoryRow>();
const positions = new Map<string, number>();
const keyOf = (app: string, id: string): string => `${app}\u0000${id}`;

interface RowWindow {
  start: number;
  end: number;
  generation: number;
}
/** A live change: its number, and what it does to the rows in memory. */
interface Change {
  seq: number;
  apply: () => void;
}

/** The number of the last change the rows in memory and `total` include; null until a page sets it (a reload). */
let known: number | null = null;
/** The number the live stream began at (the changes after it will come): a page older than that misses some. */
let streamFrom: number | null = null;
/** Changes that arrived before the page they come after, in order. */
let early: Change[] = [];
/** Pages that include changes still on their way: each is stored once they are applied. */
let ahead: Array<{ page: HistoryPage; window: RowWindow }> = [];
let generation = 0;
let pending: RowWindow[] = [];
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
  pending.push(window);
  let page: HistoryPage;
  try {
    page = await call<HistoryPage>(
      'GET',
      withQuery(appPaths.history, { ...filterQuery(), offset: window.start, limit: window.end - window.start }),
      undefined,
      { signal },
    );
  } catch (error) {
    if (!isAbort(error) && window.generation === generation) loadError.value = messageOf(error);
    return forget(window);
  }
  if (window.generation === generation) receive(page, window);
}

/** A page arrived: stored, held until the changes it includes are in, or asked for again (see the top). */
function receive(page: HistoryPage, window: RowWindow): void {
  if (known === null) {
    // The first page after a reload sets what the rows include, unless the stream began after it was read: the
    // changes in between will not come.
    if (streamFrom !== null && page.seq < streamFrom) return void reload({ keepRows: true });
    known = page.seq;
    clearRows();
    store(page, window);
    return catchUp();
  }
  if (page.seq === known) return store(page, window);
  if (page.seq > known) return void ahead.push({ page, window });
  forget(window); // it misses changes the rows in memory include
  refill();
}

function forget(window: RowWindow): void {
  pending = pending.filter((other) => other !== window);
}

/** The rows in view that are not in memory are asked for. */
function refill(): void {
  if (loaded.value) showRange(shownRange.start, shownRange.end);
}

/** Applies the changes that come next, and stores the pages held for them. */
function catchUp(): void {
  while (known !== null) {
    storeHeld(known);
    early = early.filter((change) => change.seq > known!); // a page already included them
    const next = early.shift();
    if (!next) return;
    if (next.seq !== known + 1) return void reload({ keepRows: true }); // some were lost (the stream broke)
    known = next.seq;
    next.apply();
  }
}

function storeHeld(seq: number): void {
  const due = ahead.filter((held) => held.page.seq <= seq);
  if (due.length === 0) return;
  ahead = ahead.filter((held) => held.page.seq > seq);
  for (const held of due) {
    if (held.page.seq === seq) store(held.page, held.window);
    else forget(held.window);
  }
  refill();
}

/** A live change: applied now if it is the next one, kept until its page is in if it came first. */
function follow(seq: number, apply: () => void): void {
  early.push({ seq, apply });
  if (early.length > EARLY_KEPT) early = early.slice(-EARLY_KEPT / 2); // the gap makes the next page a reload
  catchUp();
}

function store(page: HistoryPage, window: RowWindow): void {
  forget(window);
  const at = window.start;
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

function clearRows(): void {
  rows.clear();
  positions.clear();
}

/**
 * Drops everything and fetches the window the list shows (a new filter, a reconnect, a bulk delete). `keepRows`:
 * the rows stay painted until the answer replaces them (the same list, caught up), rather than blinking empty.
 */
export async function reload({ keepRows = false } = {}): Promise<void> {
  generation++;
  reloadAbort?.abort();
  reloadAbort = new AbortController();
  clearTimeout(reloadTimer);
  reloadTimer = undefined;
  known = null;
  ahead = [];
  pending = [];
  if (!keepRows) clearRows();
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
  appsTimer = setTimeout(() => void loadApps(), BURST_WAIT_MS);
}

function onRow(row: HistoryRow): void {
  learnApp(row.app);
  const at = positions.get(keyOf(row.app, row.id));
  if (at !== undefined && rows.get(at)!.deliveredAt === row.deliveredAt) {
    put(at, row); // it changed where it is
    cacheVersion.value++;
    return;
  }
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
  reloadTimer ??= setTimeout(() => void reload({ keepRows: true }), BURST_WAIT_MS);
}

/** The list's data follows the daemon's events from the start (the page title's count needs them everywhere). */
export function followEvents(): void {
  onEvent('row', ({ row, seq }) => follow(seq, () => onRow(row)));
  onEvent('removed', ({ seq, ...removed }) => follow(seq, () => onRemoved(removed)));
  onEvent('unread', ({ unread }) => (unreadTotal.value = unread));
  onEvent('read', ({ seq, ...read }) => follow(seq, () => onAllRead(read)));
  // A stream began: the changes after `seq` will come on it. Rows that include fewer missed some, and after the
  // stream was lost (the daemon may have restarted, numbering anew) everything is asked for again.
  onStreamOpen((again, seq) => {
    early = []; // the last stream's
    streamFrom = seq;
    if (again || (known !== null && known < seq)) void reload({ keepRows: true });
    void loadApps();
  });
}
