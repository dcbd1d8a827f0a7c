// The general settings (GET and PUT /v1/settings, through /app/api/settings): every key the daemon describes, with
// its meaning and range, grouped as a person looks for them. A key this page does not place (a newer daemon's)
// still appears, under Advanced.

import { signal } from '@preact/signals';
import type { VNode } from 'preact';
import { type SettingDescription, type SettingsAnswer, settingsPaths, type SettingValue } from '../../../protocol/app-api-settings.js';
import { call } from '../api.js';
import { say } from '../ui/status.js';
import { SettingControl } from './control.js';

export const general = signal<SettingsAnswer | null>(null);

export async function loadGeneral(): Promise<void> {
  general.value = await call<SettingsAnswer>('GET', settingsPaths.settings);
}

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

function rangeOf(rule: SettingDescription): string {
  const parts: string[] = [];
  if (rule.min !== undefined && rule.max !== undefined) parts.push(`From ${rule.min} to ${rule.max}.`);
  if (rule.restartsServer) parts.push('Changing it moves Notifier, and this window, to the new port: open Notifier again from the tray.');
  if (rule.default !== undefined && rule.type !== 'boolean')
    parts.push(`Default: ${rule.type === 'choice' ? choiceLabel(String(rule.default)) : String(rule.default)}.`);
  return parts.join(' ');
}

/** PUT one key; the answer is the whole state again. */
async function change(key: string, value: SettingValue | null): Promise<SettingsAnswer> {
  const answer = await call<SettingsAnswer>('PUT', settingsPaths.settings, { [key]: value });
  general.value = answer;
  return answer;
}

/** One key of GET /v1/settings as its control. */
export function GeneralSetting({ settingKey }: { settingKey: string }): VNode | null {
  const answer = general.value;
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
      hint={[rule.description, rangeOf(rule)].filter(Boolean).join(' ')}
      choices={choices}
      save={async (next) => {
        const changed = await change(rule.key, next);
        say(changed.note ? changed.note : `“${label}” saved.`);
      }}
      reset={
        rule.default === undefined
          ? undefined
          : {
              isDefault: value === rule.default,
              run: async () => {
                await change(rule.key, rule.default!);
                say(`“${label}” is back to its default.`);
              },
            }
      }
    />
  );
}

export function GeneralSection(): VNode {
  const answer = general.value;
  const placed = new Set<string>([...GENERAL_GROUPS.flatMap((group) => group.keys), ...SOUND_KEYS]);
  const others = answer?.schema.map((rule) => rule.key).filter((key) => !placed.has(key)) ?? [];
  return (
    <section class="settings-section" aria-labelledby="general-heading">
      <h2 id="general-heading">General settings</h2>
      <p class="muted">Each change is saved at once.</p>
      {GENERAL_GROUPS.map((group) => (
        <fieldset key={group.title} class="group settings-group">
          <legend>{group.title}</legend>
          {[...group.keys, ...(group.title === 'Advanced' ? others : [])].map((key) => (
            <GeneralSetting key={key} settingKey={key} />
          ))}
        </fieldset>
      ))}
    </section>
  );
}
