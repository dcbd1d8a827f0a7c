// Apps: every app that sent something (GET /v1/apps/settings, through /app/api/settings/apps), with its name, its
// picture, its newest notification and its settings — mute, banners, sound, speech, stacking — each saved at once
// (PUT /v1/apps/settings). Removing an app asks first and says what goes (DELETE /v1/apps/{id}).

import type { VNode } from 'preact';
import { useEffect } from 'preact/hooks';
import { OWN_APP } from '../../../protocol/app-api.js';
import { type AppSettingsAnswer, type AppSettingsEntry, settingsPaths, type SettingValue } from '../../../protocol/app-api-settings.js';
import { type Models, useModels } from '../models/context.js';
import { AppPicture } from '../ui/app-picture.js';
import { Icon } from '../ui/icon.js';
import { relativeTime, useTime } from '../ui/time.js';
import { type ControlProps, SettingControl } from './control.js';
import { choiceLabel } from './general.js';
import '../ui/cards.css';

const SOUND_LABELS: Record<string, string> = { default: 'The usual sound', none: 'Silent' };

type Options = AppSettingsAnswer['options'];

/** One of an app's settings as its card shows it: where it is in the entry (`settings` or `voice`), and its words. */
type AppControl = Pick<ControlProps, 'label' | 'type' | 'hint'> & {
  choices?: (options: Options) => NonNullable<ControlProps['choices']>;
} & ({ group: 'settings'; key: keyof AppSettingsEntry['settings'] } | { group: 'voice'; key: keyof AppSettingsEntry['voice'] });

/** A control's value in an app's entry; a stacking of its own that is not set reads as '' ("as in the general settings"). */
const valueOf = (entry: AppSettingsEntry, control: AppControl): SettingValue =>
  (entry[control.group] as Record<string, SettingValue | null>)[control.key] ?? '';

const soundChoices = (options: Options) =>
  (options?.sounds ?? ['default', 'none']).map((sound) => [sound, SOUND_LABELS[sound] ?? sound] as const);
const stackingChoices = (options: Options) => [
  ['', 'As in the general settings'] as const,
  ...(options?.stackingLevels ?? []).map((level) => [level, choiceLabel(level)] as const),
];

/** An app's card, top to bottom. */
const APP_CONTROLS: readonly AppControl[] = [
  { group: 'settings', key: 'muteBanners', label: 'Mute', type: 'boolean', hint: 'History only: no banner, no sound and no speech.' },
  {
    group: 'settings',
    key: 'persistent',
    label: 'Banners stay until closed',
    type: 'boolean',
    hint: 'When the notification sets no time of its own.',
  },
  { group: 'settings', key: 'timeout', label: 'Seconds a banner stays', type: 'integer', hint: 'From 0 to 86400; 0: until it is closed.' },
  { group: 'settings', key: 'sound', label: 'Sound', type: 'choice', choices: soundChoices, hint: 'When the notification names none.' },
  {
    group: 'voice',
    key: 'speak',
    label: 'Read aloud',
    type: 'boolean',
    hint: 'Off: what it asks to be spoken is shown as a banner instead.',
  },
  { group: 'voice', key: 'urgentBreaksQuiet', label: 'Urgent notifications break through quiet hours', type: 'boolean' },
  { group: 'settings', key: 'stacking', label: 'Stack banners', type: 'choice', choices: stackingChoices },
];

async function remove({ api, confirm, settings, status }: Models, entry: AppSettingsEntry, count: number): Promise<void> {
  const kept = count === 1 ? '1 notification' : `${count} notifications`;
  const yes = await confirm.ask({
    title: `Remove ${entry.appName}?`,
    message:
      `Its ${kept} in History, its banners, templates, pictures, replies, permissions and settings are deleted. ` +
      'It comes back, with nothing of this, if it sends another notification.',
    confirm: 'Remove',
  });
  if (!yes) return;
  try {
    await api.call('DELETE', settingsPaths.app(entry.app));
    status.say(`${entry.appName} was removed.`);
    await settings.loadApps();
    document.getElementById('apps-heading')?.focus();
  } catch (error) {
    status.sayError(error);
  }
}

function AppCard({ entry, index }: { entry: AppSettingsEntry; index: number }): VNode {
  const models = useModels();
  const { settings, apps } = models;
  const moment = useTime();
  const options = settings.appSettings.value?.options;
  const newest = settings.last.value[entry.app];
  const count = apps.apps.value.find((summary) => summary.app === entry.app)?.count ?? 0;
  const cap = settings.general.value?.settings.historyCapPerApp;
  const id = (key: string): string => `app-${index}-${key}`;
  const save = (key: string) => (value: SettingValue | null) => settings.changeApp(entry.app, key, value);
  const headingId = id('name');
  return (
    <section class="card app-card" aria-labelledby={headingId}>
      <div class="app-card-head">
        <AppPicture app={entry.app} appName={entry.appName} size="large" />
        <div class="app-card-title">
          <h3 id={headingId}>{entry.appName}</h3>
          {entry.appName !== entry.app && <span class="muted app-id">{entry.app}</span>}
          <span class="muted">
            {newest ? (
              <>
                Last: {newest.title || '(no title)'} · <span title={newest.deliveredAt}>{relativeTime(newest.deliveredAt, moment)}</span>
              </>
            ) : (
              'Nothing in History'
            )}
          </span>
        </div>
        {entry.app !== OWN_APP && (
          <button type="button" class="button button-quiet" onClick={() => void remove(models, entry, count)}>
            <Icon name="trash" />
            <span>
              Remove<span class="visually-hidden"> {entry.appName}</span>
            </span>
          </button>
        )}
      </div>
      <div class="app-settings">
        {APP_CONTROLS.map((control) => (
          <SettingControl
            key={control.key}
            id={id(control.key)}
            label={control.label}
            type={control.type}
            value={valueOf(entry, control)}
            hint={control.hint}
            choices={control.choices?.(options)}
            save={save(control.key)}
          />
        ))}
        <p class="hint app-cap">
          History keeps {count === 1 ? '1 notification' : `${count} notifications`} of it
          {cap !== undefined ? `, and at most its newest ${cap} (“Notifications kept per app”, under History above).` : '.'}
        </p>
      </div>
    </section>
  );
}

export function AppsSection(): VNode {
  const { settings } = useModels();
  const answer = settings.appSettings.value;
  useEffect(() => settings.followRows(), []);
  return (
    <section class="settings-section" aria-labelledby="apps-heading">
      <h2 id="apps-heading" tabIndex={-1}>
        Apps
      </h2>
      <p class="muted">Every app that sent a notification. Changes are saved at once.</p>
      {answer && answer.apps.length === 0 && <p class="muted">No app has sent a notification yet.</p>}
      <div class="app-cards">
        {answer?.apps.map((entry, index) => (
          <AppCard key={entry.app} entry={entry} index={index} />
        ))}
      </div>
    </section>
  );
}
