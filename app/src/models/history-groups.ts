// History grouped by app ("Group by app"): for each app with matches, its newest few and how many match, the apps
// with the newest first. One small window per app (`GET /app/api/history?app=…&limit=5`, with the search and
// filters), asked for again a moment after the events of a burst while the groups are shown; nothing while not.

import { effect, type ReadonlySignal, signal, untracked } from '@preact/signals';
import { appPaths, type AppsAnswer, type HistoryPage, type HistoryRow } from '../../../protocol/app-api.js';
import { type Clock, type LiveEvents, type Requests, whileAlive } from './dependencies.js';
import { messageOf, type Query, withQuery } from './requests.js';

export interface AppGroup {
  app: string;
  appName: string;
  /** Its matches; `rows` are the newest of them. */
  total: number;
  rows: HistoryRow[];
}

/** The rows shown of each app; "Show all" shows the rest. */
export const GROUP_ROWS = 5;
/** The events of a burst become one reading of the groups, this long after the first. */
const BURST_WAIT_MS = 100;

/** The groups while `shown`, of the list's `query`; null while they are read the first time. */
export function appGroups(
  { api, events, clock }: { api: Requests; events: LiveEvents; clock: Clock },
  query: ReadonlySignal<Query>,
  shown: ReadonlySignal<boolean>,
) {
  const groups = signal<AppGroup[] | null>(null);
  const problem = signal('');
  let generation = 0;
  let cancelLater: (() => void) | undefined;

  async function load(): Promise<void> {
    const mine = ++generation;
    const wanted = query.peek();
    try {
      const { apps } = await api.call<AppsAnswer>('GET', appPaths.apps);
      const read = apps
        .filter((app) => app.count > 0 && (!wanted.app || app.app === wanted.app))
        .map(async (app) => ({
          app,
          page: await api.call<HistoryPage>('GET', withQuery(appPaths.history, { ...wanted, app: app.app, limit: GROUP_ROWS })),
        }));
      const found = (await Promise.all(read)).filter(({ page }) => page.total > 0);
      if (mine !== generation) return; // a newer reading is on its way
      groups.value = found
        .map(({ app, page }) => ({ app: app.app, appName: app.appName, total: page.total, rows: page.items }))
        .sort((a, b) => b.rows[0]!.deliveredAt.localeCompare(a.rows[0]!.deliveredAt));
      problem.value = '';
    } catch (error) {
      if (mine === generation) problem.value = messageOf(error);
    }
  }

  function later(): void {
    if (shown.peek()) cancelLater ??= clock.after(BURST_WAIT_MS, () => ((cancelLater = undefined), void load()));
  }

  effect(() => {
    if (!shown.value) return void (groups.value = null);
    void query.value; // read again for every new search or filter
    untracked(() => void load());
  });
  whileAlive(
    () => events.on('row', later),
    () => events.on('removed', later),
    () => events.on('read', later),
    () => events.onOpen(later),
  );
  return { groups, problem };
}
