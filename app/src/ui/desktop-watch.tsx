// What watching the desktop's notifications is doing (models/desktop.ts), in words a person reads: Settings shows
// it under its switch, and History's first-run view once the person turned keeping on there.

import type { VNode } from 'preact';
import type { DesktopAnswer } from '../../../protocol/app-api-settings.js';
import { Icon } from './icon.js';
import './desktop-watch.css';
import './tones.css';

/** The words, in the tone of what they say: quiet while starting, done once on, problem when refused. */
function watchWords(answer: DesktopAnswer): { text: string; tone: 'quiet' | 'done' | 'problem' } | null {
  if (!answer.keep) return null;
  const { state, reason } = answer.monitor;
  if (state === 'on') return { text: 'On: each new notification of another program is kept in History.', tone: 'done' };
  if (state === 'refused') {
    const why = reason ? ` (${reason})` : '';
    return { text: `Your desktop does not let Notifier watch its notifications${why}. Nothing else is affected.`, tone: 'problem' };
  }
  // Turned on and not watching yet: 'off' is the moment before the watch starts.
  return { text: 'Starting…', tone: 'quiet' };
}

/** The state as a live line (read out when it changes); empty while keeping is off. */
export function WatchState({ answer, id }: { answer: DesktopAnswer; id?: string }): VNode {
  const words = watchWords(answer);
  return (
    <p id={id} class={words ? `watch-state tone-${words.tone}` : 'watch-state-none'} role="status">
      {words && words.tone !== 'quiet' && <Icon name={words.tone === 'done' ? 'circleCheck' : 'triangleAlert'} />}
      {words?.text}
    </p>
  );
}
