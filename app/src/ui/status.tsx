// One line at the foot of the page that says what just happened ("Reply sent.") or what went wrong, read out by
// screen readers (a live region), and gone after a few seconds. It has a strip of its own, under the page (never
// over it: status.css). Pages say it with the status model
// (models/status.ts): `status.say(…)`, `status.sayError(error)`.

import type { VNode } from 'preact';
import { useModels } from '../models/context.js';
import './status.css';

export function StatusLine(): VNode {
  const message = useModels().status.current.value;
  return (
    <div class="status-region" role="status" aria-live="polite">
      {message && (
        <p key={message.serial} class={message.error ? 'status status-error' : 'status'}>
          {message.text}
        </p>
      )}
    </div>
  );
}
