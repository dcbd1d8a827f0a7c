// The windowed list: only the rows in view (and a few around them) are in the document, each at its place in a
// list as tall as all the matches, so 200,000 records scroll like 20. The History model fetches the rows it is shown.

import type { VNode } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { HistoryRow } from '../../../protocol/app-api.js';
import { keyParts, recordKey } from '../../../protocol/record-key.js';
import { useModels } from '../models/context.js';
import { pageHref } from '../models/router.js';
import { dayLabel, dayStart, useTime } from '../ui/time.js';
import { useFocusStays } from './focus.js';
import { Row } from './row.js';

/**
 * Every row is this tall (history.css draws the row to fit): positions are arithmetic, never measured. A day's
 * heading takes no room of its own: it sits on the line between the last row of one day and the first of the next,
 * in the gap the rows leave there, so the rows stay where arithmetic puts them whatever the days.
 */
export const ROW_HEIGHT = 72;
/** Rows painted above and below the visible ones, so a quick scroll does not show gaps. */
const OVERSCAN = 8;

/** The local day a row was delivered on (its midnight), which its day heading names. */
const dayOf = (row: HistoryRow): number => dayStart(Date.parse(row.deliveredAt));

function Placeholder({ position, count }: { position: number; count: number }): VNode {
  return (
    <li class="row placeholder" aria-setsize={count} aria-posinset={position + 1} style={{ top: `${position * ROW_HEIGHT}px` }}>
      <span class="app-picture app-picture-small" />
      <div class="row-main">
        <span class="skeleton skeleton-short" />
        <span class="skeleton" />
        <span class="visually-hidden">Loading</span>
      </div>
    </li>
  );
}

export function Empty(): VNode {
  const { history } = useModels();
  const filtered = history.filtered.value;
  // "From other programs" alone found nothing: perhaps they are not kept, so say where that is turned on.
  const { q, app, state, from, to } = history.filters.value;
  const onlyPrograms = state === 'programs' && !q.trim() && !app && !from && !to;
  return (
    <div class="empty">
      {history.loadError.value ? (
        <p role="alert">History could not be loaded: {history.loadError.value}</p>
      ) : !history.loaded.value ? (
        <p>Loading…</p>
      ) : onlyPrograms ? (
        <p>
          No notification from another program. History keeps your mail's, chat's and other programs' notifications only while “Keep every
          desktop notification in History” is on, in <a href={pageHref('settings')}>Settings</a>.
        </p>
      ) : filtered ? (
        <p>No notification matches. Change the search or the filters to see more.</p>
      ) : (
        <>
          <p class="empty-title">No notifications yet</p>
          <p>When an app, a script or an agent sends you a notification, it appears here, newest first.</p>
        </>
      )}
    </div>
  );
}

