// History's filters under its head: what to show (All, Unread, Waiting…), More filters (App, Dates, Group by app:
// folded behind it on a narrow window, history.css), and the filters that narrow the list as chips above it. Each
// chip names its filter and value ("App: Builds") and removes it when pressed: on a narrow window they are how a
// person sees, and undoes, what narrows the list without unfolding anything. A wide window shows every filter's
// control with its value, and no chips.

import type { VNode } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { HISTORY_STATES, type HistoryStateFilter } from '../../../protocol/app-api.js';
import { useModels } from '../models/context.js';
import { NO_FILTERS, type Filters as FilterValues } from '../models/history.js';
import { DATE_PRESET_LABELS, dateShape, type DateShape, shownDate } from '../models/history-dates.js';
import { Icon } from '../ui/icon.js';
import { DateFilters } from './dates.js';

const STATE_LABELS: Record<HistoryStateFilter, string> = {
  all: 'All',
  unread: 'Unread',
  waiting: 'Waiting',
  replied: 'Replied',
  failed: 'Failed',
  programs: 'From other programs',
};

/** An active filter: what it is called, its value in words, and what removing it sets. */
interface ActiveFilter {
  name: string;
  value: string;
  clear: Partial<FilterValues>;
}

/** The date range in words: the preset's name, else the dates typed. */
function datesInWords(current: FilterValues, shape: DateShape): string {
  if (current.dates !== 'custom') return DATE_PRESET_LABELS[current.dates];
  const [from, to] = [shownDate(current.from, shape), shownDate(current.to, shape)];
  if (from && to) return `${from} – ${to}`;
  return from ? `from ${from}` : `until ${to}`;
}

/** The filters that narrow the list now, in the order the page shows their controls. */
function activeFilters(current: FilterValues, appName: (app: string) => string, shape: DateShape): ActiveFilter[] {
  const active: ActiveFilter[] = [];
  const q = current.q.trim();
  if (q) active.push({ name: 'Search', value: q, clear: { q: '' } });
  if (current.state !== 'all') active.push({ name: 'Show', value: STATE_LABELS[current.state], clear: { state: 'all' } });
  if (current.app) active.push({ name: 'App', value: appName(current.app), clear: { app: '' } });
  // A preset always sets both dates; custom dates narrow the list once one of them is typed.
  if (current.from || current.to) {
    active.push({ name: 'Dates', value: datesInWords(current, shape), clear: { dates: 'any', from: NO_FILTERS.from, to: NO_FILTERS.to } });
  }
  return active;
}

/**
 * The chips. A chip removed hands the focus to the one now in its place (else the one before it), and the last one
 * to `fallback` (More filters, beside them), so a keyboard user goes on from where they were.
 */
function FilterChips({ active, fallback }: { active: ActiveFilter[]; fallback: { current: HTMLElement | null } }): VNode | null {
  const { history } = useModels();
  const list = useRef<HTMLUListElement>(null);
  const [refocus, setRefocus] = useState<number | null>(null);
  useEffect(() => {
    if (refocus === null) return;
    setRefocus(null);
    const chips = list.current?.querySelectorAll('button') ?? [];
    (chips[Math.min(refocus, chips.length - 1)] ?? fallback.current)?.focus();
  }, [refocus]);
  if (active.length === 0) return null;
  return (
    <ul class="filter-chips" ref={list} aria-label="Active filters">
      {active.map((filter, index) => (
        <li key={filter.name}>
          <button
            type="button"
            class="chip"
            onClick={() => {
              history.setFilters(filter.clear);
              setRefocus(index);
            }}
          >
            {/* Named "Remove filter: App is Builds"; the chip shows "App: Builds", the words of its name. */}
            <span class="chip-words">
              <span class="visually-hidden">Remove filter: </span>
              {filter.name}
              <span class="visually-hidden"> is</span>
              <span aria-hidden="true">:</span> <span class="chip-value">{filter.value}</span>
            </span>
            <Icon name="x" />
          </button>
        </li>
      ))}
    </ul>
  );
}

export function Filters(): VNode {
  const { history, apps } = useModels();
  const current = history.filters.value;
  const setFilters = history.setFilters;
  const shape = useMemo(() => dateShape(), []);
  const appName = (app: string): string => apps.apps.value.find((known) => known.app === app)?.appName ?? app;
  const active = activeFilters(current, appName, shape);
  const moreButton = useRef<HTMLButtonElement>(null);
  // A narrow window shows the app and date filters on demand (history.css); a wide one always.
  const [more, setMore] = useState(Boolean(current.app || current.dates !== 'any'));
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
      <button type="button" ref={moreButton} class="button button-quiet more-filters" aria-expanded={more} onClick={() => setMore(!more)}>
        <Icon name="filter" />
        <span>{active.length > 0 ? `More filters (${active.length} active)` : 'More filters'}</span>
      </button>
      <label class="field-inline extra">
        <span>App</span>
        <select value={current.app} onChange={(event) => setFilters({ app: event.currentTarget.value })}>
          <option value="">All apps</option>
          {apps.apps.value.map((app) => (
            <option key={app.app} value={app.app}>
              {app.appName}
            </option>
          ))}
        </select>
      </label>
      <DateFilters />
      <label class="field-inline extra group-toggle">
        <input
          type="checkbox"
          role="switch"
          checked={history.groupByApp.value}
          onChange={(event) => (history.groupByApp.value = event.currentTarget.checked)}
        />
        <span>Group by app</span>
      </label>
      <FilterChips active={active} fallback={moreButton} />
    </div>
  );
}
