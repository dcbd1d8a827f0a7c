import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { VOICE_INSTALL_LOG_LINES } from '../../../protocol/limits.js';
import { log } from '../../log.js';
import { errors } from '../../../protocol/errors.js';
import { findSpeechEngine, type SpeechEngine } from './voice.js';

// The voice engine's state and its installation (GET /v1/voice, POST /v1/voice/install; docs/api/voice.md#v9, #v10). On
// Linux the engine is espeak-ng: installing it means running the package manager, which the service can do only
// when it runs as root with apt-get; otherwise it says which command the person should run. macOS and Windows
// have their system voice built in. "use-existing" takes an espeak-ng that appeared on the PATH meanwhile.

/** One command of an installation, run with an argument array. */
export interface InstallStep {
  program: string;
  args: string[];
}

/** How this computer gets a speech engine: steps the service runs itself, or a command for the person. */
export type InstallPlan = { steps: InstallStep[] } | { manual: string } | { builtIn: true };

export type InstallPhase =
  | { state: 'idle' }
  | { state: 'installing'; step: string; stepNumber: number; steps: number; startedAt: string }
  | { state: 'done'; finishedAt: string }
  | { state: 'failed'; error: string; finishedAt: string }
  | { state: 'cancelled'; finishedAt: string };

export interface VoiceEntry {
  id: string;
  name: string;
  language?: string;
}

const has = (program: string): boolean => spawnSync('which', [program], { stdio: 'ignore' }).status === 0;

/** What installs espeak-ng here (Debian's package name, which Fedora and Arch share). */
export function platformPlan(): InstallPlan {
  if (process.platform === 'darwin' || process.platform === 'win32') return { builtIn: true };
  if (process.getuid?.() === 0 && has('apt-get')) {
    return {
      steps: [
        { program: 'apt-get', args: ['update'] },
        { program: 'apt-get', args: ['install', '-y', '--no-install-recommends', 'espeak-ng'] },
      ],
    };
  }
  if (has('apt-get')) return { manual: 'sudo apt-get install espeak-ng' };
  if (has('dnf')) return { manual: 'sudo dnf install espeak-ng' };
  if (has('pacman')) return { manual: 'sudo pacman -S espeak-ng' };
  return { manual: "install espeak-ng with your system's package manager" };
}

/** The voices an engine offers: espeak-ng's list (`--voices`), or macOS's (`say -v ?`). */
export function listVoices(engine: SpeechEngine | null): Promise<VoiceEntry[]> {
  if (!engine) return Promise.resolve([]);
  const [program, args, parse] =
    engine.name === 'espeak-ng'
      ? (['espeak-ng', ['--voices'], parseEspeakVoices] as const)
      : (['say', ['-v', '?'], parseSayVoices] as const);
  return new Promise((resolve) => execFile(program, args, { timeout: 5_000 }, (error, stdout) => resolve(error ? [] : parse(stdout))));
}

/**
 * `Pty Language Age/Gender VoiceName File Other Languages`: the language code is what `-v` takes. A code listed
 * twice (`yue`: Cantonese, and Cantonese written as Jyutping) is one voice to `-v`, the first listed: it is kept
 * once, as the first.
 */
export function parseEspeakVoices(text: string): VoiceEntry[] {
  const byId = new Map<string, VoiceEntry>();
  for (const [, language, , name] of text
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((columns) => columns.length >= 4)) {
    if (!byId.has(language!)) byId.set(language!, { id: language!, name: name!.replace(/_/g, ' '), language: language! });
  }
  return [...byId.values()];
}

