// History's data as the list paints it. History can hold 200,000 records, so the list never has them all: it says
// which rows it is about to paint (`showRange`) and this model asks the daemon for that window (offset/limit),
// keeps a bounded cache of rows by position, and applies the live events to it — a new notification goes in at
// once, a changed one is updated where it is, one shown again moves to the top.
//
// The pages and the events travel on separate connections, so an event may arrive after a page that already
// counts its row, or a page after events it does not count. Both are numbered (docs/app.md#live-events): the
// rows in memory include the changes up to `known`; an event is applied when it is the next one; a page is stored
// when it includes exactly the changes up to `known` — one ahead waits for the events before it, one behind is
// asked for again.

import { batch, computed, createModel, signal } from '@preact/signals';
import {
  APP_HISTORY_LIMIT,
  appPaths,
  type HistoryPage,
  type HistoryRow,
  type HistoryStateFilter,
  inHistoryState,
  type DeleteAnswer,
  type DeleteRequest,
  type OkAnswer,
  type ReadAllAnswer,
  type ReadAllRequest,
  type ReadAnswer,
  type MarkRequest,
  SELECTION_MAX,
  type UndoRequest,
} from '../../../protocol/app-api.js';
import { type Clock, type LiveEvents, type Requests, whileAlive } from './dependencies.js';
import { isAbort, messageOf, withQuery } from './requests.js';
import { recordKey } from '../../../protocol/record-key.js';
import type { DatePreset } from './history-dates.js';
import { appGroups } from './history-groups.js';

export interface Filters {
  q: string;
  app: string;
  state: HistoryStateFilter;
  /** `YYYY-MM-DD`, or empty: set by the preset, or typed with `dates: 'custom'`. */
  from: string;
  to: string;
  /** The choice beside the dates (models/history-dates.ts); the daemon is sent only `from` and `to`. */
  dates: DatePreset;
}

export const NO_FILTERS: Filters = { q: '', app: '', state: 'all', from: '', to: '', dates: 'any' };

/** What a row is called wherever it is shown: its title, else its body's first line. */
export const titleOf = (row: Pick<HistoryRow, 'title' | 'firstLine'>): string => row.title || row.firstLine || '(no title)';

/** What History is given: the API, the live events, and the clock its bursts are timed by. */
export interface HistoryDependencies {
  api: Requests;
  events: LiveEvents;
  clock: Clock;
}

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
 * A Shift range selects at most this many rows: the rows between its ends that are not in memory are fetched
 * (APP_HISTORY_LIMIT.max at a time); for more, an app's Clear and Delete all of History are there.
 */
export const RANGE_MAX = SELECTION_MAX;
/**
 * Events in a burst that need the daemon's answer (a bulk delete, arrivals during a search) become one fetch of the
 * rows, this long after the first of them: waiting for the last, a steady stream would put it off for ever.
 */
const BURST_WAIT_MS = 50;
/** How long the window offers to take back a deletion, a Mark all read or a dismissal (the daemon keeps it longer). */
export const UNDO_OFFERED_MS = 10_000;

/** What the window offers to take back: what was done, in words, and the daemon's token that undoes it. */
export interface UndoOffer {
  text: string;
  token: string;
  /** Tells one offer from the next with the same words: each is read out anew. */
  serial: number;
}

/** The window asked for first, before the list knows its height: rows 0-69 (40, and the margin). */
const FIRST_WINDOW = { offset: 0, limit: 70 } as const;

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

/** Whether a row that just arrived belongs in the list as filtered (`undefined`: only the daemon knows). */
function matches(row: HistoryRow, current: Filters): boolean | undefined {
  if (current.app && row.app !== current.app) return false;
  if (!inHistoryState(current.state, row)) return false; // the daemon's own rule
  const delivered = Date.parse(row.deliveredAt);
  if (current.from && delivered < new Date(`${current.from}T00:00:00`).getTime()) return false;
  if (current.to && delivered > new Date(`${current.to}T23:59:59.999`).getTime()) return false;
  return current.q.trim() === '' ? true : undefined; // the search's words are the daemon's to match
}

