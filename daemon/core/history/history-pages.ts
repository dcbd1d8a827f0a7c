// History in windows, for the person's app (docs/app.md#history): the records matching a search and filters,
// newest first, of which the app asks for the few rows it is about to paint.
//
// Without search words or dates, the total is known without a walk (History's size, or the unread count), and
// the first windows are merged straight from the newest records of each app. Otherwise finding the matches costs
// a walk of History (200,000 records: tens of milliseconds), so the matches of the last query are kept, and the
// next windows of the same query (the person scrolls) cost only the rows they hold. A new notification that
// matches joins the kept list, a removed one leaves it; any other change that could change the matches drops it.

import { inHistoryState, type HistoryStateFilter } from '../../../protocol/app-api.js';
import { foldForSearch, queryWords } from '../../../protocol/search-text.js';
import { isDesktopApp } from '../../../protocol/notification-rules.js';
import type { HistoryRecord } from '../../../protocol/types.js';
import type { History, HistoryEvent } from './history.js';
import { failureOf, type RowMaker } from './rows.js';

export interface PageQuery {
  q: string;
  app?: string;
  state: HistoryStateFilter;
  from?: string;
  to?: string;
}

/** The kept matches of a `waiting` query grow stale as questions expire: kept this long at most. */
const WAITING_KEPT_MS = 10_000;
/** Windows up to this far down a list whose total is known are merged straight from History (cheap: no walk). */
const DIRECT_WINDOW_MAX = 5_000;

interface Kept {
  key: string;
  query: PageQuery;
  /** The matches found, newest first. */
  found: HistoryRecord[];
  /** Matches that arrived since, oldest first (so each is an append): they come before `found`. */
  newer: HistoryRecord[];
  madeAt: number;
}

export interface PageSources {
  isRead(record: HistoryRecord): boolean;
  unreadCount(app?: string): number;
  appName(app: string): string;
  now(): number;
}

export class HistoryPages {
  private kept: Kept | null = null;

  constructor(
    private readonly history: History,
    private readonly rows: RowMaker,
    private readonly sources: PageSources,
  ) {
    history.onChange((event) => this.historyChanged(event));
  }

  /** The matches' total and the records of the window `[offset, offset + limit)`, newest first. */
  page(query: PageQuery, offset: number, limit: number): { total: number; records: HistoryRecord[] } {
    const known = this.totalWithoutWalk(query);
    if (known !== null && offset + limit <= DIRECT_WINDOW_MAX) {
      return { total: known, records: this.find(query, offset + limit).slice(offset) };
    }
    const kept = this.matches(query);
    const total = kept.newer.length + kept.found.length;
    const records: HistoryRecord[] = [];
    for (let index = offset; index < total && records.length < limit; index++) {
      const match = index < kept.newer.length ? kept.newer[kept.newer.length - 1 - index]! : kept.found[index - kept.newer.length]!;
      // The kept object may be an older version of the record (changed in place since): the current one is shown.
      const record = this.history.get(match.app, match.id);
      if (record) records.push(record);
    }
    return { total, records };
  }

  /** Every match, newest first (an export). */
  all(query: PageQuery): HistoryRecord[] {
    return this.find(query);
  }

  /** The read state changed: an `unread` list is made again. */
  readChanged(): void {
    if (this.kept?.query.state === 'unread') this.kept = null;
  }

  /** Approval questions changed: a `waiting` list is made again. */
  questionsChanged(): void {
    if (this.kept?.query.state === 'waiting') this.kept = null;
  }

  /** The total of a query without search words or dates: History's size, or the unread count. */
  private totalWithoutWalk(query: PageQuery): number | null {
    if (queryWords(query.q).length > 0 || query.from !== undefined || query.to !== undefined) return null;
    if (query.state === 'unread') return this.sources.unreadCount(query.app);
    if (query.state !== 'all') return null;
    if (query.app !== undefined) return this.history.recordsOf(query.app).length;
    return this.history.size().records;
  }

