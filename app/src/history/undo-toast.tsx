// Undo, for 10 seconds after a deletion, a Mark all read or a dismissal: what was done, in words, and the button
// that takes it back on the daemon (also the key z). A live region, so a screen reader says what was done.

import type { VNode } from 'preact';
import { useModels } from '../models/context.js';
import { Icon } from '../ui/icon.js';
import { focusList } from './focus.js';

/** Takes back what the offer did, and says so (or why it could not). */
export function useTakeBack(): () => Promise<void> {
  const { history, status } = useModels();
  return async () => {
    try {
      await history.takeBack();
      status.say('Undone.');
    } catch (error) {
      status.sayError(error);
    }
  };
}

export function UndoToast(): VNode {
  const { history } = useModels();
  const takeBack = useTakeBack();
  const offer = history.undo.value;
  return (
    <div class="undo-region" role="status">
      {offer && (
        <div key={offer.serial} class="undo-toast">
          <span>{offer.text}</span>
          <button
            type="button"
            class="button"
            aria-keyshortcuts="z"
            onClick={() => {
              focusList(); // the button goes with the offer
              void takeBack();
            }}
          >
            <Icon name="undo2" />
            <span>Undo</span>
            <kbd aria-hidden="true">Z</kbd>
          </button>
        </div>
      )}
    </div>
  );
}
