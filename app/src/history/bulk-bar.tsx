// The rows the person selected (their checkboxes, Space, Shift+click), and what to do with them together: Mark read,
// Mark unread, Delete (with Undo); the cross empties the selection (so does Escape in the list).

import type { VNode } from 'preact';
import { useModels } from '../models/context.js';
import { Icon } from '../ui/icon.js';
import { useRowActions } from './actions.js';

export function BulkBar(): VNode | null {
  const { history } = useModels();
  const { markRead, remove } = useRowActions();
  const rows = [...history.selection.value.values()];
  if (rows.length === 0) return null;
  return (
    <div class="bulk-bar" role="group" aria-label="Selected notifications">
      <span class="bulk-count" aria-live="polite">
        {rows.length.toLocaleString()} selected
      </span>
      <button type="button" class="button button-quiet" title="Mark read" onClick={() => void markRead(rows, true)}>
        <Icon name="mailOpen" />
        <span>Mark read</span>
      </button>
      <button type="button" class="button button-quiet" title="Mark unread" onClick={() => void markRead(rows, false)}>
        <Icon name="mail" />
        <span>Mark unread</span>
      </button>
      <button type="button" class="button button-quiet" title="Delete" onClick={() => void remove(rows)}>
        <Icon name="trash" />
        <span>Delete</span>
      </button>
      <button
        type="button"
        class="button button-quiet icon-button"
        title="Empty the selection"
        aria-label="Empty the selection"
        onClick={() => history.clearSelection()}
      >
        <Icon name="x" />
      </button>
    </div>
  );
}
