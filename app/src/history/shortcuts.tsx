// History's keys, as in a mail client: j and k go to the next and previous row, Enter opens it, r replies, e marks
// read, # deletes (with Undo), z undoes, ? lists them all in a dialog. None of them fires while the person types in
// a field, a list or an editor, nor with Ctrl, Alt or Cmd; the list's own keys (Up, Down, Space, Escape) are its.

import { Fragment, type VNode } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type { HistoryRow } from '../../../protocol/app-api.js';
import { keyParts, recordKey } from '../../../protocol/record-key.js';
import { useModels } from '../models/context.js';
import type { HistoryModel } from '../models/history.js';
import { detailsHref } from '../models/router.js';
import { isTyping } from '../ui/typing.js';
import { useRowActions } from './actions.js';
import { useTakeBack } from './undo-toast.js';

/** Every key of History, as the help dialog lists them. */
export const SHORTCUTS: Array<[keys: string[], what: string]> = [
  [['j'], 'Next notification'],
  [['k'], 'Previous notification'],
  [['Enter'], 'Open it'],
  [['r'], 'Reply to it (when it takes a reply)'],
  [['e'], 'Mark it read'],
  [['#'], 'Delete it (Undo for 10 seconds)'],
  [['z'], 'Undo'],
  [['Space'], 'Select it, or leave it out'],
  [['Shift', 'Space'], 'Select every notification from the one selected last'],
  [['Escape'], 'Empty the selection'],
  [['/'], 'Search'],
  [['?'], 'These keys'],
];

/** The row the focus is on in the list (or the groups), if any. */
function focusedRow(history: HistoryModel): HistoryRow | undefined {
  const key = document.activeElement?.closest<HTMLElement>('.list-pane .row')?.dataset.key;
  if (!key) return undefined;
  const { app, id } = keyParts(key);
  const position = history.positionOf(app, id);
  if (position !== undefined) return history.rowAt(position);
  return history.groups
    .peek()
    ?.flatMap((group) => group.rows)
    .find((row) => row.app === app && row.id === id);
}

/** Listens to History's keys while the page is shown; `openHelp` shows the dialog that lists them. */
export function useShortcuts(openHelp: () => void): void {
  const { history, router } = useModels();
  const actions = useRowActions();
  const takeBack = useTakeBack();
  // The handler is made once; what it calls is read fresh from here at each key.
  const current = useRef({ actions, takeBack, openHelp });
  current.current = { actions, takeBack, openHelp };
  useEffect(() => {
    /** What e and # act on: the selection, else the row with the focus, else the open notification. */
    const targets = (): HistoryRow[] => {
      const selected = [...history.selection.peek().values()];
      if (selected.length > 0) return selected;
      const one = focusedRow(history) ?? history.opened.peek();
      return one ? [one] : [];
    };
    const reply = (): void => {
      const row = focusedRow(history) ?? history.opened.peek();
      if (!row) return;
      history.replyWanted.value = recordKey(row.app, row.id);
      router.navigate(detailsHref(row.app, row.id)); // nothing when they are open already
    };
    const keys: Record<string, () => void> = {
      '?': () => current.current.openHelp(),
      j: () => document.querySelector<HTMLElement>('.list-pane .row-title[tabindex="0"]')?.focus(),
      k: () => document.querySelector<HTMLElement>('.list-pane .row-title[tabindex="0"]')?.focus(),
      r: reply,
      e: () => void current.current.actions.markRead(targets(), true),
      '#': () => void current.current.actions.remove(targets()),
      z: () => void current.current.takeBack(),
      Escape: () => history.clearSelection(),
    };
    const onKey = (event: KeyboardEvent): void => {
      const run = keys[event.key];
      if (!run || event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || isTyping(event)) return;
      if (document.querySelector('dialog[open]')) return; // a dialog's keys are its own
      if (event.key === 'Escape' && history.selection.peek().size === 0) return;
      event.preventDefault();
      run();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}

/** The dialog "Keyboard shortcuts", opened by ? or its button; Escape or Close closes it, giving the focus back. */
export function ShortcutsHelp({ open, onClose }: { open: boolean; onClose: () => void }): VNode {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current!;
    if (open && !element.open) element.showModal();
    else if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog ref={dialog} class="dialog shortcuts-dialog" aria-labelledby="shortcuts-title" onClose={onClose}>
      {open && (
        <>
          <h2 id="shortcuts-title">Keyboard shortcuts</h2>
          <p class="muted">In History, when you are not typing in a field.</p>
          <table class="shortcuts">
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">What it does</th>
              </tr>
            </thead>
            <tbody>
              {SHORTCUTS.map(([keys, what]) => (
                <tr key={what}>
                  <td>
                    {keys.map((key, index) => (
                      <Fragment key={key}>
                        {index > 0 && ' + '}
                        <kbd>{key}</kbd>
                      </Fragment>
                    ))}
                  </td>
                  <td>{what}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div class="dialog-buttons">
            <button type="button" class="button" onClick={() => dialog.current?.close()}>
              Close
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}
