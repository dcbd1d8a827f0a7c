// `/app/api/settings…` (docs/app.md#settings): the Settings page. Settings, quiet hours, the apps' settings, an
// app's removal and the voice engine's state answer through their `/v1` routes' own handlers (fromV1), so a value
// the API refuses is refused here with the same words, naming the same field. Two routes are the page's own: each
// app's newest notification, and "Test voice", which says a sample sentence as Notifier's own app and leaves
// nothing in History.

import { OWN_APP } from '../../../protocol/app-api.js';
import { settingsPaths, VOICE_SAMPLE, type LastNotificationsAnswer, type VoiceTestAnswer } from '../../../protocol/app-api-settings.js';
import { errors } from '../../../protocol/errors.js';
import { firstLineOf } from '../../core/history/rows.js';
import type { NotifierCore } from '../../core/notifier.js';
import { ENGINE_VOICE } from '../../core/settings/settings.js';
import type { AppRoute } from './api-route.js';
import { fromV1 } from './v1-routes.js';

/** How long "Test voice" waits for the sample to be written before it answers anyway (the queue may be busy). */
const VOICE_TEST_WAIT_MS = 15_000;

/** Why speech cannot play now, in the person's words, or null when it can. */
function whySilent(core: NotifierCore): string | null {
  if (core.settings.voiceEngine === 'off') return 'Speech is turned off: choose the system voice as the speech engine first.';
  if (core.voice.engine === null) return 'There is no speech engine on this computer.';
  if (core.voice.playerName() === null) return 'There is no audio player on this computer to play the voice with.';
  return null;
}

/** Says the sample with the settings' voice, speed and language; answers once it is written (or failed). */
async function testVoice(core: NotifierCore): Promise<VoiceTestAnswer> {
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

export function settingsRoutes(): AppRoute[] {
  return [
    fromV1('GET', '/v1/settings', settingsPaths.settings),
    fromV1('PUT', '/v1/settings', settingsPaths.settings),
    fromV1('GET', '/v1/settings/quiet-hours', settingsPaths.quietHours),
    fromV1('PUT', '/v1/settings/quiet-hours', settingsPaths.quietHours),
    fromV1('GET', '/v1/apps/settings', settingsPaths.appSettings),
    fromV1('PUT', '/v1/apps/settings', settingsPaths.appSettings),
    {
      method: 'GET',
      path: settingsPaths.lastNotifications,
      handle: async ({ context }): Promise<LastNotificationsAnswer> => {
        const { history } = context.core;
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
    },
    fromV1('DELETE', '/v1/apps/{id}', '/app/api/settings/apps/:id'),
    fromV1('GET', '/v1/voice', settingsPaths.voice),
    { method: 'POST', path: settingsPaths.voiceTest, handle: ({ context }) => testVoice(context.core) },
  ];
}
