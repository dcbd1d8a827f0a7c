// History in windows, for the person's app (docs/app.md#history): the records matching a search and filters,
// newest first, of which the app asks for the few rows it is about to paint. Finding the matches costs a walk of
// History (200,000 records: tens of milliseconds); the matches of the last query are kept, so the next windows of
// the same query (the person scrolls) cost only the rows they hold. A new notification that matches is added to
// the kept list; any other change that could change the matches drops it.

import type { HistoryStateFilter } from '../../../protocol/app-api.js';
import { foldForSearch, queryWords } from '../../../protocol/search-text.js';
import type { HistoryRecord } from '../../../protocol/types.js';
import type { History, HistoryEvent } from './history.js';
import { failureOf, type RowMaker } from './rows.js';

/** A query of the app's History list; `from` and `to` are ISO 8601 UTC times (inclusive). */
export interface PageQuery {
  q: string;
  app?: string;
  state: HistoryStateFilter;
  from?: string;
  to?: string;
}

/** The kept matches of a `waiting` query grow stale as questions expire: kept this long at most. */
const WAITING_KEPT_MS = 10_000;

interface Kept {
  key: string;
  query: PageQuery;
  /** Oldest first, so a new match is an append; window `i` of the newest-first list is `matches[length - 1 - i]`. */
  matches: Array<{ app: string; id: string }>;
  madeAt: number;
}

export class HistoryPages {
  private kept: Kept | null = null;

  constructor(
    private readonly history: History,
    private readonly rows: RowMaker,
    private readonly sources: { isRead(record: HistoryRecord): boolean; appName(app: string): string; now(): number },
  ) {
    history.onChange((event) => this.historyChanged(event));
  }

  /** The matches' total and the records of the window `[offset, offset + limit)`, newest first. */
  page(query: PageQuery, offset: number, limit: number): { total: number; records: HistoryRecord[] } {
    const matches = this.matches(query);
    const records: HistoryRecord[] = [];
    for (let index = matches.length - 1 - offset; index >= 0 && records.length < limit; index--) {
      const record = this.history.get(matches[index]!.app, matches[index]!.id);
      if (record) records.push(record);
    }
    return { total: matches.length, records };
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

  private matches(query: PageQuery): Kept['matches'] {
    const key = JSON.stringify([query.q, query.app, query.state, query.from, query.to]);
    const kept = this.kept;
    const fresh = kept && kept.key === key && (query.state !== 'waiting' || this.sources.now() - kept.madeAt < WAITING_KEPT_MS);
    if (fresh) return kept.matches;
    const matches = this.find(query)
      .reverse()
      .map(({ app, id }) => ({ app, id }));
    this.kept = { key, query, matches, madeAt: this.sources.now() };
    return matches;
  }

  private find(query: PageQuery): HistoryRecord[] {
    return this.history.query({
      ...(query.app ? { app: query.app } : {}),
      limit: Number.MAX_SAFE_INTEGER,
      words: queryWords(query.q),
      appName: (app) => this.sources.appName(app),
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
    switch (state) {
      case 'all':
        return () => true;
      case 'unread':
        return (record) => !this.sources.isRead(record);
      case 'waiting':
        return (record) => this.rows.waiting(record);
      case 'replied':
        return (record) => record.reply !== undefined;
      case 'failed':
        return (record) => failureOf(record) !== undefined;
    }
  }

  /** Keeps the list of the last query in step: a new match is added; anything else that may change it drops it. */
  private historyChanged(event: HistoryEvent): void {
    const kept = this.kept;
    if (!kept) return;
    if (event.type === 'stored' && event.previous === undefined) {
      const record = event.record;
      if (kept.query.app !== undefined && kept.query.app !== record.app) return;
      // Only the newest may be appended (the list is oldest first); anything else is found again.
      const newest = kept.matches.at(-1);
      const newestRecord = newest && this.history.get(newest.app, newest.id);
      if (newestRecord && newestRecord.deliveredAt > record.deliveredAt) return void (this.kept = null);
      if (this.matchesQuery(record, kept.query)) kept.matches.push({ app: record.app, id: record.id });
      return;
    }
    if (event.type === 'removed') {
      // Mostly the oldest of an app, evicted by the per-app cap as a new one came: near the start of the list.
      const { app, id } = event.record;
      const index = kept.matches.findIndex((match) => match.id === id && match.app === app);
      if (index >= 0) kept.matches.splice(index, 1);
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
