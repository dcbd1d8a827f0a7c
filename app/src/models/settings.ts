// What the Settings page shows and changes: the general settings (GET and PUT /v1/settings, through
// /app/api/settings), the quiet hours, the voice engine, and every app's own settings with its newest notification.
// Each part is read on its own when the page opens, so one that fails does not hide the others; each change answers
// the part as it is now.

import { createModel, signal } from '@preact/signals';
import {
  type AppSettingsAnswer,
  type AppSettingsChange,
  type AppSettingsEntry,
  type LastNotificationsAnswer,
  type QuietHoursAnswer,
  type QuietHoursChange,
  type SendKeyCreated,
  type SendKeyRequest,
  type SendKeysAnswer,
  type SettingsAnswer,
  type SettingsChange,
  settingsPaths,
  type SettingValue,
  type VoiceAnswer,
} from '../../../protocol/app-api-settings.js';
import type { AppsModel } from './apps.js';
import type { LiveEvents, Requests } from './dependencies.js';
import { titleOf } from './history.js';
import { inOrder, inOrderBy } from './in-order.js';

export const SettingsModel = createModel((api: Requests, events: LiveEvents, apps: AppsModel) => {
  const general = signal<SettingsAnswer | null>(null);
  const quiet = signal<QuietHoursAnswer | null>(null);
  const voice = signal<VoiceAnswer | null>(null);
  const appSettings = signal<AppSettingsAnswer | null>(null);
  /** Each app's newest notification. */
  const last = signal<LastNotificationsAnswer['last']>({});
  /** Every sending key (never a key itself), read with the apps. */
  const sendKeys = signal<SendKeysAnswer['keys']>([]);
  // Each value is read and changed by requests whose answers can come back out of order: the newest answer stays.
  const generalInOrder = inOrder();
  const quietInOrder = inOrder();
  const appsInOrder = inOrder();
  const appInOrder = inOrderBy();

  async function loadKeys(): Promise<void> {
    sendKeys.value = (await api.call<SendKeysAnswer>('GET', settingsPaths.keys)).keys;
  }

  async function loadApps(): Promise<void> {
    const read = Promise.all([
      api.call<AppSettingsAnswer>('GET', settingsPaths.appSettings),
      api.call<LastNotificationsAnswer>('GET', settingsPaths.lastNotifications),
      apps.load(),
      loadKeys(),
    ]);
    await appsInOrder(read, ([settings, newest]) => {
      appSettings.value = settings;
      last.value = newest.last;
    });
  }

  return {
    general,
    quiet,
    voice,
    appSettings,
    last,
    sendKeys,
    loadKeys,
    /** Makes a sending key for an app: the answer holds the key, which nothing keeps but the view that shows it. */
    async makeKey(request: SendKeyRequest): Promise<SendKeyCreated> {
      const made = await api.call<SendKeyCreated, SendKeyRequest>('POST', settingsPaths.keys, request);
      await loadKeys();
      return made;
    },
    async loadGeneral(): Promise<void> {
      await generalInOrder(api.call<SettingsAnswer>('GET', settingsPaths.settings), (answer) => (general.value = answer));
    },
    /** PUT one key; the answer is the whole state again. */
    changeGeneral(key: string, value: SettingValue | null): Promise<SettingsAnswer> {
      const change = api.call<SettingsAnswer, SettingsChange>('PUT', settingsPaths.settings, { [key]: value });
      return generalInOrder(change, (answer) => (general.value = answer));
    },
    async loadQuiet(): Promise<void> {
      await quietInOrder(api.call<QuietHoursAnswer>('GET', settingsPaths.quietHours), (answer) => (quiet.value = answer));
    },
    /** PUT the quiet hours (a quiet period, its end, or the weekly windows); throws the API's refusal. */
    async changeQuiet(change: QuietHoursChange): Promise<void> {
      const changed = api.call<QuietHoursAnswer, QuietHoursChange>('PUT', settingsPaths.quietHours, change);
      await quietInOrder(changed, (answer) => (quiet.value = answer));
    },
    async loadVoice(): Promise<void> {
      voice.value = await api.call<VoiceAnswer>('GET', settingsPaths.voice);
    },
    loadApps,
    /** PUT keys of one app (one change: all or nothing); the answer is the app's entry as it is now. */
    async changeApp(app: string, change: Record<string, SettingValue | null>): Promise<void> {
      const changed = api.call<{ app: AppSettingsEntry }, AppSettingsChange>('PUT', settingsPaths.appSettings, { app, ...change });
      await appInOrder(app)(changed, (answer) => {
        const current = appSettings.value;
        if (current) appSettings.value = { ...current, apps: current.apps.map((entry) => (entry.app === app ? answer.app : entry)) };
      });
    },
    /**
     * While the page is open: a notification that arrives or changes is its app's newest; a new app's card is added,
     * a removed notification reads the apps again. The answer stops following.
     */
    followRows(): () => void {
      const stops = [
        events.on('row', ({ row }) => {
          const known = last.value[row.app];
          if (!known || known.id === row.id || Date.parse(row.deliveredAt) >= Date.parse(known.deliveredAt))
            last.value = { ...last.value, [row.app]: { id: row.id, title: titleOf(row), deliveredAt: row.deliveredAt } };
          if (appSettings.value && !appSettings.value.apps.some((entry) => entry.app === row.app)) void loadApps().catch(() => undefined);
        }),
        events.on('removed', () => void loadApps().catch(() => undefined)),
      ];
      return () => {
        for (const stop of stops) stop();
      };
    },
  };
});
export type SettingsModel = InstanceType<typeof SettingsModel>;
