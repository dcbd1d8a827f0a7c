// History grouped by app: a section per app with matches (the app with the newest first), headed by its picture and
// name, how many match, Mark read and Clear (its whole History, asked first), then its newest rows and "Show all",
// which shows that app's list. Up and Down move between the rows of every group; each group is one stop for Tab.

import type { VNode } from 'preact';
import { useRef, useState } from 'preact/hooks';
import type { HistoryRow } from '../../../protocol/app-api.js';
import { useModels } from '../models/context.js';
import type { AppGroup } from '../models/history-groups.js';
import { AppPicture } from '../ui/app-picture.js';
import { Icon } from '../ui/icon.js';
import { useRowActions } from './actions.js';
import { useFocusStays } from './focus.js';
import { Empty } from './list.js';
import { keyOf, Row } from './row.js';

type Selected = { app: string; id: string } | undefined;

interface GroupProps {
  group: AppGroup;
  selected: Selected;
  active: string | null;
  onCheck: (row: HistoryRow, range: boolean) => void;
}

function Group({ group, selected, active, onCheck }: GroupProps): VNode {
  const { history } = useModels();
  const { deleteAll, markAllRead } = useRowActions();
  const id = `group-${group.app}`;
  const checked = history.selection.value;
  // The group's one Tab stop: the row last focused in it, else the open one, else its first.
  const stop = group.rows.find((row) => keyOf(row) === active) ?? group.rows.find((row) => keyOf(row) === (selected && keyOf(selected)));
  return (
    <section class="app-group" aria-labelledby={id}>
      <header class="group-head">
        <AppPicture app={group.app} appName={group.appName} />
        <div class="group-name">
          <h2 id={id}>{group.appName}</h2>
          <span class="muted">{group.total === 1 ? '1 notification' : `${group.total.toLocaleString()} notifications`}</span>
        </div>
        <button
          type="button"
          class="button button-quiet"
          aria-label={`Mark read: ${group.appName}`}
          onClick={() => void markAllRead(group)}
        >
          <Icon name="checkCheck" />
          <span>Mark read</span>
        </button>
        <button type="button" class="button button-quiet" aria-label={`Clear ${group.appName}`} onClick={() => void deleteAll(group)}>
          <Icon name="trash" />
          <span>Clear</span>
        </button>
      </header>
      <ul class="group-rows" aria-label={`${group.appName}: newest`}>
        {group.rows.map((row, index) => (
          <Row
            key={keyOf(row)}
            row={row}
            position={index}
            count={group.total}
            selected={selected?.app === row.app && selected.id === row.id}
            tabStop={stop ? stop === row : index === 0}
            checked={checked.has(keyOf(row))}
            onCheck={onCheck}
          />
        ))}
      </ul>
      {group.total > group.rows.length && (
        <button
          type="button"
          class="button button-quiet show-all"
          onClick={() => {
            history.groupByApp.value = false;
            history.setFilters({ app: group.app });
          }}
        >
          Show all {group.total.toLocaleString()} from {group.appName}
        </button>
      )}
    </section>
  );
}

export function GroupedList({ selected }: { selected: Selected }): VNode {
  const { history } = useModels();
  const groups = history.groups.value;
  const [active, setActive] = useState<string | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  /** The place of the row with the focus among all the groups' rows: a deleted one's place is taken by the next. */
  const place = useRef(0);
  const links = (): HTMLElement[] => [...(scroller.current?.querySelectorAll<HTMLElement>('.row-title') ?? [])];
  const keep = useFocusStays(scroller, () => {
    const all = links();
    return all[Math.min(place.current, all.length - 1)];
  });
  const rows = (groups ?? []).flatMap((group) => group.rows);
  /** A click on a row's checkbox; with Shift, every row from the last one selected, in the order shown. */
  const check = (row: HistoryRow, range: boolean): void => {
    const from = range ? history.anchor() : null;
    const at = rows.findIndex((one) => keyOf(one) === from);
    const to = rows.indexOf(row);
    if (at < 0 || to < 0) return history.select(row);
    history.select(row, { range: rows.slice(Math.min(at, to), Math.max(at, to) + 1) });
  };
  /** Up and Down (and j and k) go from row to row, across the groups; Space selects, Escape empties the selection. */
  const onKeyDown = (event: KeyboardEvent): void => {
    const current = (event.target as Element).closest<HTMLElement>('.row');
    if (!current) return;
    const row = rows.find((one) => keyOf(one) === current.dataset.key);
    if (event.key === ' ' && (event.target as Element).classList.contains('row-title') && row) {
      event.preventDefault();
      return check(row, event.shiftKey);
    }
    if (event.key === 'Escape' && history.selection.peek().size > 0) return history.clearSelection();
    const plain = !event.ctrlKey && !event.metaKey && !event.altKey;
    const step = { ArrowDown: 1, ArrowUp: -1 }[event.key] ?? (plain ? { j: 1, k: -1 }[event.key] : undefined);
    if (step === undefined) return;
    const all = links();
    const at = all.findIndex((link) => current.contains(link));
    const next = all[Math.min(all.length - 1, Math.max(0, at + step))];
    if (!next) return;
    event.preventDefault();
    next.focus();
  };
  if (history.groupsProblem.value) {
    return (
      <div class="list-scroller">
        <p class="empty" role="alert">
          History could not be loaded: {history.groupsProblem.value}
        </p>
      </div>
    );
  }
  if (groups === null || groups.length === 0) {
    return <div class="list-scroller">{groups === null ? <p class="empty">Loading…</p> : <Empty />}</div>;
  }
  return (
    <div
      class="list-scroller groups"
      ref={scroller}
      onKeyDown={onKeyDown}
      onFocusIn={(event) => {
        keep.onFocusIn();
        const row = (event.target as Element).closest<HTMLElement>('.row');
        if (!row?.dataset.key) return;
        setActive(row.dataset.key);
        place.current = Math.max(
          0,
          links().findIndex((link) => row.contains(link)),
        );
      }}
      onFocusOut={keep.onFocusOut}
    >
      {groups.map((group) => (
        <Group key={group.app} group={group} selected={selected} active={active} onCheck={check} />
      ))}
    </div>
  );
}
