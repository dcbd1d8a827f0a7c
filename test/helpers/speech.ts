import { writeFile } from 'node:fs/promises';
import type { SpeakRequest } from '../../protocol/types.js';
import type { SpeechEngine } from '../../daemon/core/voice/voice.js';

/** A real PCM WAV header and `seconds` of silence at 22050 Hz, 16-bit mono (44100 bytes a second). */
export function wav(seconds: number): Buffer {
  const data = Math.round(seconds * 44100);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(22050, 24);
  header.writeUInt32LE(44100, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data, 40);
  return Buffer.concat([header, Buffer.alloc(data)]);
}

/** An engine that writes a WAV one second per word, and remembers what it was asked. */
export class FakeEngine implements SpeechEngine {
  readonly name = 'fake';
  readonly asked: Array<{ text: string; request: SpeakRequest }> = [];
  async synthesize(text: string, request: SpeakRequest, file: string): Promise<void> {
    this.asked.push({ text, request });
    await writeFile(file, wav(text.split(/\s+/).length));
  }
}

/** Remembers what it was asked to say; writes nothing, so nothing is played. */
export class ListeningEngine implements SpeechEngine {
  readonly name = 'listening';
  readonly asked: Array<{ text: string; request: SpeakRequest }> = [];
  async synthesize(text: string, request: SpeakRequest): Promise<void> {
    this.asked.push({ text, request });
    throw new Error('a test engine does not write audio');
  }
}
