import { execFileSync } from 'node:child_process';
import { describe, expect, test } from '@jest/globals';
import { listVoices, parseEspeakVoices } from '../../../../daemon/core/voice/voice-setup.js';
import { findSpeechEngine } from '../../../../daemon/core/voice/voice.js';

// The voice list that GET /v1/voice and the settings' choices show: one entry per voice id.

/** Lines of `espeak-ng --voices` (1.51), the Cantonese code listed under two languages. */
const ESPEAK_VOICES = `Pty Language       Age/Gender VoiceName          File                 Other Languages
 5  af              --/M      Afrikaans          gmw/af
 5  yue             --/M      Chinese_(Cantonese) sit/yue              (zh-yue 5)(zh 8)
 5  yue             --/M      Chinese_(Cantonese,_latin_as_Jyutping) sit/yue-Latn-jyutping (zh-yue 5)(zh 8)
 5  en-us           --/M      English_(America)  gmw/en-US            (en 3)
`;

describe("espeak-ng's voice list", () => {
  test('a language code listed twice is one voice: the first listed, which is the one -v picks', () => {
    expect(parseEspeakVoices(ESPEAK_VOICES)).toEqual([
      { id: 'af', name: 'Afrikaans', language: 'af' },
      { id: 'yue', name: 'Chinese (Cantonese)', language: 'yue' },
      { id: 'en-us', name: 'English (America)', language: 'en-us' },
    ]);
  });

  test("the installed espeak-ng's list (the set-up installs it): every code once", async () => {
    const engine = findSpeechEngine();
    expect(engine?.name).toBe('espeak-ng');
    const voices = await listVoices(engine);
    const lines = execFileSync('espeak-ng', ['--voices'], { encoding: 'utf8' }).trim().split('\n').slice(1);
    const codes = new Set(lines.map((line) => line.trim().split(/\s+/)[1]));
    expect(voices.length).toBeGreaterThan(100);
    expect(voices.map((voice) => voice.id)).toEqual([...codes]);
  });
});
