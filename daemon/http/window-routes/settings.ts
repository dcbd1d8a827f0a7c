// `/app/api/settings…` (docs/app.md#settings): the Settings page. Settings, quiet hours, the apps' settings, an
// app's removal and the voice engine's state are `/v1`'s routes at the window's paths, calling the same functions,
// so a value the API refuses is refused here with the same words, naming the same field. Two routes are the page's
// own: each app's newest notification, and "Test voice", which says a sample sentence as Notifier's own app and
// leaves nothing in History.

import { OWN_APP } from '../../../protocol/app-api.js';
import {
  SETTINGS_APP_PATTERN,
  SETTINGS_KEY_PATTERN,
  settingsPaths,
  VOICE_SAMPLE,
  type LastNotificationsAnswer,
  type SendKeyCreated,
  type SendKeyRequest,
  type SendKeysAnswer,
  type VoiceTestAnswer,
} from '../../../protocol/app-api-settings.js';
import { errors } from '../../../protocol/errors.js';
import { lastNotificationsSchema, voiceTestSchema } from '../../../protocol/schemas/app-api.js';
import { firstLineOf } from '../../core/history/rows.js';
import { ENGINE_VOICE } from '../../core/settings/settings.js';
import type { Route } from '../route.js';
import { appIdOf, appRoutes, appSettingsList, changeAppSettingsFrom } from '../routes/apps.js';
import { keyLines, keyRoutes, readKeyRequest } from '../routes/keys.js';
import { changeSettings, settingsRoutes as v1SettingsRoutes, settingsView } from '../routes/settings.js';
import { voiceRoutes } from '../routes/voice.js';
import type { Services as AllServices } from '../services.js';
import { asWindowRoute, v1Route, windowRoute } from './window-route.js';

type Services = Pick<
  AllServices,
  'settings' | 'voiceSetup' | 'quietHours' | 'apps' | 'approvals' | 'names' | 'appAdmin' | 'history' | 'speech' | 'voice' | 'sendKeys'
>;

/** How long "Test voice" waits for the sample to be written before it answers anyway (the queue may be busy). */
const VOICE_TEST_WAIT_MS = 15_000;

/** Why speech cannot play now, in the person's words, or null when it can. */
function whySilent(core: Services): string | null {
  if (core.settings.voiceEngine === 'off') return 'Speech is turned off: choose the system voice as the speech engine first.';
  if (core.voice.engine === null) return 'There is no speech engine on this computer.';
  if (core.voice.playerName() === null) return 'There is no audio player on this computer to play the voice with.';
  return null;
}

/** Says the sample with the settings' voice, speed and language; answers once it is written (or failed). */
async function testVoice(core: Services): Promise<VoiceTestAnswer> {
  const silent = whySilent(core);
  if (silent) throw errors.speechUnavailable(silent);
  const { voiceDefault, voiceSpeed, voiceLang } = core.settings;
  return new Promise<VoiceTestAnswer>((resolve, reject) => {
    const timer = setTimeout(() => resolve({ ok: true }), VOICE_TEST_WAIT_MS);
    core.voice.say({
      app: OWN_APP, // Notifier itself speaks, as it does the quiet hours' summary
      id: `voice-test-${Date.now()}`,
      text: VOICE_SAMPLE,
      request: { ...(voiceDefault !== ENGINE_VOICE ? { voice: voiceDefault } : {}), speed: voiceSpeed, lang: voiceLang },
      spoken: ({ durationSeconds }) => {
        clearTimeout(timer);
        resolve({ ok: true, ...(durationSeconds !== undefined ? { seconds: durationSeconds } : {}) });
      },
      failed: (reason) => {
        clearTimeout(timer);
        reject(errors.speechFailed(reason));
      },
    });
  });
}

export function settingsRoutes(): Route<Services>[] {
  const settings = v1SettingsRoutes();
  const apps = appRoutes();
  const keys = keyRoutes();
  return [
    asWindowRoute(v1Route(settings, 'GET', '/v1/settings'), settingsPaths.settings, ({ services }) => settingsView(services)),
    asWindowRoute(v1Route(settings, 'PUT', '/v1/settings'), settingsPaths.settings, ({ services, body }) => changeSettings(services, body)),
    asWindowRoute(v1Route(settings, 'GET', '/v1/settings/quiet-hours'), settingsPaths.quietHours, ({ services }) =>
      services.quietHours.reply(),
    ),
    asWindowRoute(v1Route(settings, 'PUT', '/v1/settings/quiet-hours'), settingsPaths.quietHours, ({ services, body }) =>
      services.quietHours.update(body),
    ),
    asWindowRoute(v1Route(apps, 'GET', '/v1/apps/settings'), settingsPaths.appSettings, ({ services, query }) =>
      appSettingsList(services, query.app as string | undefined),
    ),
    asWindowRoute(v1Route(apps, 'PUT', '/v1/apps/settings'), settingsPaths.appSettings, ({ services, body }) =>
      changeAppSettingsFrom(services, body),
    ),
    windowRoute({
      method: 'GET',
      path: settingsPaths.lastNotifications,
      summary: "Each app's newest notification",
      reply: lastNotificationsSchema,
      handle: async ({ services }): Promise<LastNotificationsAnswer> => {
        const { history } = services;
        await history.ready;
        const last: LastNotificationsAnswer['last'] = {};
        for (const app of history.appIds()) {
          const newest = history.recordsOf(app).at(-1);
          if (!newest) continue;
          const title = newest.notification.title || firstLineOf(newest.notification.body) || newest.speech?.text || '';
          last[app] = { id: newest.id, title, deliveredAt: newest.deliveredAt };
        }
        return { last };
      },
    }),
    asWindowRoute(v1Route(apps, 'DELETE', '/v1/apps/{id}'), SETTINGS_APP_PATTERN, async ({ services, params }) => {
      const app = appIdOf(params.id!);
      await services.appAdmin.remove(app);
      return { ok: true, deleted: app };
    }),
    // An app's sending keys (docs/app.md#settings, docs/api/keys.md): made here by the person, shown once.
    asWindowRoute<Services, SendKeysAnswer>(v1Route(keys, 'GET', '/v1/keys'), settingsPaths.keys, ({ services, query }) => ({
      keys: services.sendKeys.list(query.app as string | undefined),
    })),
    asWindowRoute<Services, SendKeyCreated, SendKeyRequest>(
      v1Route(keys, 'POST', '/v1/keys'),
      settingsPaths.keys,
      async ({ services, body, req }) => {
        const { app, name } = readKeyRequest(body);
        const made = await services.sendKeys.create(app, name);
        return { ...made, lines: keyLines(made, req.socket.localPort ?? 0) };
      },
    ),
    asWindowRoute(v1Route(keys, 'DELETE', '/v1/keys/{id}'), SETTINGS_KEY_PATTERN, ({ services, params }) =>
      services.sendKeys.revoke(params.id!).then(() => ({ ok: true })),
    ),
    asWindowRoute(v1Route(voiceRoutes(), 'GET', '/v1/voice'), settingsPaths.voice, ({ services }) => services.speech.status()),
    windowRoute({
      method: 'POST',
      path: settingsPaths.voiceTest,
      summary: "Say a sample sentence with the settings' voice (nothing is kept in History)",
      reply: voiceTestSchema,
      handle: ({ services }) => testVoice(services),
    }),
  ];
}
