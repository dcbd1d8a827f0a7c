// "Are you sure?" before something that cannot be undone (deleting History), as a modal <dialog>: the browser keeps
// focus inside it, Escape cancels, and focus goes back to the button that asked. The question is the confirm
// model's (models/confirm.ts): a page asks with `confirm.ask(…)` and waits for the answer.

import type { VNode } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { useModels } from '../models/context.js';
import './confirm.css';

export function ConfirmDialog(): VNode {
  const { confirm } = useModels();
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const question = confirm.asked.value;
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (question) {
      if (!element.open) element.showModal();
      cancel.current?.focus(); // the safe answer first: Enter alone does not delete
    } else if (element.open) element.close();
  }, [question]);
  const finish = (yes: boolean): void => {
    // Closed at once, not after the next paint: the browser gives the focus back to the button that asked now, and a
    // question asked right after finds the dialog closed.
    dialog.current?.close();
    confirm.answer(yes);
  };
  return (
    <dialog
      ref={dialog}
      class="dialog"
      aria-labelledby="confirm-title"
      aria-describedby="confirm-message"
      onCancel={(event) => {
        event.preventDefault();
        finish(false);
      }}
    >
      {question && (
        <form
          method="dialog"
          onSubmit={(event) => {
            event.preventDefault();
            finish(true);
          }}
        >
          <h2 id="confirm-title">{question.title}</h2>
          <p id="confirm-message">{question.message}</p>
          <div class="dialog-buttons">
            <button type="button" ref={cancel} class="button" onClick={() => finish(false)}>
              Cancel
            </button>
            <button type="submit" class="button button-danger">
              {question.confirm}
            </button>
          </div>
        </form>
      )}
    </dialog>
  );
}