export const HistoryModel = createModel(({ api, events, clock }: HistoryDependencies) => {
  const filters = signal<Filters>(NO_FILTERS);
  /** Records matching the filters. */
  const total = signal(0);
  /** Unread records in all of History: the page title's count. */
  const unreadTotal = signal(0);
  /**
   * The number of the change the count includes. The count comes from pages, answers and events that travel on
   * separate connections (an answer may arrive after the stream's newer count): an older one is ignored.
   */
  let unreadSeq = -1;
  const tellUnread = ({ unread, seq }: { unread: number; seq: number }): void => {
    if (seq < unreadSeq) return;
    unreadSeq = seq;
    unreadTotal.value = unread;
  };
  /** The first window arrived (until then the list says it is loading, not that History is empty). */
  const loaded = signal(false);
  const loadError = signal('');
  /** Bumped whenever a cached row changes: the list re-reads the cache. */
  const cacheVersion = signal(0);
  /** A row went in at `position` (`serial` tells one from the next): a list scrolled past it keeps its rows in place. */
  const inserted = signal({ serial: 0, position: 0 });
  /** The query of the current filters (the list's and the export's). */
  const query = computed(() => {
    const current = filters.value;
    return {
      q: current.q.trim() || undefined,
      app: current.app || undefined,
      state: current.state === 'all' ? undefined : current.state,
      from: current.from || undefined,
      to: current.to || undefined,
    };
  });

  /** The rows the person selected (by recordKey), for Mark read, Mark unread or Delete together. */
  const selection = signal<ReadonlyMap<string, HistoryRow>>(new Map());
  /** The row a Shift+click selects from: the one clicked (or toggled with Space) last. */
  let anchor: string | null = null;
  /** The notification whose details are open, once read: what the keys act on when no row has the focus. */
  const opened = signal<HistoryRow | null>(null);
  /** `r` asked to reply to this notification (recordKey): its details put the focus in the reply field once open. */
  const replyWanted = signal<string | null>(null);
  const undo = signal<UndoOffer | null>(null);
  let undoSerial = 0;
  let cancelOffer = (): void => undefined;

  /** Offers Undo for a while; a newer offer replaces it. */
  function offer(text: string, token: string): void {
    cancelOffer();
    const made = { text, token, serial: ++undoSerial };
    undo.value = made;
    cancelOffer = clock.after(UNDO_OFFERED_MS, () => {
      if (undo.peek() === made) undo.value = null;
    });
  }

  /** Selected rows that are gone leave the selection (one row, an app's, or all). */
  function unselect(removed: { app?: string; id?: string }): void {
    const current = selection.peek();
    const gone = [...current.keys()].filter((key) => {
      const row = current.get(key)!;
      return (removed.app === undefined || row.app === removed.app) && (removed.id === undefined || row.id === removed.id);
    });
    if (gone.length === 0) return;
    const next = new Map(current);
    for (const key of gone) next.delete(key);
    selection.value = next;
  }

  /** "Group by app": the list shows each app's newest rows (models/history-groups.ts) instead of the window. */
  const groupByApp = signal(false);
  const grouped = appGroups({ api, events, clock }, query, groupByApp);

  const rows = new Map<number, HistoryRow>();
  const positions = new Map<string, number>();
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
  let shownRange = { start: 0, end: FIRST_WINDOW.limit - FETCH_MARGIN };
  let reloadAbort: AbortController | undefined;
  let cancelReload: (() => void) | undefined;

  /** The list paints rows `[start, end)`: fetch what of it is missing. */
  function showRange(start: number, end: number): void {
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

  /** The request for the rows at positions `[start, end)` under the filters shown. */
  const rowsPath = (start: number, end: number): string =>
    withQuery(appPaths.history, { ...query.peek(), offset: start, limit: end - start });

  async function fetchWindow(start: number, end: number, signal?: AbortSignal): Promise<void> {
    const window = { start, end: Math.min(end, start + APP_HISTORY_LIMIT.max), generation };
    pending.push(window);
    let page: HistoryPage;
    try {
      page = await api.call<HistoryPage>('GET', rowsPath(window.start, window.end), undefined, { signal });
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
      tellUnread(page);
      loaded.value = true;
      loadError.value = '';
      evictFarRows();
      cacheVersion.value++;
    });
  }

  function put(position: number, row: HistoryRow): void {
    const old = rows.get(position);
    if (old) positions.delete(recordKey(old.app, old.id));
    rows.set(position, row);
    positions.set(recordKey(row.app, row.id), position);
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
    if (row) positions.delete(recordKey(row.app, row.id));
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
      positions.delete(recordKey(row.app, row.id));
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
  async function reload({ keepRows = false } = {}): Promise<void> {
    generation++;
    reloadAbort?.abort();
    reloadAbort = new AbortController();
    cancelReload?.();
    cancelReload = undefined;
    known = null;
    ahead = [];
    pending = [];
    if (!keepRows) clearRows();
    const start = Math.max(0, shownRange.start - FETCH_MARGIN);
    await fetchWindow(start, Math.max(shownRange.end, start + 1) + FETCH_MARGIN, reloadAbort.signal);
  }

  function scheduleReload(): void {
    cancelReload ??= clock.after(BURST_WAIT_MS, () => void reload({ keepRows: true }));
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

  function onRow(row: HistoryRow): void {
    const at = positions.get(recordKey(row.app, row.id));
    if (at !== undefined && rows.get(at)!.deliveredAt === row.deliveredAt) {
      put(at, row); // it changed where it is
      cacheVersion.value++;
      return;
    }
    batch(() => {
      if (at !== undefined) removeAt(at); // shown again, or replaced: it moves to where its new time puts it
      const fits = matches(row, filters.peek());
      const place = fits ? placeFor(row) : undefined;
      if (place !== undefined) insertAt(place, row);
      else if (fits !== false) scheduleReload();
      cacheVersion.value++;
    });
  }

  function onRemoved(removed: { app?: string; id?: string }): void {
    if (selection.peek().size > 0) unselect(removed);
    const at = removed.app && removed.id ? positions.get(recordKey(removed.app, removed.id)) : undefined;
    if (at === undefined) return scheduleReload();
    batch(() => {
      removeAt(at);
      cacheVersion.value++;
    });
  }

  /**
   * Every record of an app (or of every app) was marked read: the rows in memory say so at once. Its read state put
   * back (an Undo): only the daemon knows which were unread, so the rows are asked for again.
   */
  function onAllRead({ app, restored }: { app?: string; restored?: true }): void {
    if (restored || filters.peek().state === 'unread') return scheduleReload(); // they leave the list, or come back
    for (const [position, row] of rows) if (!row.read && (app === undefined || row.app === app)) rows.set(position, { ...row, read: true });
    cacheVersion.value++;
  }

  // The list's data follows the daemon's events from the start (the page title's count needs them everywhere).
  whileAlive(
    () => events.on('row', ({ row, seq }) => follow(seq, () => onRow(row))),
    () => events.on('removed', ({ seq, ...removed }) => follow(seq, () => onRemoved(removed))),
    () => events.on('unread', tellUnread),
    () => events.on('read', ({ seq, ...read }) => follow(seq, () => onAllRead(read))),
    // A stream began: the changes after `seq` will come on it. Rows that include fewer missed some, and after the
    // stream was lost (the daemon may have restarted, numbering anew) everything is asked for again.
    () =>
      events.onOpen((again, seq) => {
        early = []; // the last stream's
        streamFrom = seq;
        unreadSeq = -1; // a daemon that restarted numbers its changes anew; the stream's count comes next
        if (again || (known !== null && known < seq)) void reload({ keepRows: true });
      }),
  );

  return {
    filters,
    groupByApp,
    groups: grouped.groups,
    groupsProblem: grouped.problem,
    total,
    unreadTotal,
    loaded,
    loadError,
    cacheVersion,
    inserted,
    query,
    /** A search or a filter narrows the list (its count is of the matches, not of History). */
    filtered: computed(() => {
      const current = filters.value;
      return Boolean(current.q.trim() || current.app || current.state !== 'all' || current.from || current.to);
    }),
    rowAt: (position: number): HistoryRow | undefined => rows.get(position),
    selection,
    /** Selects the row, or leaves it; `range`: with every row from the last one selected to it (Shift+click). */
    select(row: HistoryRow, options: { range?: HistoryRow[] } = {}): void {
      const key = recordKey(row.app, row.id);
      const next = new Map(selection.peek());
      if (options.range) for (const one of options.range) next.set(recordKey(one.app, one.id), one);
      else if (next.has(key)) next.delete(key);
      else next.set(key, row);
      selection.value = next;
      anchor = key;
    },
    /** The row a range starts from (the last one selected or left), if it is still selected or shown. */
    anchor: (): string | null => anchor,
    clearSelection(): void {
      if (selection.peek().size > 0) selection.value = new Map();
      anchor = null;
    },
    /** Where a row is in the list now (the rows in memory), for a range. */
    positionOf: (app: string, id: string): number | undefined => positions.get(recordKey(app, id)),
    /**
     * The rows of a Shift range, from the position `from` (the row selected last) to `to`, the RANGE_MAX nearest
     * `from` at most: those in memory, and the others asked of the daemon, a window at a time. A window that cannot
     * be fetched is left out.
     */
    async rowsBetween(from: number, to: number): Promise<HistoryRow[]> {
      const first = from <= to ? from : Math.max(to, from - RANGE_MAX + 1);
      const end = from <= to ? Math.min(to, from + RANGE_MAX - 1) : from;
      const found: HistoryRow[] = [];
      for (let position = first; position <= end;) {
        const row = rows.get(position);
        if (row) {
          found.push(row);
          position++;
          continue;
        }
        let gapEnd = position;
        while (gapEnd <= end && !rows.has(gapEnd) && gapEnd - position < APP_HISTORY_LIMIT.max) gapEnd++;
        const page = await api.call<HistoryPage>('GET', rowsPath(position, gapEnd)).catch(() => null);
        if (page) found.push(...page.items);
        position = gapEnd;
      }
      return found;
    },
    opened,
    replyWanted,
    undo,
    offerUndo: offer,
    /** Takes back what the offer did, on the daemon. */
    async takeBack(): Promise<void> {
      const made = undo.peek();
      if (!made) return;
      cancelOffer();
      undo.value = null;
      await api.call<OkAnswer, UndoRequest>('POST', appPaths.historyUndo, { undo: made.token });
    },
    showRange,
    reload,
    setFilters(change: Partial<Filters>): void {
      filters.value = { ...filters.value, ...change };
      if (selection.peek().size > 0) selection.value = new Map(); // what was selected may not be shown any more
      anchor = null;
      shownRange = { start: 0, end: shownRange.end - shownRange.start };
      void reload();
    },
    /** Marks rows read or unread, SELECTION_MAX in one request; their rows change as the daemon's events come. */
    async setRead(rows: HistoryRow[], read: boolean): Promise<void> {
      for (let start = 0; start < rows.length; start += SELECTION_MAX) {
        const items = rows.slice(start, start + SELECTION_MAX).map(({ app, id }) => ({ app, id }));
        tellUnread(await api.call<ReadAnswer, MarkRequest>('POST', appPaths.historyMark, { items, read }));
      }
    },
    /** Deletes rows in one request, and offers Undo; they leave the list as the daemon's events come. */
    async remove(rows: HistoryRow[], text: string): Promise<void> {
      const items = rows.map(({ app, id }) => ({ app, id }));
      const answer = await api.call<DeleteAnswer, DeleteRequest>('POST', appPaths.historyDelete, { items });
      offer(text, answer.undo);
    },
    /** Deletes every record of one app, or of all. */
    async clear(app: string | undefined): Promise<void> {
      await api.call('DELETE', withQuery(appPaths.history, { app }));
    },
    /** POST read-all (of one app, or of all), and offers Undo: the count is the daemon's answer. */
    async markAllRead(app: string | undefined, text: string): Promise<void> {
      const answer = await api.call<ReadAllAnswer, ReadAllRequest>('POST', appPaths.historyReadAll, app ? { app } : {});
      tellUnread(answer);
      offer(text, answer.undo);
    },
  };
});
export type HistoryModel = InstanceType<typeof HistoryModel>;
