import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { log } from '../log.js';

/** The freedesktop sound theme's name for a new message: what `sound: "default"` plays on Linux. */
const DEFAULT_LINUX_SOUND = 'message-new-instant';
/** macOS's own default alert sound (docs/desktop.md#sound: Glass). */
const DEFAULT_MAC_SOUND = '/System/Library/Sounds/Glass.aiff';

const available = new Map<string, boolean>();
function has(program: string): boolean {
  if (!available.has(program)) available.set(program, spawnSync('which', [program], { stdio: 'ignore' }).status === 0);
  return available.get(program)!;
}

/** A sound or recording being played; `stop` ends it early (a dismissed notification stops its speech). */
export interface Playing {
  done: Promise<void>;
  stop(): void;
}

/** The first audio file player this computer has: PulseAudio, PipeWire, ALSA, or macOS's afplay. */
function filePlayer(file: string): [string, string[]] | null {
  if (process.platform === 'darwin') return ['afplay', [file]];
  for (const program of ['paplay', 'pw-play', 'aplay']) {
    if (has(program)) return [program, program === 'aplay' ? ['-q', file] : [file]];
  }
  return null;
}

/**
 * The program that plays speech and recordings here (docs/api/voice.md#get-v1-voice, `audioPlayer`), or null: then
 * speech cannot play and is shown as a banner instead (docs/api/notifications.md#n31).
 */
export function audioPlayer(): string | null {
  return filePlayer('')?.[0] ?? null;
}

/** What the person reads when PulseAudio's or PipeWire's player finds no server to play through. */
export const NO_SOUND_SERVER = 'no sound server is running (PulseAudio or PipeWire)';

/**
 * Why a player failed, in plain words: paplay and pw-play say "Connection failure: Connection refused" (or "can't
 * connect") when no sound server runs, aplay "audio open error" when there is no sound device. Their own words go
 * to the log only.
 */
function playerFailure(player: string, stderr: string, code: number | null): string {
  const detail = stderr.trim().split('\n')[0] ?? '';
  log.info(`${player} did not play (exit ${code}): ${detail}`);
  if (player !== 'aplay' && /connection (failure|refused)|can't connect|host is down|pa_context_connect/i.test(stderr))
    return NO_SOUND_SERVER;
  if (/audio open error|no such (device|file)|cannot find card/i.test(stderr)) return 'no sound device was found';
  return `${player} could not play it`;
}

/**
 * Plays an audio file with the platform's player, always with an argument array. Resolves when it has played;
 * rejects with the reason it could not, in plain words (no player, no sound server, no sound device).
 */
export function playFile(file: string): Playing {
  const player = filePlayer(file);
  if (!player) return { done: Promise.reject(new Error('no audio player (paplay, pw-play or aplay) is installed')), stop: () => undefined };
  let child: ChildProcess | null = null;
  const done = new Promise<void>((resolve, reject) => {
    child = spawn(player[0], player[1], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(new Error(error.code === 'ENOENT' ? `${player[0]} is not installed` : `${player[0]} could not be started`)),
    );
    child.once('close', (code, signal) =>
      code === 0 || signal === 'SIGTERM' ? resolve() : reject(new Error(playerFailure(player[0], stderr, code))),
    );
  });
  return { done, stop: () => child?.kill('SIGTERM') };
}

/**
 * Plays a banner's sound without making anyone wait: `default`, a sound theme name (canberra-gtk-play on Linux;
 * a name from /System/Library/Sounds on macOS), or a file path. `none` and null never get here.
 */
export function playSound(sound: string): void {
  const isFile = path.isAbsolute(sound);
  let command: [string, string[]] | null = null;
  if (process.platform === 'darwin') {
    command = ['afplay', [isFile ? sound : sound === 'default' ? DEFAULT_MAC_SOUND : `/System/Library/Sounds/${sound}.aiff`]];
  } else if (!isFile && has('canberra-gtk-play')) {
    command = ['canberra-gtk-play', ['-i', sound === 'default' ? DEFAULT_LINUX_SOUND : sound]];
  } else if (isFile) {
    command = has('canberra-gtk-play') ? ['canberra-gtk-play', ['-f', sound]] : filePlayer(sound);
  }
  if (!command) return; // nothing here can play it: a notification is never held back for a sound
  execFile(command[0], command[1], { timeout: 30_000 }, (error) => {
    if (error) log.info(`sound ${sound} did not play: ${error.message.split('\n')[0]}`);
  });
}

/** Where the freedesktop sound theme keeps its sounds (the names canberra-gtk-play plays). */
const FREEDESKTOP_SOUNDS = '/usr/share/sounds/freedesktop/stereo';
/** The sound theme's names, read once (a theme installed later shows after a restart). */
let themeSounds: string[] | null = null;

/**
 * The sound names a setting may choose from: `none`, `default`, then this computer's system sounds (the
 * freedesktop theme on Linux, /System/Library/Sounds on macOS). A file path is always allowed besides.
 */
export function soundChoices(): string[] {
  if (!themeSounds) {
    const folder = process.platform === 'darwin' ? '/System/Library/Sounds' : FREEDESKTOP_SOUNDS;
    try {
      themeSounds = [...new Set(readdirSync(folder).map((name) => name.replace(/\.[^.]+$/, '')))].sort();
    } catch {
      themeSounds = []; // no sound theme installed: only the two words
    }
  }
  return ['none', 'default', ...themeSounds];
}
