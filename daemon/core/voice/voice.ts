import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { MAX_AUDIO_BYTES, MAX_SPEECH_QUEUE, SPEECH_FILES_KEPT } from '../../../protocol/limits.js';
import { log } from '../../log.js';
import { audioPlayer, type Playing, playFile } from '../../present/sound.js';
import { writeFileDurably } from '../../store/durable-file.js';
import { sniffAudio, wavDurationSeconds } from './audio.js';
import { readSource } from '../media/images.js';
import type { SpeakRequest } from '../../../protocol/types.js';

/** espeak-ng speaks about 175 words a minute at speed 1.0. */
const ESPEAK_WORDS_PER_MINUTE = 175;
const SYNTHESIS_TIMEOUT_MS = 30_000;

/** Turns text into a WAV file. */
export interface SpeechEngine {
  readonly name: string;
  synthesize(text: string, request: SpeakRequest, file: string): Promise<void>;
}

/**
 * espeak-ng (Linux): run with an argument array and the text on stdin, never through a shell, so nothing in the
 * text can be read as a command (the `say` package on Linux interpolates text into Festival's Scheme).
 */
export class EspeakEngine implements SpeechEngine {
  readonly name = 'espeak-ng';

  static installed(): boolean {
    return spawnSync('which', ['espeak-ng'], { stdio: 'ignore' }).status === 0;
  }

  async synthesize(text: string, request: SpeakRequest, file: string): Promise<void> {
    const speed = Math.round(ESPEAK_WORDS_PER_MINUTE * (request.speed ?? 1));
    const voice = request.voice ?? request.lang;
    try {
      await this.run(['-s', String(speed), '-w', file, '--stdin', ...(voice ? ['-v', voice] : [])], text);
    } catch (error) {
      if (!voice) throw error;
      // A voice espeak-ng does not have (another engine's name, say): speak with its default voice instead.
      log.info(`espeak-ng has no voice ${voice}; using its default`);
      await this.run(['-s', String(speed), '-w', file, '--stdin'], text);
    }
  }

  private run(args: string[], text: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = execFile('espeak-ng', args, { timeout: SYNTHESIS_TIMEOUT_MS }, (error, _stdout, stderr) => {
        if (!error) return resolve();
        // Its own words go to the log; the person reads what happened (docs/desktop.md#when-something-fails).
        if (error.code !== 'ENOENT') log.info(`espeak-ng failed: ${stderr.trim() || error.message}`);
        reject(new Error(error.code === 'ENOENT' ? 'espeak-ng is not installed' : 'the speech engine (espeak-ng) could not say it'));
      });
      child.stdin?.end(text);
    });
  }
}

/** macOS and Windows: the system voice through the `say` package, which writes a WAV there. */
export class SayEngine implements SpeechEngine {
  readonly name = 'say';

  async synthesize(text: string, request: SpeakRequest, file: string): Promise<void> {
    const { default: say } = await import('say');
    await new Promise<void>((resolve, reject) =>
      say.export(text, request.voice ?? undefined, request.speed ?? 1, file, (error?: string) =>
        error ? reject(new Error(error)) : resolve(),
      ),
    );
  }
}

/** The speech engine this computer has, or null. */
export function findSpeechEngine(): SpeechEngine | null {
  if (process.platform === 'darwin' || process.platform === 'win32') return new SayEngine();
  return EspeakEngine.installed() ? new EspeakEngine() : null;
}

export interface Utterance {
  app: string;
  id: string;
  text: string;
  request: SpeakRequest;
  /** A recorded message (already cached) to play after the speech. */
  recording?: string;
  /** Called once the speech is written, with what History records of it. */
  spoken(speech: { audioPath: string; durationSeconds?: number }): void;
  /** Called when it could not be written or played, with the reason. */
  failed?(reason: string): void;
  /** Called once it has played to its end (not when it was stopped or failed). */
  finished?(): void;
}

/**
 * Speech and recorded voice messages: one utterance at a time, in order (at most 20 waiting: the oldest waiting
 * one is dropped); each is written as a WAV into `<support>/audio/` (the newest 300 files are kept), then played,
 * then its recording. Dismissing a notification stops its speech.
 */
