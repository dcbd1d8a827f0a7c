import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { sniffAudio, wavDurationSeconds } from '../../../../daemon/core/voice/audio.js';
import { type Utterance, Voice } from '../../../../daemon/core/voice/voice.js';
import { log } from '../../../../daemon/log.js';
import type { Playing } from '../../../../daemon/present/sound.js';
import { tempFolder } from '../../../helpers/daemon.js';
import { FakeEngine, wav } from '../../../helpers/speech.js';
import { eventually } from '../../../helpers/in-process.js';

log.setQuiet(true);

/** A player the test finishes by hand, recording what it played and what was stopped. */
class FakePlayer {
  readonly played: string[] = [];
  readonly stopped: string[] = [];
  private readonly pending: Array<() => void> = [];
  readonly play = (file: string): Playing => {
    this.played.push(path.basename(file));
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    this.pending.push(finish);
    return { done, stop: () => (this.stopped.push(path.basename(file)), finish()) };
  };
  finishCurrent(): void {
    this.pending.shift()?.();
  }
}

const utterance = (id: string, text: string, spoken: Utterance['spoken'] = () => undefined): Utterance => ({
  app: 'a',
  id,
  text,
  request: {},
  spoken,
});

describe('the voice', () => {
  test('one utterance at a time, in order; each is written as a WAV whose length goes on the record', async () => {
    const engine = new FakeEngine();
    const player = new FakePlayer();
    const voice = new Voice(await tempFolder('notifier-voice-'), engine, player.play);
    const written: Array<{ id: string; audioPath: string; durationSeconds?: number }> = [];
    for (const [id, text] of [
      ['one', 'first thing'],
      ['two', 'second thing said'],
      ['three', 'third'],
    ]) {
      voice.say(utterance(id!, text!, (speech) => written.push({ id: id!, ...speech })));
    }
    await eventually(() => player.played.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(player.played).toHaveLength(1); // the second waits for the first
    player.finishCurrent();
    await eventually(() => player.played.length === 2);
    player.finishCurrent();
    await eventually(() => player.played.length === 3);
    player.finishCurrent();
    expect(engine.asked.map((ask) => ask.text)).toEqual(['first thing', 'second thing said', 'third']);
    expect(written.map((w) => [w.id, w.durationSeconds])).toEqual([
      ['one', 2],
      ['two', 3],
      ['three', 1],
    ]);
    expect(wavDurationSeconds(readFileSync(written[1]!.audioPath))).toBe(3);
  });

  test('dismissing stops the speech playing, and takes a waiting one out of the queue', async () => {
    const player = new FakePlayer();
    const voice = new Voice(await tempFolder('notifier-voice-'), new FakeEngine(), player.play);
    voice.say({ ...utterance('playing', 'long speech'), app: 'x' });
    voice.say({ ...utterance('waiting', 'never said'), app: 'x' });
    voice.say({ ...utterance('after', 'said later'), app: 'x' });
    await eventually(() => player.played.length === 1);
    voice.stop('x', 'waiting');
    voice.stop('x', 'playing');
    expect(player.stopped).toHaveLength(1);
    await eventually(() => player.played.length === 2);
    player.finishCurrent();
    expect(player.played).toHaveLength(2); // "never said" was skipped
  });

  test('at most 20 wait: the oldest waiting one is dropped', async () => {
    const engine = new FakeEngine();
    const player = new FakePlayer();
    const voice = new Voice(await tempFolder('notifier-voice-'), engine, player.play);
    for (let k = 0; k < 23; k++) voice.say(utterance(`u${k}`, `word${k}`));
    for (let k = 0; k < 25 && engine.asked.length < 21; k++) {
      await eventually(() => player.played.length > k);
      player.finishCurrent();
    }
    await eventually(() => engine.asked.length === 21);
    // u0 was already being spoken when the rest queued; of the 22 that waited, the two oldest were dropped.
    expect(engine.asked.map((ask) => ask.text).slice(0, 2)).toEqual(['word0', 'word3']);
  });

  test('a recording plays after the speech; a recording is cached only when its bytes are audio', async () => {
    const folder = await tempFolder('notifier-voice-');
    const player = new FakePlayer();
    const voice = new Voice(folder, new FakeEngine(), player.play);
    const source = path.join(folder, 'message.wav');
    await writeFile(source, wav(0.5));
    const cached = await voice.cacheRecording(source);
    expect(cached).toMatch(/[0-9a-f]{32}\.wav$/);
    const textFile = path.join(folder, 'notes.wav');
    await writeFile(textFile, 'not audio at all, just words');
    expect(await voice.cacheRecording(textFile)).toBeNull();
    voice.say({ ...utterance('r', 'hello'), recording: cached! });
    await eventually(() => player.played.length === 1);
    player.finishCurrent();
    await eventually(() => player.played.length === 2);
    expect(player.played[1]).toBe(path.basename(cached!));
  });

  test('audio formats are recognised by their bytes', () => {
    expect(sniffAudio(wav(0.1))).toBe('wav');
    expect(sniffAudio(Buffer.from('ID3\x04\x00\x00\x00\x00\x00\x00rest', 'latin1'))).toBe('mp3');
    expect(sniffAudio(Buffer.from('\x00\x00\x00\x20ftypM4A \x00\x00\x00\x00', 'latin1'))).toBe('m4a');
    expect(sniffAudio(Buffer.from('FORM\x00\x00\x00\x10AIFFCOMM', 'latin1'))).toBe('aiff');
    expect(sniffAudio(Buffer.from('caff\x00\x01\x00\x00desc\x00\x00', 'latin1'))).toBe('caf');
    expect(sniffAudio(Buffer.from('just some text here'))).toBeNull();
  });
});
