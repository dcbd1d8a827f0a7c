// At the top of another program's notification (a record kept from the desktop: docs/app.md#history): who sent it,
// the labels of its own buttons, the one the person chose on its banner and how that banner ended — in words, as
// plain text. Its buttons are the program's: they work on its banner, so the details offer none to press.

import type { VNode } from 'preact';
import type { NotificationDetails } from '../../../protocol/app-api.js';
import { Icon } from '../ui/icon.js';

/** What the daemon keeps of a program's notification in its metadata (docs/desktop.md). */
interface ProgramFacts {
  program: string;
  actions: string[];
  ending?: string;
}

/** The daemon's label for a click on the banner itself, which is none of its buttons. */
const CLICKED = 'Opened';

function factsOf({ row, record }: NotificationDetails): ProgramFacts {
  const metadata = record.notification.metadata ?? {};
  const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
  const actions = Array.isArray(metadata.actions) ? metadata.actions.filter((label): label is string => typeof label === 'string') : [];
  const ending = text(metadata.ending);
  return { program: text(metadata.program) ?? row.appName, actions, ...(ending ? { ending } : {}) };
}

/** How its banner ended, as the person reads it. */
function endingWords(ending: string, program: string): string {
  if (ending === 'expired') return 'It expired.';
  if (ending === 'dismissed') return 'You closed it.';
  if (ending === 'closed-by-program') return `${program} closed it.`;
  return 'Its banner closed.';
}

export function ProgramNote({ details }: { details: NotificationDetails }): VNode {
  const { program, actions, ending } = factsOf(details);
  const chosen = details.record.actionUsed;
  return (
    <div class="program-note">
      <Icon name="monitor" />
      <div>
        <p>
          <strong>Sent by {program} to your desktop.</strong> Kept here to read again: to answer it or use its buttons, go to {program}.
        </p>
        {actions.length > 0 && <p>Its buttons: {actions.join(', ')}.</p>}
        {chosen && <p>{chosen === CLICKED && !actions.includes(chosen) ? 'You clicked its banner.' : `You chose ${chosen}.`}</p>}
        {ending && <p>{endingWords(ending, program)}</p>}
      </div>
    </div>
  );
}
