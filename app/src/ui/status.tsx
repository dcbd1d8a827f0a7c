// One line at the bottom of the window that says what just happened ("Reply sent.") or what went wrong, read out
// by screen readers (a live region), and gone after a few seconds.

import { signal } from '@preact/signals';
import type { VNode } from 'preact';
import { messageOf } from '../api.js';

interface Status {
  text: string;
  error: boolean;
  serial: number;
}

const current = signal<Status | null>(null);
let serial = 0;
let timer: ReturnType<typeof setTimeout> | undefined;
const SHOWN_MS = 5000;

export function say(text: string): void {
  show({ text, error: false, serial: ++serial });
}

export function sayError(error: unknown): void {
  show({ text: messageOf(error), error: true, serial: ++serial });
}

function show(status: Status): void {
  current.value = status;
  clearTimeout(timer);
  timer = setTimeout(() => (current.value = null), status.error ? SHOWN_MS * 2 : SHOWN_MS);
}

export function StatusLine(): VNode {
  const status = current.value;
  return (
    <div class="status-region" role="status" aria-live="polite">
      {status && (
        <p key={status.serial} class={status.error ? 'status status-error' : 'status'}>
          {status.text}
        </p>
      )}
    </div>
  );
}
