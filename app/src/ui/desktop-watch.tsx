// What watching the desktop's notifications is doing (models/desktop.ts), in words a person reads: Settings shows
// it under its switch, and History's first-run view once the person turned keeping on there.

import type { VNode } from 'preact';
import type { DesktopAnswer } from '../../../protocol/app-api-settings.js';
import { Icon } from './icon.js';
import './desktop-watch.css';

function watchWords(answer: DesktopAnswer): { text: string; tone: 'busy' | 'on' | 'refused' } | null {
  if (!answer.keep) return null;
  const { state, reason } = answer.monitor;
  if (state === 'on') return { text: 'On: each new notification of another program is kept in History.', tone: 'on' };
  if (state === 'refused') {
    const why = reason ? ` (${reason})` : '';
    return { text: `Your desktop does not let Notifier watch its notifications${why}. Nothing else is affected.`, tone: 'refused' };
  }
  // Turned on and not watching yet: 'off' is the moment before the watch starts.
  return { text: 'Starting…', tone: 'busy' };
}

/** The state as a live line (read out when it changes); empty while keeping is off. */
export function WatchState({ answer, id }: { answer: DesktopAnswer; id?: string }): VNode {
  const words = watchWords(answer);
  return (
    <p id={id} class={words ? `watch-state watch-${words.tone}` : 'watch-state-none'} role="status">
      {words && words.tone !== 'busy' && <Icon name={words.tone === 'on' ? 'circleCheck' : 'triangleAlert'} />}
      {words?.text}
    </p>
  );
}
