// Signed-in windows (docs/app.md#signing-in): each window or installed app signed in to Notifier — its browser, when
// it signed in, when it was last used, this one marked — with Sign out for one and "Sign out everywhere", this
// window too. A window stays signed in across restarts of Notifier and of the computer, until 30 days unused.

import type { VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { appPaths, type SessionsAnswer, type SignedInWindow } from '../../../protocol/app-api.js';
import { type Models, useModels } from '../models/context.js';
import { messageOf } from '../models/requests.js';
import { exactTime, relativeTime, useTime } from '../ui/time.js';

/** This window's session ended here: the window says Signed out, as after its own Sign out. */
function signedOutHere({ api, events }: Models): void {
  events.disconnect();
  api.forgetCsrf();
  api.endSession('signedOut');
}

function WindowRow({ window, onSignOut }: { window: SignedInWindow; onSignOut: () => void }): VNode {
  const moment = useTime();
  const name = window.thisWindow ? `${window.browser} (this window)` : window.browser;
  return (
    <li class="session-row">
      <div>
        <strong>{name}</strong>
        <div class="muted">
          <span title={exactTime(window.signedInAt, moment)}>signed in {relativeTime(window.signedInAt, moment)}</span>
          {' · '}
          <span title={exactTime(window.lastUsedAt, moment)}>last used {relativeTime(window.lastUsedAt, moment)}</span>
        </div>
      </div>
      <button type="button" class="button" aria-label={`Sign out ${name}`} onClick={onSignOut}>
        Sign out
      </button>
    </li>
  );
}

export function SessionsSection(): VNode {
  const models = useModels();
  const [windows, setWindows] = useState<SignedInWindow[] | null>(null);
  const [problem, setProblem] = useState('');
  const load = (): void =>
    void models.api.call<SessionsAnswer>('GET', appPaths.sessions).then(
      (answer) => setWindows(answer.sessions),
      (error: unknown) => setProblem(messageOf(error)),
    );
  useEffect(load, []);
  const signOut = async (window: SignedInWindow): Promise<void> => {
    try {
      await models.api.call('DELETE', appPaths.sessionOne(window.handle));
      if (window.thisWindow) return signedOutHere(models);
      load();
    } catch (error) {
      setProblem(messageOf(error));
    }
  };
  const everywhere = async (): Promise<void> => {
    try {
      await models.api.call('DELETE', appPaths.sessions);
    } finally {
      signedOutHere(models);
    }
  };
  return (
    <section class="settings-section" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Signed-in windows</h2>
      <div class="group settings-group">
        <p class="muted">
          Each window and installed app signed in to Notifier on this computer. They stay signed in when Notifier or the computer restarts,
          until you sign them out or they go 30 days unused.
        </p>
        {problem && <p class="field-problem">{problem}</p>}
        {windows && (
          <ul class="session-list" aria-label="Signed-in windows">
            {windows.map((window) => (
              <WindowRow key={window.handle} window={window} onSignOut={() => void signOut(window)} />
            ))}
          </ul>
        )}
        <div class="actions">
          <button type="button" class="button" onClick={() => void everywhere()}>
            Sign out everywhere
          </button>
        </div>
      </div>
    </section>
  );
}
