import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ACTION_KILL_GRACE_MS, ACTION_LOG_BYTES, ACTION_OUTPUT_BYTES, ACTION_TIME_LIMIT_MS } from '../../../protocol/limits.js';
import type { Outcome } from './callbacks.js';
import { cutUTF8 } from '../../../protocol/text.js';
import type { HistoryRecord } from '../../../protocol/types.js';

/** docs/api/actions.md#x10: at most 100 field variables, each value cut at 4 KB. */
const MAX_FIELD_VARIABLES = 100;
const MAX_VARIABLE_BYTES = 4096;

/** Interpreters by a script's extension; any other script must be executable itself. */
const INTERPRETERS: Record<string, string> = {
  '.sh': 'sh',
  '.bash': 'bash',
  '.zsh': 'zsh',
  '.py': 'python3',
  '.rb': 'ruby',
  '.pl': 'perl',
  '.js': process.execPath,
  '.mjs': process.execPath,
};

export interface RunContext {
  record: HistoryRecord;
  action: { id: string; label: string; kind: 'command' | 'script' | 'shortcut' };
  /** Set when a follow-up runs the action. */
  followUp?: { unattendedSeconds: number };
}

/**
 * Runs the code a button or a follow-up names: a shell command, a script from `<support>/scripts/`, or a
 * shortcut. Nothing the notification says is ever put into a command line: the command text is the app's own,
 * and the notification reaches the program as JSON on stdin and as NOTIFIER_* environment variables. Output goes
 * to `<support>/logs/actions.log`.
 */
export class ActionRunner {
  readonly scriptsFolder: string;
  private readonly logFile: string;

  constructor(supportDir: string) {
    this.scriptsFolder = path.join(supportDir, 'scripts');
    this.logFile = path.join(supportDir, 'logs', 'actions.log');
  }

  /** The SHA-256 of a script, which identifies it to the person; null when there is no such script. */
  async scriptDigest(name: string): Promise<string | null> {
    const bytes = await readFile(path.join(this.scriptsFolder, name)).catch(() => null);
    return bytes && createHash('sha256').update(bytes).digest('hex');
  }

  async command(command: string, context: RunContext): Promise<Outcome> {
    const shell = process.env.SHELL || '/bin/sh';
    return this.run(shell, ['-c', command], os.homedir(), this.payload(context), context);
  }

