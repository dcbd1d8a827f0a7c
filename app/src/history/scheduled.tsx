// What waits for its time, above History's list (docs/app.md#history, docs/api/scheduled.md): the notifications a
// sender asked to show later (ntfy's `delay`), each with its app, its title and when it shows, and "Cancel" (asked
// first). Read when the page opens and again whenever a notification arrives, which is how a waiting one leaves the
// list: it arrives. Nothing is drawn while none waits.

import type { VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { APP_API, type ScheduledAnswer, type ScheduledRow } from '../../../protocol/app-api.js';
import { useModels } from '../models/context.js';
import { type Removal, RemovableRow } from '../ui/remove.js';
import { exactTime, useTime } from '../ui/time.js';
import '../ui/keys.css';

const HEADING_ID = 'scheduled-heading';

export function ScheduledStrip(): VNode | null {
  const { api, events, apps } = useModels();
  const moment = useTime();
  const [rows, setRows] = useState<ScheduledRow[]>([]);

  const load = (): Promise<void> =>
    api.call<ScheduledAnswer>('GET', APP_API.historyScheduled).then(
      (answer) => setRows(answer.scheduled),
      () => undefined, // the list is a convenience: History itself says what failed
    );
  useEffect(() => {
    void load();
    return events.on('row', () => void load());
  }, []);

  const cancel = (row: ScheduledRow): Removal => ({
    question: {
      title: `Cancel “${row.title}”?`,
      message: `It will not show at ${exactTime(row.at, moment)}, and nothing of it is kept.`,
      confirm: 'Cancel it',
    },
    path: `${APP_API.historyScheduled}?app=${encodeURIComponent(row.app)}&id=${encodeURIComponent(row.id)}`,
    done: `“${row.title}” was cancelled.`,
    reload: load,
    headingId: HEADING_ID,
  });

  if (rows.length === 0) return null;
  const nameOf = (app: string): string => apps.apps.value.find((each) => each.app === app)?.appName ?? app;
  return (
    <section class="scheduled-strip" aria-labelledby={HEADING_ID}>
      <h2 id={HEADING_ID} tabIndex={-1} class="scheduled-heading">
        Waiting to show ({rows.length})
      </h2>
      <ul class="framed-list" aria-label="Notifications waiting to show">
        {rows.map((row) => (
          <RemovableRow key={`${row.app}/${row.id}`} id={`scheduled-${row.app}-${row.id}`} button="Cancel" removal={cancel(row)}>
            <strong>{row.title || '(no title)'}</strong> <span class="muted">· {nameOf(row.app)}</span>
            <div class="muted key-row-times">shows {exactTime(row.at, moment)}</div>
          </RemovableRow>
        ))}
      </ul>
    </section>
  );
}
