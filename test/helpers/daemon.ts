import { afterAll, beforeAll } from '@jest/globals';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { request, type Reply, type RequestOptions } from './http.js';
import { keepTrackOf } from './keeper.js';

export const ROOT = path.resolve(__dirname, '..', '..');
export const CLI = path.join(ROOT, 'dist', 'cli', 'main.js');

/** Temp folders made by this test file: all removed after its last test, whether it passed, failed or timed out. */
const folders = new Set<string>();

/** A new folder in the system's temp folder, removed in this test file's `afterAll` (a test may remove it sooner). */
export async function tempFolder(prefix = 'notifier-test-'): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), prefix));
  folders.add(folder);
  return folder;
}

/** `tempFolder` for module scope, where no await is possible. */
export function tempFolderSync(prefix = 'notifier-test-'): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), prefix));
  folders.add(folder);
  return folder;
}

export { waitFor } from '../../rigs/wait.js';
import { waitFor } from '../../rigs/wait.js';

const readText = (file: string): Promise<string | undefined> =>
  readFile(file, 'utf8').then(
    (t) => t,
    () => undefined,
  );

/** Daemons of this test file still running: a failing test must not leave them behind. */
const running = new Set<ChildProcess>();
/** What other helpers stop before the folders go (test/helpers/in-process.ts: daemons running in this process). */
const stoppers: Array<() => Promise<void>> = [];

/**
 * `stop` runs after this test file's last test, before its temp folders are removed: a daemon still running would
 * write into a folder being removed (ENOTEMPTY), or make it again while it stops.
 */
export function stopBeforeCleanup(stop: () => Promise<void>): void {
  stoppers.push(stop);
}

afterAll(async () => {
  // Everything that writes into the folders first: a folder is removed only once nothing writes into it any more.
  await Promise.all(
    [...running].map((child) => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      return child.exitCode === null && child.signalCode === null ? exited : undefined;
    }),
  );
  for (const stop of stoppers) await stop();
  await Promise.all([...folders].map((folder) => rm(folder, { recursive: true, force: true, maxRetries: 3 })));
});

export interface DaemonProcess {
  readonly supportDir: string;
  readonly port: number;
  readonly token: string;
  readonly child: ChildProcess;
  /** Everything the daemon wrote on stderr so far. */
  log(): string;
  /** A request with the daemon's token unless `token` says otherwise. */
  api(method: string, path: string, options?: RequestOptions): Promise<Reply>;
  /** SIGTERM, and wait for the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL: no clean-up at all. */
  kill9(): Promise<void>;
}

export interface StartOptions {
  supportDir?: string;
  /** Default 0: a free port chosen by the system. */
  port?: number;
  env?: Record<string, string>;
  /** How it shows banners: default headless (it draws none); dbus, on the desktop's notification server. */
  presenter?: 'headless' | 'dbus';
  /** false: no tray icon (`--no-tray`). */
  tray?: boolean;
  /** Replace the command-line options entirely (for the env-variable tests): port, presenter and tray are not read then. */
  args?: string[];
  /** The `notifier` to run, as a program of its own (an installed package's); default: this checkout's build, under this Node. */
  program?: string;
}

/** Runs `notifier daemon` (the built CLI) as its own process and waits until it answers its health route. */
export async function startDaemon(options: StartOptions = {}): Promise<DaemonProcess> {
  const supportDir = options.supportDir ?? (await tempFolder());
  const args = options.args ?? [
    ...['--support-dir', supportDir, '--port', String(options.port ?? 0), '--presenter', options.presenter ?? 'headless'],
    ...(options.tray === false ? ['--no-tray'] : []),
  ];
  // A daemon given a HOME of its own gets its runtime folder there too: the programs it runs (espeak-ng, paplay,
  // through libpulse) would otherwise make a new /tmp/pulse-* for every home they have not seen before.
  const runtime = options.env?.HOME ? { XDG_RUNTIME_DIR: options.env.HOME } : {};
  const [command, commandArgs] = options.program ? [options.program, ['daemon', ...args]] : [process.execPath, [CLI, 'daemon', ...args]];
  const child = spawn(command, commandArgs, {
    env: { ...process.env, ...runtime, ...options.env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));

  running.add(child);
  keepTrackOf(child, options.program ?? CLI, options.supportDir === undefined ? supportDir : undefined);
  void exited.then(() => running.delete(child));
  // The port file may be a stale one left by a killed daemon: wait until the port it names answers with our pid.
  const port = await waitFor(async () => {
    if (exitCode !== undefined) throw new Error(`daemon exited (${exitCode}) before listening:\n${stderr}`);
    const text = await readText(path.join(supportDir, 'port'));
    if (!text) return undefined;
    const health = await request(Number(text.trim()), 'GET', '/v1/health', { timeoutMs: 1000 }).catch(() => null);
    return health?.json?.pid === child.pid ? Number(text.trim()) : undefined;
  }, 'the daemon to listen');
  const token = (await readFile(path.join(supportDir, 'token'), 'utf8')).trim();

  return {
    supportDir,
    port,
    token,
    child,
    log: () => stderr,
    api: (method, route, requestOptions = {}) =>
      request(port, method, route, { ...requestOptions, token: requestOptions.token === undefined ? token : requestOptions.token }),
    stop: async () => {
      if (exitCode === undefined) child.kill('SIGTERM');
      return exited;
    },
    kill9: async () => {
      if (exitCode === undefined) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Starts a daemon for a test file and stops it (and removes its folder) afterwards. */
export function useDaemon(options: StartOptions = {}): () => DaemonProcess {
  let daemon: DaemonProcess | undefined;
  beforeAll(async () => {
    daemon = await startDaemon(options);
  });
  afterAll(async () => {
    if (!daemon) return;
    await daemon.stop();
    await rm(daemon.supportDir, { recursive: true, force: true });
  });
  return () => daemon!;
}
