// Apps: every app that sent something (GET /v1/apps/settings, through /app/api/settings/apps), one line each — its
// picture, its name, its newest notification, Mute and "Customize…" — so that a dozen apps read at a glance.
// "Customize…" opens the rest of its settings under its line (a disclosure): its name, how long its banners stay,
// sound, speech, stacking, its sending keys (send-keys.tsx) and Remove, which asks first and says what goes
// (DELETE /v1/apps/{id}). Each setting is saved at once (PUT /v1/apps/settings).

import type { VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { OWN_APP } from '../../../protocol/app-api.js';
import { type AppSettingsAnswer, type AppSettingsEntry, settingsPaths, type SettingValue } from '../../../protocol/app-api-settings.js';
import { type Models, useModels } from '../models/context.js';
import { AppPicture } from '../ui/app-picture.js';
import { Icon } from '../ui/icon.js';
import { relativeTime, useTime } from '../ui/time.js';
import { BannerTime } from './banner-time.js';
import { type ControlProps, SettingControl } from './control.js';
import { choiceLabel } from './general.js';
import { AppKeys } from './send-keys.js';
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

const MUTE: AppControl = {
  group: 'settings',
  key: 'muteBanners',
  label: 'Mute',
  type: 'boolean',
  hint: 'History only: no banner, no sound and no speech.',
};
const NAME: AppControl = {
  group: 'settings',
  key: 'displayName',
  label: 'Name',
  type: 'string',
  hint: 'Shown on its banners and in History. Empty: the name it gives itself.',
};
/** What "Customize…" shows after the name and how long banners stay (banner-time.tsx), top to bottom. */
const MORE_CONTROLS: readonly AppControl[] = [
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
      `Its ${kept} in History, its banners, templates, pictures, replies, permissions, sending keys and settings are deleted. ` +
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

function AppLine({ entry, index }: { entry: AppSettingsEntry; index: number }): VNode {
  const models = useModels();
  const { settings, apps } = models;
  const moment = useTime();
  const [open, setOpen] = useState(false);
  const options = settings.appSettings.value?.options;
  const newest = settings.last.value[entry.app];
  const count = apps.apps.value.find((summary) => summary.app === entry.app)?.count ?? 0;
  const cap = settings.general.value?.settings.historyCapPerApp;
  const id = (key: string): string => `app-${index}-${key}`;
  // An emptied text (the name) is the key back to its default: null, which the API takes, where '' it refuses.
  const save = (key: string) => (value: SettingValue | null) => settings.changeApp(entry.app, { [key]: value === '' ? null : value });
  const control = (described: AppControl): VNode => (
    <SettingControl
      key={described.key}
      id={id(described.key)}
      label={described.label}
      type={described.type}
      value={valueOf(entry, described)}
      hint={described.hint}
      choices={described.choices?.(options)}
      save={save(described.key)}
    />
  );
  const headingId = id('name-heading');
  const panelId = id('more');
  return (
    <section class={`card app-line${open ? ' app-line-open' : ''}`} aria-labelledby={headingId}>
      <div class="app-line-main">
        <AppPicture app={entry.app} appName={entry.appName} size="large" />
        <div class="app-line-title">
          <h3 id={headingId}>{entry.appName}</h3>
          <span class="muted">
            {entry.settings.muteBanners && <strong>Muted: kept in History only · </strong>}
            {entry.appName !== entry.app && <span class="app-id">{entry.app} · </span>}
            {newest ? (
              <span>
                Last: {newest.title || '(no title)'} · <span title={newest.deliveredAt}>{relativeTime(newest.deliveredAt, moment)}</span>
              </span>
            ) : (
              'Nothing in History'
            )}
          </span>
        </div>
        <div class="app-line-actions">
          {control(MUTE)}
          {/* Named with the app: the lines' buttons are told apart out of context (a screen reader's list of buttons). */}
          <button
            type="button"
            class="button customize-button"
            aria-label={`Customize ${entry.appName}…`}
            aria-expanded={open}
            aria-controls={panelId}
            onClick={() => setOpen(!open)}
          >
            <span>Customize…</span>
            <Icon name="chevronDown" />
          </button>
        </div>
      </div>
      <div id={panelId} class="app-more" hidden={!open}>
        {open && (
          <>
            <div class="app-settings">
              {control(NAME)}
              <BannerTime entry={entry} id={id('banner-time')} />
              {MORE_CONTROLS.map(control)}
              <p class="hint app-cap">
                History keeps {count === 1 ? '1 notification' : `${count} notifications`} of it
                {cap !== undefined ? `, and at most its newest ${cap} (“Notifications kept per app”, under History above).` : '.'}
              </p>
            </div>
            {entry.app !== OWN_APP && <AppKeys entry={entry} prefix={id('send')} />}
            {entry.app !== OWN_APP && (
              <div class="app-remove">
                <button type="button" class="button" onClick={() => void remove(models, entry, count)}>
                  <Icon name="trash" />
                  <span>
                    Remove<span class="visually-hidden"> {entry.appName}</span>
                  </span>
                </button>
                <p class="hint">Deletes what Notifier keeps of it; it asks you first.</p>
              </div>
            )}
          </>
        )}
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
      <p class="muted">Every app that sent a notification. Changes are saved at once; “Customize…” shows the rest of an app's settings.</p>
      {answer && answer.apps.length === 0 && <p class="muted">No app has sent a notification yet.</p>}
      <div class="app-lines">
        {answer?.apps.map((entry, index) => (
          <AppLine key={entry.app} entry={entry} index={index} />
        ))}
      </div>
    </section>
  );
}
