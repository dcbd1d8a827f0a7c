// In History's first-run view: the offer to keep other programs' notifications here too (models/desktop.ts), while
// keeping them is off. Once the person takes it, it says so, and what the watch is doing (on, or refused and why).

import type { VNode } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useModels } from '../models/context.js';
import { pageHref } from '../models/router.js';
import { WatchState } from '../ui/desktop-watch.js';
import { Icon } from '../ui/icon.js';

export function DesktopOffer(): VNode | null {
  const { desktop, status } = useModels();
  const answer = desktop.answer.value;
  /** Turned on here: the offer becomes what it did. */
  const [taken, setTaken] = useState(false);
  const done = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    void desktop.load().catch(() => undefined); // not offered when it cannot be read
    return desktop.follow();
  }, []);
  // The button goes once pressed: the focus goes to what it did.
  useEffect(() => {
    if (taken) done.current?.focus();
  }, [taken]);
  if (!answer || (answer.keep && !taken)) return null;
  const take = async (): Promise<void> => {
    try {
      await desktop.setKeep(true);
      setTaken(true);
    } catch (error) {
      status.sayError(error);
    }
  };
  return (
    <>
      <h3>
        <Icon name="monitor" />
        <span>Your other programs' notifications</span>
      </h3>
      {taken ? (
        <>
          <p ref={done} tabIndex={-1}>
            Done: from now on, History keeps every notification your other programs show. You can stop it in Settings.
          </p>
          <WatchState answer={answer} />
          <a href={pageHref('settings')}>Other programs' notifications in Settings</a>
        </>
      ) : (
        <>
          <p>
            Your mail, chat, calendar and other programs show notifications too. Notifier can keep them here as well, so that every
            notification is in one place to read and search again.
          </p>
          <p class="muted">
            It keeps each one's program, title, text, picture and button labels, on this computer in{' '}
            <code class="exact">{answer.where}</code>, for you alone: never for the programs and scripts that use Notifier.
          </p>
          <button type="button" class="button" onClick={() => void take()}>
            Keep other programs' notifications here too
          </button>
        </>
      )}
    </>
  );
}
