// Speaking notifications (docs/api/voice.md): a record's speech queued with the app's voice and the settings'
// defaults, its audio file and length written back on the record once made; the spoken summary of a quiet-hours
// window; and the engine's status.

import { OWN_APP } from '../../../protocol/app-api.js';
import type { AppPreferences, HistoryRecord, SpeakRequest } from '../../../protocol/types.js';
import { log } from '../../log.js';
import type { AppRegistry } from '../apps/app-registry.js';
import type { History } from '../history/history.js';
import { ENGINE_VOICE, type Settings } from '../settings/settings.js';
import type { VoiceSetup } from '../voice/voice-setup.js';
import type { Voice } from '../voice/voice.js';
import type { DeliveryRules } from './delivery.js';

export interface SpeechParts {
  voice: Voice;
  voiceSetup: VoiceSetup;
  settings: Pick<Settings, 'voiceDefault' | 'voiceSpeed' | 'voiceLang' | 'voiceEngine' | 'muteAllSounds'>;
  apps: Pick<AppRegistry, 'get'>;
  history: Pick<History, 'update'>;
  rules: Pick<DeliveryRules, 'speechOn'>;
  /** Shows the person what went wrong (the screen's). */
  showProblem(app: string, id: string, problem: string): void;
}

/** The app's own voice, speed and language (PUT /v1/apps/settings): a notification's own `speak` values win. */
const appVoice = (preferences: AppPreferences | undefined): SpeakRequest => {
  const { voice, speed, lang } = preferences ?? {};
  return { ...(voice ? { voice } : {}), ...(speed ? { speed } : {}), ...(lang ? { lang } : {}) };
};

export class Speech {
  private readonly spokenListeners = new Set<(app: string, id: string) => void>();

  constructor(private readonly parts: SpeechParts) {}

  /** Calls back once a record's speech finished (the relay's `spoken` receipt). */
  onSpoken(listener: (app: string, id: string) => void): void {
    this.spokenListeners.add(listener);
  }

  /** Queues a record's speech (and recording); once written, its audio file and length go on the record. */
  say(record: HistoryRecord, recording: string | null): void {
    const { app, id, notification } = record;
    const { voice, apps, history } = this.parts;
    voice.say({
      app,
      id,
      text: record.speech?.text ?? '',
      request: this.withDefaults({ ...appVoice(apps.get(app)?.settings), ...notification.speak }),
      ...(recording ? { recording } : {}),
      // Speech only, with no banner: when it cannot play after all, the person sees it rather than nothing.
      ...(notification.presentation === 'voice'
        ? { failed: (reason: string) => this.parts.showProblem(app, id, `Not spoken: ${reason}`) }
        : {}),
      spoken: (written) => {
        void history.update(app, id, (current) => (current.speech ? { ...current, speech: { ...current.speech, ...written } } : current));
      },
      finished: () => {
        for (const listener of this.spokenListeners) listener(app, id);
      },
    });
  }

  /** Says the summary of a quiet-hours window that asked for one, unless sounds are muted or speech is off. */
  summary(text: string): void {
    if (this.parts.settings.muteAllSounds || !this.parts.rules.speechOn()) {
      log.info(`quiet hours are over; the summary is not spoken (sounds muted or speech off): ${text}`);
      return;
    }
    this.parts.voice.say({
      app: OWN_APP, // the service's own app speaks the summary (docs/api/settings.md#s15)
      id: `quiet-summary-${Date.now()}`,
      text,
      request: this.withDefaults({}),
      spoken: () => undefined,
    });
  }

  /**
   * GET /v1/voice: the engine setting, the engine this computer has, the audio player it plays with, its voices,
   * any installation under way.
   */
  async status() {
    const { settings, voiceSetup, voice } = this.parts;
    return { engine: settings.voiceEngine, ...(await voiceSetup.status()), audioPlayer: voice.playerName() };
  }

  /**
   * A speech request with the settings' defaults (voiceDefault, voiceSpeed, voiceLang) where it gives none. A
   * request that names a language but no voice gets the engine's voice for that language, not voiceDefault.
   */
  private withDefaults(request: SpeakRequest): SpeakRequest {
    const { voiceDefault, voiceSpeed, voiceLang } = this.parts.settings;
    const voice = request.voice ?? (request.lang === undefined && voiceDefault !== ENGINE_VOICE ? voiceDefault : undefined);
    return { ...request, ...(voice ? { voice } : {}), speed: request.speed ?? voiceSpeed, lang: request.lang ?? voiceLang };
  }
}
