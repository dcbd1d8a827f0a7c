// Removing one thing of a list (a relay key, an approved connector, a reply-event subscription, a sending key, a
// notification waiting to show): asked first; once the person says yes it is deleted, the status line says so, its
// list is read again, and the focus goes to the list's heading (the row and its button are gone).

import type { ComponentChildren, VNode } from 'preact';
import type { ConfirmQuestion } from '../models/confirm.js';
import { type Models, useModels } from '../models/context.js';
import { focusSoon } from './focus.js';

export interface Removal {
  question: ConfirmQuestion;
  /** What to DELETE (a path of the window's API). */
  path: string;
  /** What the status line says once it is gone. */
  done: string;
  /** Reads the list again. */
  reload: () => Promise<void>;
  /** The id of the list's heading. */
  headingId: string;
}

export async function removeAfterAsking({ api, confirm, status }: Models, removal: Removal): Promise<void> {
  if (!(await confirm.ask(removal.question))) return;
  try {
    await api.call('DELETE', removal.path);
    status.say(removal.done);
    await removal.reload();
    focusSoon(removal.headingId);
  } catch (error) {
    status.sayError(error);
  }
}

/**
 * A row of such a list: its words (`id` names them), then its button (`button`: "Revoke", "End"), described by the
 * words, that removes it; without `removal` (a key already revoked) the row has no button.
 */
export function RemovableRow({
  id,
  button,
  removal,
  children,
}: {
  id: string;
  button: string;
  removal: Removal | undefined;
  children: ComponentChildren;
}): VNode {
  const models = useModels();
  return (
    <li class="framed-row key-row">
      <div id={id}>{children}</div>
      {removal && (
        <button type="button" class="button" aria-describedby={id} onClick={() => void removeAfterAsking(models, removal)}>
          {button}
        </button>
      )}
    </li>
  );
}
