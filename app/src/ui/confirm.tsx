// "Are you sure?" before something that cannot be undone (deleting History), as a modal <dialog>: the browser
// keeps focus inside it, Escape cancels, and focus goes back to the button that asked.

import { signal } from '@preact/signals';
import type { VNode } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

interface Question {
  title: string;
  message: string;
  confirm: string;
  answer: (yes: boolean) => void;
}

const asked = signal<Question | null>(null);

export function confirmFirst(options: { title: string; message: string; confirm: string }): Promise<boolean> {
  asked.value?.answer(false);
  return new Promise((resolve) => (asked.value = { ...options, answer: resolve }));
}

export function ConfirmDialog(): VNode {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const question = asked.value;
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
    question?.answer(yes);
    asked.value = null;
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
