// Settings (docs/app.md#settings): quiet hours, the general settings, sounds and voice, and every app's own
// settings, each section loaded on its own so one that fails does not hide the others.

import type { VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { useModels } from '../models/context.js';
import { messageOf } from '../models/requests.js';
import { AppsSection } from './apps.js';
import { GeneralSection } from './general.js';
import { QuietSection } from './quiet.js';
import { SessionsSection } from './sessions.js';
import { VoiceSection } from './voice.js';
import './settings.css';

const SECTIONS: ReadonlyArray<readonly [id: string, title: string]> = [
  ['quiet-heading', 'Quiet hours'],
  ['general-heading', 'General settings'],
  ['desktop-heading', "Other programs' notifications"],
  ['voice-heading', 'Sounds and voice'],
  ['apps-heading', 'Apps'],
  ['sessions-heading', 'Signed-in windows'],
];

/** A jump to a section: its heading takes the focus (the router would take the link for a page of its own). */
function jump(event: Event, id: string): void {
  event.preventDefault();
  const heading = document.getElementById(id);
  if (!heading) return;
  heading.tabIndex = -1;
  heading.scrollIntoView({ block: 'start' });
  heading.focus({ preventScroll: true });
}

export function SettingsPage(): VNode {
  const { settings, desktop } = useModels();
  const [problems, setProblems] = useState<string[]>([]);
  useEffect(() => {
    const failed = (what: string) => (error: unknown) => setProblems((known) => [...known, `${what}: ${messageOf(error)}`]);
    void settings.loadQuiet().catch(failed('Quiet hours could not be read'));
    void settings.loadGeneral().catch(failed('The settings could not be read'));
    void desktop.load().catch(failed("Other programs' notifications could not be read"));
    void settings.loadVoice().catch(failed('The voice engine could not be read'));
    void settings.loadApps().catch(failed('The apps could not be read'));
  }, []);
  return (
    <div class="page settings">
      <header class="page-head">
        <div class="page-title">
          <h1>Settings</h1>
          <p class="muted">Quiet hours, banners, History, sounds and voice, and each app's own settings.</p>
        </div>
      </header>
      {/* Not a landmark: the window's one navigation stays "Pages". */}
      <p class="settings-jump">
        <span class="muted">Jump to:</span>
        {SECTIONS.map(([id, title]) => (
          <a key={id} href={`#${id}`} onClick={(event) => jump(event, id)}>
            {title}
          </a>
        ))}
      </p>
      {problems.map((problem) => (
        <p key={problem} class="field-problem">
          {problem}
        </p>
      ))}
      <QuietSection />
      <GeneralSection />
      <VoiceSection />
      <AppsSection />
      <SessionsSection />
    </div>
  );
}