export class Voice {
  private readonly queue: Utterance[] = [];
  private current: { utterance: Utterance; playing: Playing | null; stopped: boolean } | null = null;

  constructor(
    private readonly folder: string,
    /** The engine in use; it changes when one is installed while the service runs (voice-setup.ts). */
    public engine: SpeechEngine | null,
    private readonly player: (file: string) => Playing = playFile,
    /** The program that plays audio files here, or null (tests give their own). */
    readonly playerName: () => string | null = audioPlayer,
  ) {}

  say(utterance: Utterance): void {
    this.queue.push(utterance);
    if (this.queue.length > MAX_SPEECH_QUEUE) {
      const dropped = this.queue.shift()!;
      log.warn(`[${dropped.app}] ${dropped.id}: speech dropped, ${MAX_SPEECH_QUEUE} were already waiting`);
    }
    if (!this.current) void this.next();
  }

  /** Stops (or unqueues) the speech of one notification. */
  stop(app: string, id: string): void {
    const waiting = this.queue.findIndex((utterance) => utterance.app === app && utterance.id === id);
    if (waiting >= 0) this.queue.splice(waiting, 1);
    if (this.current && this.current.utterance.app === app && this.current.utterance.id === id) {
      this.current.stopped = true;
      this.current.playing?.stop();
    }
  }

  /** A recorded message (file path, https URL or data: URI), checked by its bytes and cached; null if unusable. */
  async cacheRecording(source: string): Promise<string | null> {
    try {
      const bytes = await readSource(source, MAX_AUDIO_BYTES);
      const format = sniffAudio(bytes);
      if (!format) throw new Error('the bytes are not a WAV, MP3, M4A, AIFF or CAF recording');
      const file = path.join(this.folder, `${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}.${format}`);
      if (!(await stat(file).catch(() => null))) await writeFileDurably(file, bytes);
      return file;
    } catch (error) {
      log.warn(`audio ignored: ${(error as Error).message}`);
      return null;
    }
  }

  private async next(): Promise<void> {
    const utterance = this.queue.shift();
    if (!utterance) {
      this.current = null;
      return;
    }
    const current: { utterance: Utterance; playing: Playing | null; stopped: boolean } = { utterance, playing: null, stopped: false };
    this.current = current;
    try {
      if (utterance.text && this.engine) await this.speak(utterance, current);
      if (utterance.recording && !current.stopped) await this.play(utterance.recording, current);
      if (!current.stopped) utterance.finished?.();
    } catch (error) {
      log.warn(`[${utterance.app}] ${utterance.id}: speech did not play: ${(error as Error).message}`);
      if (!current.stopped) utterance.failed?.((error as Error).message);
    }
    void this.next();
  }

  private async speak(utterance: Utterance, current: { playing: Playing | null; stopped: boolean }): Promise<void> {
    const file = path.join(
      this.folder,
      `${Date.now()}-${createHash('sha256').update(`${utterance.app}\0${utterance.id}`).digest('hex').slice(0, 12)}.wav`,
    );
    await mkdir(this.folder, { recursive: true, mode: 0o700 });
    await this.engine!.synthesize(utterance.text, utterance.request, file);
    await chmod(file, 0o600); // what the person's notifications said is private
    const durationSeconds = wavDurationSeconds(await readFile(file));
    utterance.spoken({
      audioPath: file,
      ...(durationSeconds === null ? {} : { durationSeconds: Math.round(durationSeconds * 100) / 100 }),
    });
    void this.prune();
    if (!current.stopped) await this.play(file, current);
  }

  private async play(file: string, current: { playing: Playing | null; stopped: boolean }): Promise<void> {
    current.playing = this.player(file);
    await current.playing.done;
  }

  /** Keeps the newest speech files (recordings are content-addressed and kept). */
  private async prune(): Promise<void> {
    const names = (await readdir(this.folder).catch(() => [] as string[])).filter((name) => /^\d+-[0-9a-f]+\.wav$/.test(name)).sort();
    await Promise.all(
      names
        .slice(0, Math.max(0, names.length - SPEECH_FILES_KEPT))
        .map((name) => unlink(path.join(this.folder, name)).catch(() => undefined)),
    );
  }
}
