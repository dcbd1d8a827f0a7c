// The general settings (GET and PUT /v1/settings, through /app/api/settings): every key the daemon describes, with
// its meaning and range, grouped as a person looks for them. A key this page does not place (a newer daemon's)
// still appears, under Advanced.

import { Fragment, type VNode } from 'preact';
import type { SettingDescription } from '../../../protocol/app-api-settings.js';
import { useModels } from '../models/context.js';
import { SettingControl } from './control.js';
import { DesktopSection } from './desktop.js';

/** What each key is called on the page (the API's description says what it does). */
const LABELS: Record<string, string> = {
  port: 'Port',
  launchAtLogin: 'Start Notifier when you log in',
  muteAllSounds: 'Mute all sounds and speech',
  stacking: 'Stack banners',
  historyCapPerApp: 'Notifications kept per app',
  tooltipLevel: 'Tray tooltip',
  bannerCardImage: 'Show the card picture on banners',
  voiceEngine: 'Speech engine',
  voiceDefault: 'Voice',
  voiceSpeed: 'Speed',
  voiceLang: 'Language',
};

/** What each key does, for a person (the API's own description, written for programs, is the fallback). */
const DESCRIPTIONS: Record<string, string> = {
  port: 'The port Notifier listens on, on this computer only; the programs that send notifications use it.',
  launchAtLogin: 'Notifier starts by itself when you log in.',
  muteAllSounds: 'No sound and no speech from any notification; what asks to be spoken is shown as a banner instead.',
  stacking: 'How banners of the same kind are stacked into one. Each app can choose its own, under Apps.',
  historyCapPerApp: 'How many notifications History keeps for each app. Lowering it removes the oldest at once.',
  tooltipLevel: 'What the Notifier icon in the tray shows when you point at it.',
  bannerCardImage: 'Each banner shows its card picture, drawn from its template.',
  voiceEngine: 'What reads notifications aloud. Off: nothing is spoken, and what asks to be spoken is shown as a banner.',
  voiceDefault: 'The voice for notifications that do not name one.',
  voiceSpeed: 'How fast the voice speaks, when a notification does not say; 1 is the usual speed.',
  voiceLang: 'The language to read in when a notification does not say, such as en-us or en-gb.',
};

/** The words for a choice's values. */
const CHOICE_LABELS: Record<string, string> = {
  byApp: 'By app',
  byIssuer: 'By issuer (what the app says sent it)',
  bySender: 'By sender (the app and its issuer)',
  never: 'Never: one banner each',
  nameOnly: 'The name only',
  nameAndDescription: 'The name and a description',
  system: 'The system voice',
  off: 'Off: nothing is spoken',
};

export const choiceLabel = (value: string): string => CHOICE_LABELS[value] ?? value;

/** The groups of the "General settings" section; the voice keys are in "Sounds and voice". */
export const GENERAL_GROUPS: ReadonlyArray<{ title: string; keys: readonly string[] }> = [
  { title: 'Banners', keys: ['stacking', 'bannerCardImage'] },
  { title: 'History', keys: ['historyCapPerApp'] },
  { title: 'Advanced', keys: ['tooltipLevel', 'launchAtLogin', 'port'] },
];
export const SOUND_KEYS = ['muteAllSounds', 'voiceEngine', 'voiceDefault', 'voiceSpeed', 'voiceLang'] as const;

function rangeOf(rule: SettingDescription, choices: ReadonlyArray<readonly [string, string]> | undefined): string {
  const parts: string[] = [];
  if (rule.min !== undefined && rule.max !== undefined) parts.push(`From ${rule.min} to ${rule.max}.`);
  if (rule.restartsServer) parts.push('Changing it moves Notifier, and this window, to the new port: open Notifier again from the tray.');
  if (rule.default !== undefined && rule.type !== 'boolean') {
    const named = choices?.find(([value]) => value === String(rule.default))?.[1];
    parts.push(`Default: ${named ?? String(rule.default)}.`);
  }
  return parts.join(' ');
}

/** One key of GET /v1/settings as its control. */
export function GeneralSetting({ settingKey }: { settingKey: string }): VNode | null {
  const { settings, status } = useModels();
  const answer = settings.general.value;
  const rule = answer?.schema.find((described) => described.key === settingKey);
  if (!answer || !rule) return null;
  const label = LABELS[rule.key] ?? rule.key;
  const value = answer.settings[rule.key] ?? null;
  let choices: ReadonlyArray<readonly [string, string]> | undefined;
  if (rule.type === 'choice') choices = (rule.values ?? []).map((choice) => [choice, choiceLabel(choice)] as const);
  if (rule.key === 'voiceDefault' && answer.options.voices) {
    const voices = answer.options.voices.map(
      (voice) => [voice.id, voice.id === 'default' ? "The engine's own voice" : voice.name] as const,
    );
    // A voice set elsewhere that the engine does not list stays choosable, as it is.
    choices = voices.some(([id]) => id === value) ? voices : [...voices, [String(value), String(value)] as const];
  }
  return (
    <SettingControl
      id={`setting-${rule.key}`}
      label={label}
      type={rule.type}
      value={value}
      hint={[DESCRIPTIONS[rule.key] ?? rule.description, rangeOf(rule, choices)].filter(Boolean).join(' ')}
      choices={choices}
      save={async (next) => {
        const changed = await settings.changeGeneral(rule.key, next);
        status.say(changed.note ? changed.note : `“${label}” saved.`);
      }}
      reset={
        rule.default === undefined
          ? undefined
          : {
              isDefault: value === rule.default,
              run: async () => {
                await settings.changeGeneral(rule.key, rule.default!);
                status.say(`“${label}” is back to its default.`);
              },
            }
      }
    />
  );
}

export function GeneralSection(): VNode {
  const answer = useModels().settings.general.value;
  const placed = new Set<string>([...GENERAL_GROUPS.flatMap((group) => group.keys), ...SOUND_KEYS]);
  const others = answer?.schema.map((rule) => rule.key).filter((key) => !placed.has(key)) ?? [];
  return (
    <section class="settings-section" aria-labelledby="general-heading">
      <h2 id="general-heading">General settings</h2>
      <p class="muted">Each change is saved at once.</p>
      {GENERAL_GROUPS.map((group) => (
        <Fragment key={group.title}>
          <fieldset class="group settings-group">
            <legend>{group.title}</legend>
            {[...group.keys, ...(group.title === 'Advanced' ? others : [])].map((key) => (
              <GeneralSetting key={key} settingKey={key} />
            ))}
          </fieldset>
          {/* What History keeps of other programs, next to what it keeps of the apps. */}
          {group.title === 'History' && <DesktopSection />}
        </Fragment>
      ))}
    </section>
  );
}
