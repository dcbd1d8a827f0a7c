// Sounds and voice: mute everything, the speech engine this computer has and the one in use, the voices to choose
// from (GET /v1/voice), speed and language, and "Test voice", which says a sample sentence now. Whether there is an
// audio player, and what to install when there is none (the daemon looks for paplay, pw-play, then aplay).

import type { VNode } from 'preact';
import { useState } from 'preact/hooks';
import { settingsPaths, VOICE_SAMPLE, type VoiceAnswer, type VoiceTestAnswer } from '../../../protocol/app-api-settings.js';
import { useModels } from '../models/context.js';
import { messageOf } from '../models/requests.js';
import { Fact } from '../ui/facts.js';
import { GeneralSetting, SOUND_KEYS } from './general.js';

/** What to install for a player, by the package that has one (Debian and Ubuntu names, then the others'). */
const PLAYER_ADVICE =
  'Install one to hear speech and sounds: on Debian or Ubuntu, sudo apt-get install pulseaudio-utils (for paplay); ' +
  'with PipeWire, its pw-play; or alsa-utils (for aplay). Notifier finds it without a restart.';

function EngineFacts({ state }: { state: VoiceAnswer }): VNode {
  return (
    <dl class="facts voice-facts">
      <Fact term="Speech engine">
        {state.engineName ? (
          state.engine === 'off' ? (
            `${state.engineName}, turned off below`
          ) : (
            `${state.engineName}, in use`
          )
        ) : (
          <>
            None on this computer.{' '}
            {state.installCommand ? (
              <>
                To install one, run <code>{state.installCommand}</code>.
              </>
            ) : (
              'Install espeak-ng to hear notifications read aloud.'
            )}
          </>
        )}
      </Fact>
      <Fact term="Audio player">
        {state.audioPlayer ? state.audioPlayer : <>None: speech is shown as a banner instead. {PLAYER_ADVICE}</>}
      </Fact>
      <Fact term="Voices">{state.voices.length === 0 ? 'None' : `${state.voices.length} to choose from`}</Fact>
    </dl>
  );
}

function TestVoice(): VNode {
  const { api } = useModels();
  const [said, setSaid] = useState<{ text: string; error: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const test = async (): Promise<void> => {
    if (busy) return;
    setBusy(true);
    setSaid({ text: 'Speaking…', error: false });
    try {
      const answer = await api.call<VoiceTestAnswer>('POST', settingsPaths.voiceTest);
      setSaid({ text: `Said “${VOICE_SAMPLE}”${answer.seconds ? ` (${answer.seconds.toFixed(1)} seconds)` : ''}.`, error: false });
    } catch (error) {
      setSaid({ text: messageOf(error), error: true });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="test-voice">
      <button type="button" class="button" aria-disabled={busy || undefined} aria-describedby="test-voice-said" onClick={() => void test()}>
        Test voice
      </button>
      <p id="test-voice-said" class={said?.error ? 'field-problem' : 'hint'} role="status">
        {said?.text ?? 'Says a sample sentence with the voice, speed and language above.'}
      </p>
    </div>
  );
}

export function VoiceSection(): VNode {
  const state = useModels().settings.voice.value;
  return (
    <section class="settings-section" aria-labelledby="voice-heading">
      <h2 id="voice-heading">Sounds and voice</h2>
      <div class="group settings-group">
        {state && <EngineFacts state={state} />}
        {SOUND_KEYS.map((key) => (
          <GeneralSetting key={key} settingKey={key} />
        ))}
        <TestVoice />
      </div>
    </section>
  );
}
