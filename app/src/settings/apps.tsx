// Apps: every app that sent something (GET /v1/apps/settings, through /app/api/settings/apps), with its name, its
// picture, its newest notification and its settings — mute, banners, sound, speech, stacking — each saved at once
// (PUT /v1/apps/settings). Removing an app asks first and says what goes (DELETE /v1/apps/{id}).

import { signal } from '@preact/signals';
import type { VNode } from 'preact';
import { useEffect } from 'preact/hooks';
import { OWN_APP } from '../../../protocol/app-api.js';
import {
  type AppSettingsAnswer,
  type AppSettingsEntry,
  type LastNotificationsAnswer,
  settingsPaths,
  type SettingValue,
} from '../../../protocol/app-api-settings.js';
import { call } from '../api.js';
import { AppPicture, titleOf } from '../history/row-parts.js';
import { apps as appSummaries, loadApps } from '../history/store.js';
import { onEvent } from '../live.js';
import { relativeTime } from '../time.js';
import { confirmFirst } from '../ui/confirm.js';
import { Icon } from '../ui/icon.js';
import { say, sayError } from '../ui/status.js';
import { choiceLabel, general } from './general.js';
import { SettingControl } from './control.js';

const appSettings = signal<AppSettingsAnswer | null>(null);
const last = signal<LastNotificationsAnswer['last']>({});

export async function loadAppSettings(): Promise<void> {
  const [settings, newest] = await Promise.all([
    call<AppSettingsAnswer>('GET', settingsPaths.appSettings),
    call<LastNotificationsAnswer>('GET', settingsPaths.lastNotifications),
    loadApps(),
  ]);
  appSettings.value = settings;
  last.value = newest.last;
}

/** A notification arrived or changed: the newest of its app is shown; a new app's card is added. */
function followRows(): () => void {
  const stopRows = onEvent('row', ({ row }) => {
    const known = last.value[row.app];
    if (!known || known.id === row.id || Date.parse(row.deliveredAt) >= Date.parse(known.deliveredAt))
      last.value = { ...last.value, [row.app]: { id: row.id, title: titleOf(row), deliveredAt: row.deliveredAt } };
    if (appSettings.value && !appSettings.value.apps.some((entry) => entry.app === row.app)) void loadAppSettings().catch(() => undefined);
  });
  const stopRemoved = onEvent('removed', () => void loadAppSettings().catch(() => undefined));
  return () => {
    stopRows();
    stopRemoved();
  };
}

const SOUND_LABELS: Record<string, string> = { default: 'The usual sound', none: 'Silent' };

/** PUT one key of one app; the answer is the app's entry as it is now. */
async function change(app: string, key: string, value: SettingValue | null): Promise<void> {
  const answer = await call<{ app: AppSettingsEntry }>('PUT', settingsPaths.appSettings, { app, [key]: value });
  const current = appSettings.value;
  if (current) appSettings.value = { ...current, apps: current.apps.map((entry) => (entry.app === app ? answer.app : entry)) };
}

async function remove(entry: AppSettingsEntry, count: number): Promise<void> {
  const kept = count === 1 ? '1 notification' : `${count} notifications`;
  const yes = await confirmFirst({
    title: `Remove ${entry.appName}?`,
    message:
      `Its ${kept} in History, its banners, templates, pictures, replies, permissions and settings are deleted. ` +
      'It comes back, with nothing of this, if it sends another notification.',
    confirm: 'Remove',
  });
  if (!yes) return;
  try {
    await call('DELETE', settingsPaths.app(entry.app));
    say(`${entry.appName} was removed.`);
    await loadAppSettings();
    document.getElementById('apps-heading')?.focus();
  } catch (error) {
    sayError(error);
  }
}

function AppCard({ entry, index }: { entry: AppSettingsEntry; index: number }): VNode {
  const options = appSettings.value?.options;
  const newest = last.value[entry.app];
  const count = appSummaries.value.find((summary) => summary.app === entry.app)?.count ?? 0;
  const cap = general.value?.settings.historyCapPerApp;
  const id = (key: string): string => `app-${index}-${key}`;
  const save = (key: string) => (value: SettingValue | null) => change(entry.app, key, value);
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
                Last: {newest.title || '(no title)'} · <span title={newest.deliveredAt}>{relativeTime(newest.deliveredAt)}</span>
              </>
            ) : (
              'Nothing in History'
            )}
          </span>
        </div>
        {entry.app !== OWN_APP && (
          <button type="button" class="button button-quiet" onClick={() => void remove(entry, count)}>
            <Icon name="trash" />
            <span>
              Remove<span class="visually-hidden"> {entry.appName}</span>
            </span>
          </button>
        )}
      </div>
      <div class="app-settings">
        <SettingControl
          id={id('muteBanners')}
          label="Mute"
          type="boolean"
          value={entry.settings.muteBanners}
          hint="History only: no banner, no sound and no speech."
          save={save('muteBanners')}
        />
        <SettingControl
          id={id('persistent')}
          label="Banners stay until closed"
          type="boolean"
          value={entry.settings.persistent}
          hint="When the notification sets no time of its own."
          save={save('persistent')}
        />
        <SettingControl
          id={id('timeout')}
          label="Seconds a banner stays"
          type="integer"
          value={entry.settings.timeout}
          hint="From 0 to 86400; 0: until it is closed."
          save={save('timeout')}
        />
        <SettingControl
          id={id('sound')}
          label="Sound"
          type="choice"
          value={entry.settings.sound}
          choices={(options?.sounds ?? ['default', 'none']).map((sound) => [sound, SOUND_LABELS[sound] ?? sound] as const)}
          hint="When the notification names none."
          save={save('sound')}
        />
        <SettingControl
          id={id('speak')}
          label="Read aloud"
          type="boolean"
          value={entry.voice.speak}
          hint="Off: what it asks to be spoken is shown as a banner instead."
          save={save('speak')}
        />
        <SettingControl
          id={id('urgentBreaksQuiet')}
          label="Urgent notifications break through quiet hours"
          type="boolean"
          value={entry.voice.urgentBreaksQuiet}
          save={save('urgentBreaksQuiet')}
        />
        <SettingControl
          id={id('stacking')}
          label="Stack banners"
          type="choice"
          value={entry.settings.stacking ?? ''}
          choices={[
            ['', 'As in the general settings'],
            ...(options?.stackingLevels ?? []).map((level) => [level, choiceLabel(level)] as const),
          ]}
          save={save('stacking')}
        />
        <p class="hint app-cap">
          History keeps {count === 1 ? '1 notification' : `${count} notifications`} of it
          {cap !== undefined ? `, and at most its newest ${cap} (“Notifications kept per app”, under History above).` : '.'}
        </p>
      </div>
    </section>
  );
}

export function AppsSection(): VNode {
  const answer = appSettings.value;
  useEffect(followRows, []);
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
