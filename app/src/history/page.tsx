// History, the notification centre: search and filters on top, the windowed list, and the details of the
// notification whose title was clicked — beside the list on a wide window, instead of it on a narrow one.

import type { VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { appPaths } from '../../../protocol/app-api.js';
import { useModels } from '../models/context.js';
import { withQuery } from '../models/requests.js';
import type { Route } from '../models/router.js';
import { Icon } from '../ui/icon.js';
import { Menu } from '../ui/menu.js';
import { useRowActions } from './actions.js';
import { BulkBar } from './bulk-bar.js';
import { Details } from './details.js';
import { Filters } from './filters.js';
import { FirstRun } from './first-run.js';
import { GroupedList } from './groups.js';
import { HistoryList } from './list.js';
import { ScheduledStrip } from './scheduled.js';
import { ShortcutsHelp, useShortcuts } from './shortcuts.js';
import { UndoToast } from './undo-toast.js';
import './history.css';

function SearchBox(): VNode {
  const { history } = useModels();
  const [text, setText] = useState(history.filters.value.q);
  useEffect(() => setText(history.filters.value.q), [history.filters.value.q]);
  // Every key searches at once: a search is answered in milliseconds, and the one it overtakes is cancelled.
  const change = (value: string): void => {
    setText(value);
    history.setFilters({ q: value });
  };
  return (
    <div class="search" role="search">
      <Icon name="search" />
      <input
        type="search"
        aria-label="Search"
        placeholder="Search notifications"
        value={text}
        onInput={(event) => change(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && text) change('');
          // Down from the search goes to the list, as in a mail client (then Up and Down move between rows).
          if (event.key === 'ArrowDown') {
            const first = document.querySelector<HTMLElement>('.rows .row-title');
            if (first) {
              event.preventDefault();
              first.focus();
            }
          }
        }}
      />
    </div>
  );
}

function MoreMenu(): VNode {
  const { history, apps, api } = useModels();
  const { deleteAll } = useRowActions();
  const app = apps.apps.value.find((known) => known.app === history.filters.value.app);
  const exportHref = (format: 'json' | 'csv'): string =>
    api.withCsrf(withQuery(appPaths.historyExport, { format, ...history.query.value }));
  return (
    <Menu icon="download" label="Export or delete" menuLabel="Export or delete" alignRight>
      {(close) => (
        <>
          <a class="menu-item" href={exportHref('json')} download onClick={close}>
            Export as JSON
          </a>
          <a class="menu-item" href={exportHref('csv')} download onClick={close}>
            Export as CSV
          </a>
          <button
            type="button"
            class="menu-item menu-danger"
            onClick={() => {
              close(); // the dialog gives the focus back to the menu's button
              void deleteAll(app);
            }}
          >
            <Icon name="trash" />
            {app ? `Delete all of ${app.appName}…` : 'Delete all of History…'}
          </button>
        </>
      )}
    </Menu>
  );
}

export function HistoryPage({ route }: { route: Route }): VNode {
  const { history, apps } = useModels();
  const actions = useRowActions();
  const [help, setHelp] = useState(false);
  useShortcuts(() => setHelp(true));
  const selected = route.selected;
  const count = history.total.value;
  const unread = history.unreadTotal.value;
  const filtered = history.filtered.value;
  // History holds nothing at all (not a search that found nothing): what Notifier is, and how to send a first one.
  const firstRun = history.loaded.value && !history.loadError.value && count === 0 && !filtered && !selected;
  // Of the app chosen in the App filter, when there is one.
  const markAllRead = (): Promise<void> => actions.markAllRead(apps.apps.value.find((known) => known.app === history.filters.value.app));
  return (
    <div class={`history${selected ? ' has-selection' : ''}`}>
      <header class="page-head">
        <div class="page-title">
          <h1>History</h1>
          <p class="muted">
            {count.toLocaleString()} {filtered ? 'found' : count === 1 ? 'notification' : 'notifications'}
            {unread > 0 && <> · {unread.toLocaleString()} unread</>}
          </p>
        </div>
        <SearchBox />
        <div class="page-actions">
          <button type="button" class="button button-quiet" onClick={() => void markAllRead()}>
            <Icon name="checkCheck" />
            <span>Mark all read</span>
          </button>
          <MoreMenu />
          <button
            type="button"
            class="button button-quiet icon-button"
            title="Keyboard shortcuts (?)"
            aria-label="Keyboard shortcuts"
            aria-keyshortcuts="?"
            onClick={() => setHelp(true)}
          >
            <Icon name="keyboard" />
          </button>
        </div>
      </header>
      <ShortcutsHelp open={help} onClose={() => setHelp(false)} />
      {firstRun ? (
        <div class="first-run-pane">
          <FirstRun />
        </div>
      ) : (
        <>
          <Filters />
          <ScheduledStrip />
          <div class="split">
            <section class="list-pane" aria-label="Notifications list">
              <BulkBar />
              {history.groupByApp.value ? <GroupedList selected={selected} /> : <HistoryList selected={selected} />}
            </section>
            <section class="details-pane" aria-label="Details">
              {selected ? (
                <Details key={`${selected.app}/${selected.id}`} selected={selected} />
              ) : (
                <div class="no-selection">
                  <Icon name="inbox" class="icon-large" />
                  <p>Choose a notification to read it, reply, or use its buttons.</p>
                </div>
              )}
            </section>
          </div>
        </>
      )}
      <UndoToast />
    </div>
  );
}
