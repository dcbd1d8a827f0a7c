// The windowed list: only the rows in view (and a few around them) are in the document, each at its place in a
// list as tall as all the matches, so 200,000 records scroll like 20. The History model fetches the rows it is shown.

import type { VNode } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { HistoryRow } from '../../../protocol/app-api.js';
import { useModels } from '../models/context.js';
import { titleOf } from '../models/history.js';
import { detailsHref } from '../models/router.js';
import { AppPicture } from '../ui/app-picture.js';
import { StateBadges } from '../ui/state-badges.js';
import { When } from '../ui/time.js';

/** Every row is this tall (history.css draws the row to fit): positions are arithmetic, never measured. */
export const ROW_HEIGHT = 64;
/** Rows painted above and below the visible ones, so a quick scroll does not show gaps. */
const OVERSCAN = 8;

function Row(props: { row: HistoryRow; position: number; count: number; selected: boolean; tabStop: boolean }): VNode {
  const { row, position, selected, tabStop } = props;
  const title = titleOf(row);
  return (
    <li
      class={`row${row.read ? '' : ' unread'}${selected ? ' selected' : ''}`}
      aria-setsize={props.count}
      aria-posinset={position + 1}
      data-position={position}
      style={{ top: `${position * ROW_HEIGHT}px` }}
    >
      <AppPicture app={row.app} appName={row.appName} />
      <div class="row-main">
        <div class="row-top">
          {!row.read && (
            <span class="unread-dot" title="Unread">
              <span class="visually-hidden">Unread</span>
            </span>
          )}
          <span class="row-app">{row.appName}</span>
          <StateBadges state={row.state} />
          <When at={row.deliveredAt} />
        </div>
        <a class="row-title" href={detailsHref(row.app, row.id)} aria-current={selected ? 'page' : undefined} tabIndex={tabStop ? 0 : -1}>
          {title}
        </a>
        <div class="row-first">{row.title ? row.firstLine : ''}</div>
      </div>
    </li>
  );
}

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

function Empty(): VNode {
  const { history } = useModels();
  const filtered = history.filtered.value;
  return (
    <div class="empty">
      {history.loadError.value ? (
        <p role="alert">History could not be loaded: {history.loadError.value}</p>
      ) : !history.loaded.value ? (
        <p>Loading…</p>
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

  /** Up and Down move between rows, Home and End to the first and last; the list scrolls to keep it in view. */
  const onKeyDown = (event: KeyboardEvent): void => {
    const item = (event.target as Element).closest<HTMLElement>('[data-position]');
    if (!item || !scroller.current) return;
    const position = Number(item.dataset.position);
    const steps: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: 10, PageUp: -10, Home: -count, End: count };
    const step = steps[event.key];
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

  let tabStop = inView(active) ? active : firstInView;
  if (!inView(active) && selected) {
    for (let position = firstInView; inView(position); position++) {
      const row = rowAt(position);
      if (row?.app === selected.app && row.id === selected.id) tabStop = position;
    }
  }
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
          tabStop={position === tabStop}
        />
      ) : (
        <Placeholder key={`p${position}`} position={position} count={count} />
      ),
    );
  }

  return (
    <div class="list-scroller" ref={scroller} onScroll={onScroll}>
      {count === 0 ? (
        <Empty />
      ) : (
        <ul
          class="rows"
          aria-label="Notifications"
          onKeyDown={onKeyDown}
          onFocusIn={(event) => {
            const item = (event.target as Element).closest<HTMLElement>('[data-position]');
            if (item) setActive(Number(item.dataset.position));
          }}
          style={{ height: `${count * ROW_HEIGHT}px` }}
        >
          {items}
        </ul>
      )}
    </div>
  );
}
