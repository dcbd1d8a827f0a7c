// History, the notification centre: search and filters on top, the windowed list, and the details of the
// notification whose title was clicked — beside the list on a wide window, instead of it on a narrow one.

import type { VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { appPaths, HISTORY_STATES, type HistoryStateFilter } from '../../../protocol/app-api.js';
import { call, withCsrf, withQuery } from '../api.js';
import type { Route } from '../router.js';
import { confirmFirst } from '../ui/confirm.js';
import { Icon } from '../ui/icon.js';
import { Menu } from '../ui/menu.js';
import { say, sayError } from '../ui/status.js';
import { Details } from './details.js';
import { FirstRun } from './first-run.js';
import { HistoryList } from './list.js';
import { apps, filterQuery, filters, isFiltered, loadApps, loaded, loadError, setFilters, total, unreadTotal } from './store.js';

/** The date range: from a day's start, to a day's end; each bounded by the other. */
const DATE_FILTERS = [
  { key: 'from', label: 'From', bound: 'max' },
  { key: 'to', label: 'To', bound: 'min' },
] as const;

const STATE_LABELS: Record<HistoryStateFilter, string> = {
  all: 'All',
  unread: 'Unread',
  waiting: 'Waiting',
  replied: 'Replied',
  failed: 'Failed',
};

function SearchBox(): VNode {
  const [text, setText] = useState(filters.value.q);
  useEffect(() => setText(filters.value.q), [filters.value.q]);
  // Every key searches at once: a search is answered in milliseconds, and the one it overtakes is cancelled.
  const change = (value: string): void => {
    setText(value);
    setFilters({ q: value });
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

function Filters(): VNode {
  const current = filters.value;
  // A narrow window shows the app and date filters on demand (styles.css); a wide one always.
  const [more, setMore] = useState(Boolean(current.app || current.from || current.to));
  return (
    <div class={`filters${more ? ' show-more' : ''}`}>
      <fieldset class="segmented">
        <legend class="visually-hidden">Show</legend>
        {HISTORY_STATES.map((state) => (
          <label key={state} class={current.state === state ? 'checked' : undefined}>
            <input type="radio" name="state" value={state} checked={current.state === state} onChange={() => setFilters({ state })} />
            {STATE_LABELS[state]}
          </label>
        ))}
      </fieldset>
      <button type="button" class="button button-quiet more-filters" aria-expanded={more} onClick={() => setMore(!more)}>
        <Icon name="filter" />
        <span>More filters</span>
      </button>
      <label class="field-inline extra">
        <span>App</span>
        <select value={current.app} onChange={(event) => setFilters({ app: event.currentTarget.value })}>
          <option value="">All apps</option>
          {apps.value.map((app) => (
            <option key={app.app} value={app.app}>
              {app.appName}
            </option>
          ))}
        </select>
      </label>
      {DATE_FILTERS.map(({ key, label, bound }) => (
        <label key={key} class="field-inline extra date">
          <span>{label}</span>
          <input
            type="date"
            value={current[key]}
            {...{ [bound]: current[key === 'from' ? 'to' : 'from'] || undefined }}
            onChange={(event) => setFilters({ [key]: event.currentTarget.value })}
          />
        </label>
      ))}
    </div>
  );
}

function MoreMenu(): VNode {
  const app = apps.value.find((known) => known.app === filters.value.app);
  const exportHref = (format: 'json' | 'csv'): string => withCsrf(withQuery(appPaths.historyExport, { format, ...filterQuery() }));
  const deleteAll = async (): Promise<void> => {
    const message = app
      ? `Every notification from ${app.appName} will be removed from History. This cannot be undone.`
      : 'Every notification of every app will be removed from History. This cannot be undone.';
    const yes = await confirmFirst({
      title: app ? `Delete all of ${app.appName}?` : 'Delete all of History?',
      message,
      confirm: 'Delete all',
    });
    if (!yes) return;
    try {
      await call('DELETE', withQuery(appPaths.history, { app: app?.app }));
      say(app ? `History of ${app.appName} deleted.` : 'History deleted.');
      void loadApps();
    } catch (error) {
      sayError(error);
    }
  };
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
              void deleteAll();
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

async function markAllRead(): Promise<void> {
  try {
    const app = filters.value.app || undefined;
    const answer = await call<{ unread: number }>('POST', appPaths.historyReadAll, app ? { app } : {});
    unreadTotal.value = answer.unread;
    say('All marked as read.');
  } catch (error) {
    sayError(error);
  }
}

export function HistoryPage({ route }: { route: Route }): VNode {
  const selected = route.selected;
  const count = total.value;
  // History holds nothing at all (not a search that found nothing): what Notifier is, and how to send a first one.
  const firstRun = loaded.value && !loadError.value && count === 0 && !isFiltered() && !selected;
  return (
    <div class={`history${selected ? ' has-selection' : ''}`}>
      <header class="page-head">
        <div class="page-title">
          <h1>History</h1>
          <p class="muted">
            {count.toLocaleString()} {isFiltered() ? 'found' : count === 1 ? 'notification' : 'notifications'}
            {unreadTotal.value > 0 && <> · {unreadTotal.value.toLocaleString()} unread</>}
          </p>
        </div>
        <SearchBox />
        <div class="page-actions">
          <button type="button" class="button button-quiet" onClick={() => void markAllRead()}>
            <Icon name="checkCheck" />
            <span>Mark all read</span>
          </button>
          <MoreMenu />
        </div>
      </header>
      {firstRun ? (
        <div class="first-run-pane">
          <FirstRun />
        </div>
      ) : (
        <>
          <Filters />
          <div class="split">
            <section class="list-pane" aria-label="Notifications list">
              <HistoryList selected={selected} />
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
    </div>
  );
}