  private matches(query: PageQuery): Kept {
    const key = JSON.stringify([query.q, query.app, query.state, query.from, query.to]);
    const kept = this.kept;
    const fresh = kept && kept.key === key && (query.state !== 'waiting' || this.sources.now() - kept.madeAt < WAITING_KEPT_MS);
    if (fresh) return kept;
    this.kept = { key, query, found: this.find(query), newer: [], madeAt: this.sources.now() };
    return this.kept;
  }

  private find(query: PageQuery, limit = Number.MAX_SAFE_INTEGER): HistoryRecord[] {
    return this.history.query({
      ...(query.app ? { app: query.app } : {}),
      limit,
      words: queryWords(query.q),
      appName: (app) => this.sources.appName(app),
      // "From other programs" reads only their apps: the others' records need not be tested one by one.
      ...(query.state === 'programs' ? { apps: isDesktopApp } : {}),
      filter: this.filterOf(query),
    });
  }

  private filterOf(query: PageQuery): (record: HistoryRecord) => boolean {
    const { from, to } = query;
    const inRange = (record: HistoryRecord): boolean =>
      (from === undefined || record.deliveredAt >= from) && (to === undefined || record.deliveredAt <= to);
    const inState = this.stateFilter(query.state);
    return from === undefined && to === undefined ? inState : (record) => inRange(record) && inState(record);
  }

  private stateFilter(state: HistoryStateFilter): (record: HistoryRecord) => boolean {
    if (state === 'all') return () => true;
    const { sources, rows } = this;
    // The row's facts as getters: the filter reads only the one it tests (`waiting` reads the template's buttons).
    return (record) =>
      inHistoryState(state, {
        get read() {
          return sources.isRead(record);
        },
        state: {
          get waiting() {
            return rows.waiting(record);
          },
          get replied() {
            return record.reply !== undefined;
          },
          get failed() {
            return failureOf(record);
          },
          get program() {
            return isDesktopApp(record.app);
          },
        },
      });
  }

  /** Keeps the list of the last query in step: a new match is added, a removed one leaves; other changes drop it. */
  private historyChanged(event: HistoryEvent): void {
    const kept = this.kept;
    if (!kept) return;
    if (event.type === 'stored' && event.previous === undefined) {
      const record = event.record;
      if (kept.query.app !== undefined && kept.query.app !== record.app) return;
      // Only a newest match may be appended; anything else is found again.
      const newest = kept.newer.at(-1) ?? kept.found[0];
      if (newest && newest.deliveredAt > record.deliveredAt) return void (this.kept = null);
      if (this.matchesQuery(record, kept.query)) kept.newer.push(record);
      return;
    }
    if (event.type === 'removed') {
      // Mostly the oldest of an app, evicted by the per-app cap as a new one came.
      const { app, id } = event.record;
      const same = (match: HistoryRecord): boolean => match.id === id && match.app === app;
      const newer = kept.newer.findIndex(same);
      if (newer >= 0) kept.newer.splice(newer, 1);
      else {
        const found = kept.found.findLastIndex(same);
        if (found >= 0) kept.found.splice(found, 1);
      }
      return;
    }
    // A change in place (dismissed, replied, snoozed) does not change which records all of them match.
    if (event.type === 'stored' && event.previous?.deliveredAt === event.record.deliveredAt && kept.query.state === 'all') return;
    this.kept = null;
  }

  private matchesQuery(record: HistoryRecord, query: PageQuery): boolean {
    if (query.app !== undefined && record.app !== query.app) return false;
    if (!this.filterOf(query)(record)) return false;
    const words = queryWords(query.q);
    if (words.length === 0) return true;
    // The search's own rule (GET /v1/history/search): every word in the title, subtitle, body, app id or app name.
    const { title, subtitle, body } = record.notification;
    const text = foldForSearch(`${title ?? ''}\n${subtitle ?? ''}\n${body ?? ''}\n${record.app}\n${this.sources.appName(record.app)}`);
    return words.every((word) => text.includes(word));
  }
}
