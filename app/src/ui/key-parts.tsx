// The parts of a key shown once and of a list of keys, shared by the Relay page's agent keys and connectors and an
// app's sending keys in Settings: the key with "Copy", its ready-made set-ups (each with "Copy"), and a row's
// times (made or approved, last used or revoked).

import type { VNode } from 'preact';
import { useModels } from '../models/context.js';
import { copyText } from './copy.js';
import { exactTime, relativeTime, useTime } from './time.js';
import './keys.css';

/** A ready-made set-up: what it is for, where it goes, and the text to paste. */
export interface SetupLine {
  id: string;
  title: string;
  where: string;
  text: string;
}

/** The key itself, selectable, with "Copy". */
export function KeyValue({ value, id }: { value: string; id?: string }): VNode {
  const { status } = useModels();
  return (
    <div class="key-line">
      <code class="exact key-value" {...(id ? { id } : {})}>
        {value}
      </code>
      <button type="button" class="button" onClick={() => void copyText(status, value, 'The key')}>
        Copy<span class="visually-hidden"> the key</span>
      </button>
    </div>
  );
}

/** The set-ups, the first open, each with "Copy"; `prefix` makes their ids unique on the page. */
export function SetupLines({ lines, prefix }: { lines: readonly SetupLine[]; prefix: string }): VNode {
  const { status } = useModels();
  return (
    <>
      {lines.map((line, index) => (
        <details key={line.id} class="key-setup" open={index === 0}>
          <summary id={`${prefix}-${line.id}`}>{line.title}</summary>
          <p class="muted">{line.where}</p>
          <pre aria-labelledby={`${prefix}-${line.id}`} tabIndex={0}>
            <code>{line.text}</code>
          </pre>
          <button type="button" class="button" onClick={() => void copyText(status, line.text, `The ${line.title} set-up`)}>
            Copy<span class="visually-hidden"> the {line.title} set-up</span>
          </button>
        </details>
      ))}
    </>
  );
}

/** A key's times in its row: when it was made (`made`: "made", "approved"), then revoked, last used, or not used yet. */
export function KeyTimes({
  made,
  at,
  lastUsedAt,
  revokedAt,
}: {
  made: string;
  at: string;
  lastUsedAt?: string;
  revokedAt?: string;
}): VNode {
  const moment = useTime();
  return (
    <div class="muted key-row-times">
      <span title={exactTime(at, moment)}>
        {made} {relativeTime(at, moment)}
      </span>
      {' · '}
      {revokedAt ? (
        <span title={exactTime(revokedAt, moment)}>revoked {relativeTime(revokedAt, moment)}</span>
      ) : lastUsedAt ? (
        <span title={exactTime(lastUsedAt, moment)}>last used {relativeTime(lastUsedAt, moment)}</span>
      ) : (
        'not used yet'
      )}
    </div>
  );
}

/** Hides a key shown once: after it, the key cannot be shown again. */
export function HideKey({ onDone }: { onDone: () => void }): VNode {
  return (
    <div class="actions">
      <button type="button" class="button button-primary" onClick={onDone}>
        Done: hide the key
      </button>
    </div>
  );
}