  async script(name: string, input: string | undefined, context: RunContext): Promise<Outcome> {
    const file = path.join(this.scriptsFolder, name);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) return { ok: false, reason: `script not found: ${name}` };
    const interpreter = INTERPRETERS[path.extname(name).toLowerCase()];
    if (!interpreter && (info.mode & 0o111) === 0) {
      return { ok: false, reason: 'script is not executable (chmod +x, or use .sh, .py, .js)' };
    }
    const [program, args] = interpreter ? [interpreter, [file]] : [file, []];
    return this.run(program, args, this.scriptsFolder, input ?? this.payload(context), context);
  }

  async shortcut(name: string, input: string | undefined, context: RunContext): Promise<Outcome> {
    if (process.platform !== 'darwin' || spawnSync('which', ['shortcuts']).status !== 0) {
      return { ok: false, reason: 'there is no shortcuts tool on this computer (Shortcuts exists on macOS only)' };
    }
    const inputFile = path.join(os.tmpdir(), `notifier-shortcut-${process.pid}-${Date.now()}.txt`);
    await writeFile(inputFile, input ?? this.payload(context), { mode: 0o600 });
    try {
      return await this.run('shortcuts', ['run', name, '--input-path', inputFile], os.homedir(), '', context);
    } finally {
      await rm(inputFile, { force: true });
    }
  }

  /** The notification as the program reads it on stdin (docs/api/actions.md#x10). */
  private payload({ record, action, followUp }: RunContext): string {
    return JSON.stringify({
      app: record.app,
      id: record.id,
      action,
      fields: record.fields ?? {},
      notification: record.notification,
      ...(record.imagePath ? { imagePath: record.imagePath } : {}),
      notifier: { followUp: followUp !== undefined, ...(followUp ? { unattendedSeconds: followUp.unattendedSeconds } : {}) },
    });
  }

  private environment({ record, action, followUp }: RunContext): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NOTIFIER_APP: record.app,
      NOTIFIER_NOTIFICATION_ID: record.id,
      NOTIFIER_ACTION: action.label,
      NOTIFIER_ACTION_ID: action.id,
      NOTIFIER_ACTION_KIND: action.kind,
      NOTIFIER_ORIGIN: 'issuer',
    };
    if (followUp) {
      env.NOTIFIER_FOLLOW_UP = '1';
      env.NOTIFIER_UNATTENDED_SECONDS = String(followUp.unattendedSeconds);
    }
    for (const [key, value] of Object.entries(record.fields ?? {}).slice(0, MAX_FIELD_VARIABLES)) {
      env[`NOTIFIER_FIELD_${key.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`] = cutUTF8(value, MAX_VARIABLE_BYTES);
    }
    return env;
  }

  private run(program: string, args: string[], cwd: string, stdin: string, context: RunContext): Promise<Outcome> {
    return new Promise((resolve) => {
      const child = spawn(program, args, { cwd, env: this.environment(context), stdio: ['pipe', 'pipe', 'pipe'] });
      const output: Buffer[] = [];
      let size = 0;
      const collect = (chunk: Buffer): void => {
        if (size < ACTION_OUTPUT_BYTES) output.push(chunk.subarray(0, ACTION_OUTPUT_BYTES - size));
        size += chunk.length;
      };
      child.stdout.on('data', collect);
      child.stderr.on('data', collect);
      child.stdin.on('error', () => undefined); // a program that does not read its input is fine
      child.stdin.end(stdin);
      let timedOut = false;
      const stopIt = setTimeout(() => {
        timedOut = true;
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), ACTION_KILL_GRACE_MS).unref();
      }, ACTION_TIME_LIMIT_MS);
      const finish = (outcome: Outcome): void => {
        clearTimeout(stopIt);
        const text = Buffer.concat(output).toString('utf8');
        // The entry is in actions.log before anyone hears the outcome (log never rejects).
        void this.log(context, outcome, text).then(() => resolve(outcome));
      };
      child.once('error', (error: NodeJS.ErrnoException) =>
        finish({
          ok: false,
          reason:
            error.code === 'ENOENT'
              ? `${path.basename(program)} is not installed`
              : `${path.basename(program)} could not be started${error.code === 'EACCES' ? ' (permission denied)' : ''}`,
        }),
      );
      child.once('close', (code) => {
        const firstLine = Buffer.concat(output).toString('utf8').trim().split('\n')[0] ?? '';
        if (timedOut) finish({ ok: false, reason: `timed out after ${ACTION_TIME_LIMIT_MS / 1000} s` });
        else if (code === 0) finish({ ok: true });
        else finish({ ok: false, reason: `exit ${code ?? 'signal'}${firstLine ? `: ${firstLine}` : ''}` });
      });
    });
  }

  /** One entry per run in actions.log (0600), which keeps one backup when it grows past its size. */
  private async log(context: RunContext, outcome: Outcome, output: string): Promise<void> {
    try {
      await mkdir(path.dirname(this.logFile), { recursive: true, mode: 0o700 });
      const size = (await stat(this.logFile).catch(() => null))?.size ?? 0;
      if (size > ACTION_LOG_BYTES) await rename(this.logFile, `${this.logFile}.1`);
      const { record, action } = context;
      const result = outcome.ok ? 'ran' : `failed: ${outcome.reason}`;
      const header = `${new Date().toISOString()} [${record.app}] ${record.id} ${action.kind} "${action.label}"${context.followUp ? ' (follow-up)' : ''}: ${result}\n`;
      await appendFile(this.logFile, header + (output ? `${output.replace(/\n?$/, '\n')}` : ''), { mode: 0o600 });
    } catch {
      // The log is a convenience: failing to write it never fails the action.
    }
  }
}
