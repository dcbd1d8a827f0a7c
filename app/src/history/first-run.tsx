// History's first-run view (docs/app.md#the-first-run-view): while History holds no notification at all (not an
// empty search), what Notifier is, a button that sends a test notification as Notifier itself, the offer to keep
// other programs' notifications here too (desktop-offer.tsx), and the line a script runs to send one — with this
// daemon's real port, and its token read from its file: the token itself is never in the page.

import type { VNode } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { appPaths, type ComposeAnswer, type ComposeRequest } from '../../../protocol/app-api.js';
import { type FirstRunAnswer, firstRunPaths } from '../../../protocol/app-api-first-run.js';
import { useModels } from '../models/context.js';
import { messageOf } from '../models/requests.js';
import { Icon } from '../ui/icon.js';
import { DesktopOffer } from './desktop-offer.js';
import { focusList } from './focus.js';

/** Sent as Notifier's own app (`/app/api/compose` without an app). */
const TEST_NOTIFICATION = {
  title: 'Notifier works',
  body: 'This is a test notification. What your apps, scripts and agents send you appears like this, and stays in History.',
};
/** What the script line sends: a name of its own, so it shows in History as the script's. */
const SCRIPT_NOTIFICATION = { app: 'my-script', title: 'Hello from my script' };

/** A word for a POSIX shell: as it is when plain, else in single quotes (a support folder with a space). */
const shellWord = (word: string): string => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/** The line a script runs: `POST /v1/notify` with the token read from its file when the line runs. */
export function scriptLine({ port, tokenFile }: FirstRunAnswer): string {
  return (
    `curl -s http://127.0.0.1:${port}/v1/notify ` +
    `-H "Authorization: Bearer $(cat ${shellWord(tokenFile)})" ` +
    `-d '${JSON.stringify(SCRIPT_NOTIFICATION)}'`
  );
}

function ScriptLine(): VNode {
  const { api, status } = useModels();
  const [place, setPlace] = useState<FirstRunAnswer | null>(null);
  const [problem, setProblem] = useState('');
  useEffect(() => {
    api.call<FirstRunAnswer>('GET', firstRunPaths.firstRun).then(setPlace, (error: unknown) => setProblem(messageOf(error)));
  }, []);
  if (problem) return <p role="alert">The line could not be made: {problem}</p>;
  if (!place) return <p class="muted">Loading…</p>;
  const line = scriptLine(place);
  const copy = (): void => {
    navigator.clipboard.writeText(line).then(
      () => status.say('Copied.'),
      () => status.say('Copying was refused: select the line and copy it.'),
    );
  };
  return (
    <>
      <p>
        Any program on this computer can send you a notification: Notifier listens at <code>http://127.0.0.1:{place.port}</code>. Run this
        line in a terminal to send one. It reads Notifier's key from its file when it runs, so the key itself is never shown here.
      </p>
      <pre class="first-run-line" aria-label="Command that sends a notification">
        <code>{line}</code>
      </pre>
      <button type="button" class="button" onClick={copy}>
        Copy the command
      </button>
    </>
  );
}

export function FirstRun(): VNode {
  const { api, status } = useModels();
  const view = useRef<HTMLElement>(null);
  const sending = useRef(false);
  // The view goes once the first notification arrives (often the test one): a focus that was in it goes to the list.
  useEffect(() => {
    const element = view.current;
    return () => {
      if (element?.contains(document.activeElement)) focusList();
    };
  }, []);
  const sendTest = async (): Promise<void> => {
    if (sending.current) return;
    sending.current = true;
    try {
      await api.call<ComposeAnswer, ComposeRequest>('POST', appPaths.compose, TEST_NOTIFICATION);
      status.say('Test notification sent.');
    } catch (error) {
      status.sayError(error);
    } finally {
      sending.current = false;
    }
  };
  return (
    <section ref={view} class="first-run" aria-labelledby="first-run-title">
      <Icon name="inbox" class="icon-large" />
      <h2 id="first-run-title">No notifications yet</h2>
      <p>
        Notifier puts the notifications your apps, scripts and agents send you on screen, and keeps each one here in History. Here you can
        read them again, answer their questions and use their buttons.
      </p>
      <button type="button" class="button button-primary" onClick={() => void sendTest()}>
        <Icon name="send" />
        <span>Send a test notification</span>
      </button>
      <DesktopOffer />
      <h3>
        <Icon name="terminal" />
        <span>Send one from a script</span>
      </h3>
      <ScriptLine />
    </section>
  );
}
