// Recorded voice messages (notification `audio`) are checked by their bytes like pictures: WAV, MP3, M4A, AIFF,
// CAF (docs/api/voice.md#v8). Speech is written as WAV, whose header says how long it is.

export type AudioFormat = 'wav' | 'mp3' | 'm4a' | 'aiff' | 'caf';

const ascii = (bytes: Buffer, start: number, end: number): string => bytes.toString('latin1', start, end);

export function sniffAudio(bytes: Buffer): AudioFormat | null {
  if (bytes.length < 12) return null;
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WAVE') return 'wav';
  if (ascii(bytes, 0, 3) === 'ID3' || (bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0)) return 'mp3';
  if (ascii(bytes, 4, 8) === 'ftyp' && /^(M4A |M4B |mp42|isom|mp41)$/.test(ascii(bytes, 8, 12))) return 'm4a';
  if (ascii(bytes, 0, 4) === 'FORM' && /^AIF[FC]$/.test(ascii(bytes, 8, 12))) return 'aiff';
  if (ascii(bytes, 0, 4) === 'caff') return 'caf';
  return null;
}

/** Seconds of sound in a WAV file, from its `fmt ` chunk (bytes per second) and its `data` chunk size. */
export function wavDurationSeconds(bytes: Buffer): number | null {
  if (sniffAudio(bytes) !== 'wav') return null;
  let byteRate = 0;
  for (let offset = 12; offset + 8 <= bytes.length;) {
    const id = ascii(bytes, offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    if (id === 'fmt ') byteRate = bytes.readUInt32LE(offset + 16);
    // espeak-ng --stdout writes a placeholder size; a file written with -w has the real one, but stay safe.
    if (id === 'data') return byteRate > 0 ? Math.min(size, bytes.length - offset - 8) / byteRate : null;
    offset += 8 + size + (size % 2);
  }
  return null;
}
