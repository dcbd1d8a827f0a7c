// Removing one thing of a list (a relay key, an approved connector, a reply-event subscription, a sending key): asked first; once
// the person says yes it is deleted, the status line says so, its list is read again, and the focus goes to the
// list's heading (the row and its button are gone).

import type { ConfirmQuestion } from '../models/confirm.js';
import type { Models } from '../models/context.js';
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
