// One notification's row, in the windowed list (placed at its arithmetic position) and in the groups by app (in the
// flow): its checkbox (to act on several rows together), the app's picture, its name, priority, state and time, the
// title as the link to its details, the body's first line; and its actions — Mark as read or unread, Delete — shown
// while the pointer is over it or the focus is in it.

import type { VNode } from 'preact';
import { useState } from 'preact/hooks';
import type { HistoryRow } from '../../../protocol/app-api.js';
import { recordKey } from '../../../protocol/record-key.js';
import { titleOf } from '../models/history.js';
import { detailsHref } from '../models/router.js';
import { AppPicture } from '../ui/app-picture.js';
import { Icon } from '../ui/icon.js';
import { PriorityMark, StateBadges } from '../ui/state-badges.js';
import { When } from '../ui/time.js';
import { useRowActions } from './actions.js';

/** What tells a row from another in the document (`data-key`), and in a selection. */
export const keyOf = (row: { app: string; id: string }): string => recordKey(row.app, row.id);

export interface RowProps {
  row: HistoryRow;
  /** Its place in its list (0 first) and the list's length, for screen readers ("3 of 1,204"). */
  position: number;
  count: number;
  /** Placed at this many pixels from the list's top (the windowed list); in the flow without. */
  top?: number;
  /** Its details are open. */
  selected: boolean;
  /** The list's one stop for Tab (list.tsx). */
  tabStop: boolean;
  /** The heading of the day it starts (the windowed list). */
  day?: VNode;
  /** It is in the selection; `onCheck` is told of a click on its checkbox (`range`: with Shift). */
  checked: boolean;
  onCheck: (row: HistoryRow, range: boolean) => void;
}

/** The row's actions; in the order of Tab only on the list's tab stop (a row under the pointer is not one). */
function RowActions({ row, tabStop }: { row: HistoryRow; tabStop: boolean }): VNode {
  const { markRead, remove } = useRowActions();
  const title = titleOf(row);
  return (
    <div class="row-actions">
      <button
        type="button"
        class="button button-quiet icon-button"
        tabIndex={tabStop ? 0 : -1}
        title={row.read ? 'Mark as unread' : 'Mark as read'}
        aria-label={`Mark “${title}” as ${row.read ? 'unread' : 'read'}`}
        onClick={() => void markRead([row], !row.read)}
      >
        <Icon name={row.read ? 'mail' : 'mailOpen'} />
      </button>
      <button
        type="button"
        class="button button-quiet icon-button"
        tabIndex={tabStop ? 0 : -1}
        title="Delete"
        aria-label={`Delete “${title}”`}
        onClick={() => void remove([row])}
      >
        <Icon name="trash" />
      </button>
    </div>
  );
}

export function Row({ row, position, count, top, selected, tabStop, day, checked, onCheck }: RowProps): VNode {
  // Its actions are drawn only while the pointer is on it, or on the list's tab stop (shown once it has the focus):
  // not thirty rows' worth of hidden buttons for every search.
  const [pointed, setPointed] = useState(false);
  return (
    <li
      onMouseEnter={() => setPointed(true)}
      onMouseLeave={() => setPointed(false)}
      class={`row${row.read ? '' : ' unread'}${selected ? ' selected' : ''}${checked ? ' checked' : ''}${top === undefined ? ' row-in-flow' : ''}`}
      aria-setsize={count}
      aria-posinset={position + 1}
      data-position={position}
      data-key={keyOf(row)}
      style={top === undefined ? undefined : { top: `${top}px` }}
    >
      {day}
      {/* Not a stop for Tab (the list is one): Space selects the row with the focus. */}
      <input
        type="checkbox"
        class="row-check"
        tabIndex={-1}
        checked={checked}
        aria-label={`Select “${titleOf(row)}”`}
        onClick={(event) => onCheck(row, event.shiftKey)}
      />
      <AppPicture app={row.app} appName={row.appName} />
      <div class="row-main">
        <div class="row-top">
          {!row.read && (
            <span class="unread-dot" title="Unread">
              <span class="visually-hidden">Unread</span>
            </span>
          )}
          <span class="row-app">{row.appName}</span>
          {row.state.program && (
            <span class="program-mark" title="From another program on this computer">
              <Icon name="monitor" />
              <span class="visually-hidden">From another program</span>
            </span>
          )}
          <PriorityMark priority={row.priority} />
          <StateBadges state={row.state} />
          <When at={row.deliveredAt} />
        </div>
        <a class="row-title" href={detailsHref(row.app, row.id)} aria-current={selected ? 'page' : undefined} tabIndex={tabStop ? 0 : -1}>
          {titleOf(row)}
        </a>
        <div class="row-first">{row.title ? row.firstLine : ''}</div>
      </div>
      {(pointed || tabStop) && <RowActions row={row} tabStop={tabStop} />}
    </li>
  );
}