export function HistoryList({ selected }: { selected?: { app: string; id: string } }): VNode {
  const { history } = useModels();
  const { filters, inserted, cacheVersion, rowAt, showRange } = history;
  const scroller = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ top: 0, height: 800 });
  const focusWanted = useRef<number | null>(null);
  const frame = useRef(0);

  // The list's height, from the ResizeObserver's first report (after layout, before the frame is painted): reading
  // it here would make the browser lay the page out an extra time before the first paint.
  useEffect(() => {
    const element = scroller.current!;
    const observer = new ResizeObserver(([entry]) => setView({ top: element.scrollTop, height: entry!.contentRect.height }));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // A row put in above the ones in view moves them down: the list keeps showing the same rows.
  const lastInserted = useRef(inserted.value.serial);
  useLayoutEffect(() => {
    const element = scroller.current!;
    const { serial, position } = inserted.value;
    if (serial === lastInserted.current) return;
    lastInserted.current = serial;
    if (position * ROW_HEIGHT < element.scrollTop) element.scrollTop += ROW_HEIGHT;
  }, [inserted.value]);

  // A new search or filter starts at the top (not on the first paint: setting it would lay the page out early).
  const shownFilters = useRef(filters.value);
  useLayoutEffect(() => {
    if (shownFilters.current === filters.value || !scroller.current) return;
    shownFilters.current = filters.value;
    scroller.current.scrollTop = 0;
  }, [filters.value]);

  // The list is one stop for Tab (Up, Down, Home, End move inside it): the row last focused while it is in view,
  // else the open one, else the first row in view. Otherwise Tab would walk through every row painted before
  // reaching the details.
  const [active, setActive] = useState(-1);
  const lastActive = useRef(-1);
  const count = history.total.value;
  const firstInView = Math.floor(view.top / ROW_HEIGHT);
  const inView = (position: number): boolean => position >= firstInView && position < Math.ceil((view.top + view.height) / ROW_HEIGHT);
  const start = Math.max(0, Math.floor(view.top / ROW_HEIGHT) - OVERSCAN);
  const end = Math.min(count, Math.ceil((view.top + view.height) / ROW_HEIGHT) + OVERSCAN);
  void cacheVersion.value; // re-read the cache when it changes

  useEffect(() => showRange(start, end), [start, end, count, cacheVersion.value]);

  useEffect(() => {
    const position = focusWanted.current;
    if (position === null) return;
    const link = scroller.current?.querySelector<HTMLAnchorElement>(`[data-position="${position}"] .row-title`);
    if (link) {
      focusWanted.current = null;
      link.focus();
    }
  });

  const onScroll = (): void => {
    cancelAnimationFrame(frame.current);
    frame.current = requestAnimationFrame(() => {
      const element = scroller.current;
      if (element) setView({ top: element.scrollTop, height: element.clientHeight });
    });
  };

  /**
   * A click on a row's checkbox: that row in or out of the selection; with Shift, every row from the last one,
   * those not fetched yet (far between the two) asked for first.
   */
  const check = (row: HistoryRow, range: boolean): void => {
    const from = range ? history.anchor() : null;
    const at = from === null ? undefined : history.positionOf(keyParts(from).app, keyParts(from).id);
    const to = history.positionOf(row.app, row.id);
    if (at === undefined || to === undefined) return history.select(row);
    void history.rowsBetween(at, to).then((rows) => history.select(row, { range: rows }));
  };

  /**
   * Up and Down (and j and k) move between rows, Home and End to the first and last; the list scrolls to keep it in
   * view. Space selects the row (Shift+Space, every row from the last one selected), Escape empties the selection.
   */
  const onKeyDown = (event: KeyboardEvent): void => {
    const item = (event.target as Element).closest<HTMLElement>('[data-position]');
    if (!item || !scroller.current) return;
    const position = Number(item.dataset.position);
    const onTitle = (event.target as Element).classList.contains('row-title');
    const row = rowAt(position);
    if (event.key === ' ' && onTitle && row) {
      event.preventDefault();
      return check(row, event.shiftKey);
    }
    if (event.key === 'Escape' && history.selection.peek().size > 0) return history.clearSelection();
    const plain = !event.ctrlKey && !event.metaKey && !event.altKey;
    const steps: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: 10, PageUp: -10, Home: -count, End: count };
    const step = steps[event.key] ?? (plain ? { j: 1, k: -1 }[event.key] : undefined);
    if (step === undefined) return;
    event.preventDefault();
    const next = Math.min(count - 1, Math.max(0, position + step));
    const element = scroller.current;
    const top = next * ROW_HEIGHT;
    if (top < element.scrollTop) element.scrollTop = top;
    else if (top + ROW_HEIGHT > element.scrollTop + element.clientHeight) element.scrollTop = top + ROW_HEIGHT - element.clientHeight;
    const link = element.querySelector<HTMLAnchorElement>(`[data-position="${next}"] .row-title`);
    if (link)
      link.focus(); // in the document already: at once, so quick presses are not lost
    else {
      focusWanted.current = next; // drawn by the next render, and focused then
      setView({ top: element.scrollTop, height: element.clientHeight });
    }
  };

  const moment = useTime();
  /** A row starts its day: the first row, or one whose previous row (when known) is of another day. */
  const firstOfDay = (position: number, row: HistoryRow): boolean => {
    if (position === 0) return true;
    const previous = rowAt(position - 1);
    return previous !== undefined && dayOf(previous) !== dayOf(row);
  };

  // A deleted row's place is taken by the next: the keyboard stays there.
  const keep = useFocusStays(scroller, () =>
    scroller.current?.querySelector<HTMLElement>(`[data-position="${Math.min(lastActive.current, count - 1)}"] .row-title`),
  );

  let tabStop = inView(active) ? active : firstInView;
  if (!inView(active) && selected) {
    for (let position = firstInView; inView(position); position++) {
      const row = rowAt(position);
      if (row?.app === selected.app && row.id === selected.id) tabStop = position;
    }
  }
  const selection = history.selection.value;
  const items: VNode[] = [];
  for (let position = start; position < end; position++) {
    const row = rowAt(position);
    items.push(
      row ? (
        <Row
          key={`${row.app}/${row.id}`}
          row={row}
          position={position}
          selected={selected?.app === row.app && selected.id === row.id}
          count={count}
          top={position * ROW_HEIGHT}
          tabStop={position === tabStop}
          checked={selection.has(recordKey(row.app, row.id))}
          onCheck={check}
          day={
            firstOfDay(position, row) ? (
              // The first row of a day carries its heading (the list's first one is the day bar's, drawn above it).
              <h2 class={position === 0 ? 'visually-hidden' : 'day-heading'}>{dayLabel(dayOf(row), moment)}</h2>
            ) : undefined
          }
        />
      ) : (
        <Placeholder key={`p${position}`} position={position} count={count} />
      ),
    );
  }

  const top = rowAt(firstInView);
  return (
    <>
      {count > 0 && (
        // The day of the rows at the top, where it stays while they scroll: their heading is a row's, which scrolls.
        <div class="day-bar" aria-hidden="true">
          {top && <span class="day-heading">{dayLabel(dayOf(top), moment)}</span>}
        </div>
      )}
      <div class="list-scroller" ref={scroller} onScroll={onScroll}>
        {count === 0 ? (
          <Empty />
        ) : (
          <ul
            class="rows"
            aria-label="Notifications"
            onKeyDown={onKeyDown}
            onFocusIn={(event) => {
              keep.onFocusIn();
              const item = (event.target as Element).closest<HTMLElement>('[data-position]');
              if (item) setActive((lastActive.current = Number(item.dataset.position)));
            }}
            onFocusOut={keep.onFocusOut}
            style={{ height: `${count * ROW_HEIGHT}px` }}
          >
            {items}
          </ul>
        )}
      </div>
    </>
  );
}
