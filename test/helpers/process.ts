import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

/**
 * The support folder a program run by a test uses unless the test names one: a folder of its own that holds no
 * port file, so a `notifier` command, a client library or the agent server the test forgot to point at its daemon
 * says "not running" instead of finding the person's own Notifier (their folder, or the default port). Never made.
 */
export const NO_DAEMON_HERE = path.join(os.tmpdir(), `notifier-test-no-daemon-here-${process.pid}`);

/** How a program ended and what it printed. */
export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  /** Added to this process's environment. */
  env?: Record<string, string>;
  /** Written to its standard input (which is then closed). */
  stdin?: string;
  /** Killed (SIGKILL) if it has not ended by then: a program that should have stopped at once must not hang the test. */
  timeoutMs?: number;
}

/**
 * Runs a program to its end, collecting what it prints. NOTIFIER_SUPPORT_DIR is NO_DAEMON_HERE unless `env` says
 * otherwise (an empty value: the platform's folder, which a test moves with HOME and XDG_DATA_HOME).
 */
export function runProgram(command: string, args: string[], options: RunOptions = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, NOTIFIER_SUPPORT_DIR: NO_DAEMON_HERE, ...options.env };
    const child = spawn(command, args, { cwd: options.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.on('error', () => undefined); // a program that does not read its input is fine
    const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.stdin ?? '');
  });
}
