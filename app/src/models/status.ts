// The status line's message (ui/status.tsx): what just happened ("Reply sent.") or what went wrong, gone after a
// few seconds (an error after twice as long).

import { createModel, signal } from '@preact/signals';
import type { Clock } from './dependencies.js';
import { messageOf } from './requests.js';

const SHOWN_MS = 5000;

export interface StatusMessage {
  text: string;
  error: boolean;
  /** Tells one message from the next with the same words: each is read out anew. */
  serial: number;
}

export const StatusModel = createModel((clock: Clock) => {
  const current = signal<StatusMessage | null>(null);
  let serial = 0;
  let cancel = (): void => undefined;
  function show(text: string, error: boolean): void {
    current.value = { text, error, serial: ++serial };
    cancel();
    cancel = clock.after(error ? SHOWN_MS * 2 : SHOWN_MS, () => (current.value = null));
  }
  return {
    current,
    say(text: string): void {
      show(text, false);
    },
    sayError(error: unknown): void {
      show(messageOf(error), true);
    },
  };
});
export type StatusModel = InstanceType<typeof StatusModel>;