/** `Alex                en_US    # Most people recognize me by my voice.` */
function parseSayVoices(text: string): VoiceEntry[] {
  return text
    .split('\n')
    .map((line) => /^(.+?)\s{2,}([a-z]{2}[_-][A-Za-z]+)\s+#/.exec(line))
    .filter((match) => match !== null)
    .map((match) => ({ id: match[1]!.trim(), name: match[1]!.trim(), language: match[2]! }));
}

export class VoiceSetup {
  /** How to install; the platform's unless a test gives its own steps (real processes, run the same way). */
  plan: () => InstallPlan = platformPlan;
  /** Finds the engine after an installation (espeak-ng on the PATH). */
  find: () => SpeechEngine | null = findSpeechEngine;
  private phase: InstallPhase = { state: 'idle' };
  private output: string[] = [];
  private child: ChildProcess | null = null;
  private cancelled = false;
  private voiceList: { engine: SpeechEngine; list: Promise<VoiceEntry[]> } | null = null;

  constructor(
    private readonly engine: () => SpeechEngine | null,
    private readonly useEngine: (engine: SpeechEngine) => void,
  ) {}

  /** GET /v1/voice, the engine part. */
  async status() {
    const engine = this.engine();
    // The plan looks for package managers on the PATH: only worth it when there is no engine.
    const plan = engine ? null : this.plan();
    return {
      engineName: engine?.name ?? null,
      installed: engine !== null,
      ...(plan && 'manual' in plan ? { installCommand: plan.manual } : {}),
      voices: await this.voices(),
      install: { ...this.phase, log: this.output },
    };
  }

  /** POST /v1/voice/install `install`: starts the installation and answers at once; progress is in GET. */
  install(): { ok: true; action: string; next: string } {
    if (this.engine()) throw errors.voiceInstalled();
    if (this.phase.state === 'installing') throw errors.installRunning();
    const plan = this.plan();
    if ('builtIn' in plan) throw errors.voiceBuiltIn();
    if ('manual' in plan) {
      throw errors.installNeedsRoot(plan.manual);
    }
    this.output = [];
    this.cancelled = false;
    void this.run(plan.steps);
    return { ok: true, action: 'install', next: 'Poll GET /v1/voice for progress.' };
  }

  /** `cancel`: stops a running installation. */
  cancel(): { ok: true; action: string } {
    if (this.phase.state !== 'installing') throw errors.noInstallRunning();
    this.cancelled = true;
    // The whole process group: a package manager runs helpers (downloads, dpkg) that must stop with it.
    if (this.child?.pid !== undefined) process.kill(-this.child.pid, 'SIGTERM');
    return { ok: true, action: 'cancel' };
  }

  /** `useExisting`: an engine installed outside the service (espeak-ng on the PATH) is taken into use. */
  useExisting(): { ok: true; action: string; engineName: string } {
    const found = this.find();
    if (!found) throw errors.espeakNotFound();
    this.useEngine(found);
    return { ok: true, action: 'useExisting', engineName: found.name };
  }

  private async run(steps: InstallStep[]): Promise<void> {
    const startedAt = new Date().toISOString();
    try {
      for (const [index, step] of steps.entries()) {
        this.phase = {
          state: 'installing',
          step: [step.program, ...step.args].join(' '),
          stepNumber: index + 1,
          steps: steps.length,
          startedAt,
        };
        await this.runStep(step);
        if (this.cancelled) break;
      }
      const finishedAt = new Date().toISOString();
      if (this.cancelled) {
        this.phase = { state: 'cancelled', finishedAt };
        return;
      }
      const found = this.find();
      if (!found) throw new Error('the installation finished but no espeak-ng was found on the PATH');
      this.useEngine(found);
      this.phase = { state: 'done', finishedAt };
    } catch (error) {
      const finishedAt = new Date().toISOString();
      this.phase = this.cancelled ? { state: 'cancelled', finishedAt } : { state: 'failed', error: (error as Error).message, finishedAt };
      if (!this.cancelled) log.warn(`voice installation failed: ${(error as Error).message}`);
    } finally {
      this.child = null;
    }
  }

  private runStep(step: InstallStep): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(step.program, step.args, {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
        detached: true, // its own process group, so cancel reaches every process of the step
      });
      this.child = child;
      const keep = (chunk: Buffer): void => {
        for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) this.output.push(line.trim());
        this.output.splice(0, Math.max(0, this.output.length - VOICE_INSTALL_LOG_LINES));
      };
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      child.once('error', reject);
      child.once('close', (code, signal) =>
        code === 0 || this.cancelled ? resolve() : reject(new Error(`${step.program} ${signal ? `stopped by ${signal}` : `exit ${code}`}`)),
      );
    });
  }

  /** The voices of the engine in use, read once per engine (the list does not change while the service runs). */
  voices(): Promise<VoiceEntry[]> {
    const engine = this.engine();
    if (!engine) return Promise.resolve([]);
    if (this.voiceList?.engine !== engine) this.voiceList = { engine, list: listVoices(engine) };
    return this.voiceList.list;
  }
}
