// The daemon as the benchmarks run it: `notifier daemon` on a support folder, pinned to the server CPU.

import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ChildProcess } from 'node:child_process';
import { request, type Answer } from './http.js';
import { DAEMON_MAIN, exited, SERVER_CPU, sleep, spawnPinned, stopChild } from './processes.js';

/** How long a daemon may take to answer GET /v1/health before the benchmark gives up. */
const START_TIMEOUT_MS = 120_000;
/** How often a starting daemon is asked (its port file, then GET /v1/health): the resolution of `readyMs`. */
const POLL_MS = 5;

export interface DaemonOptions {
  /** Node's own flags (`--cpu-prof`, say). */
  nodeArgs?: string[];
  /** `--presenter`: `headless` unless given. */
  presenter?: string;
  /** More arguments of `notifier daemon`. */
  args?: string[];
  /** Its whole environment (this process's unless given). */
  env?: NodeJS.ProcessEnv;
}

export interface RunningDaemon {
  child: ChildProcess;
  pid: number;
  supportDir: string;
  baseUrl: string;
  token: string;
  /** Milliseconds from spawn until GET /v1/health answered 200. */
  readyMs: number;
  auth: Record<string, string>;
  /** A request with the daemon's token and, when given, a JSON body. */
  call(method: string, route: string, body?: unknown): Promise<Answer>;
  /** SIGTERM, and wait until it has exited: it settles its writes first (and writes a CPU profile it was asked for). */
  stop(): Promise<void>;
}

/**
 * Spawns `notifier daemon` on a support folder, pinned to the server CPU, with its output ignored, and waits
 * (polling every POLL_MS) for the port file and then for GET /v1/health to answer 200.
 */
export async function startDaemon(supportDir: string, options: DaemonOptions = {}): Promise<RunningDaemon> {
  const portFile = path.join(supportDir, 'port');
  await rm(portFile, { force: true });
  const started = performance.now();
  const daemonArgs = ['daemon', '--support-dir', supportDir, '--port', '0', '--presenter', options.presenter ?? 'headless'];
  const argv = [...(options.nodeArgs ?? []), DAEMON_MAIN, ...daemonArgs, ...(options.args ?? [])];
  const child = spawnPinned(SERVER_CPU, process.execPath, argv, 'ignore', options.env);
  let port: number | null = null;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the daemon exited before it answered (exit ${child.exitCode ?? child.signalCode})`);
    }
    if (performance.now() - started > START_TIMEOUT_MS) throw new Error(`the daemon did not answer within ${START_TIMEOUT_MS / 1000} s`);
    if (port === null) {
      const text = await readFile(portFile, 'utf8').catch(() => '');
      if (/^\d+$/.test(text.trim())) port = Number(text.trim());
    }
    if (port !== null) {
      const answer = await request(`http://127.0.0.1:${port}/v1/health`, { fresh: true }).catch(() => null);
      if (answer?.status === 200) break;
    }
    await sleep(POLL_MS);
  }
  const readyMs = performance.now() - started;
  const token = (await readFile(path.join(supportDir, 'token'), 'utf8')).trim();
  const baseUrl = `http://127.0.0.1:${port}`;
  const auth = { authorization: `Bearer ${token}` };
  return {
    child,
    pid: child.pid!,
    supportDir,
    baseUrl,
    token,
    readyMs,
    auth,
    call: (method, route, body) =>
      request(`${baseUrl}${route}`, {
        method,
        headers: body === undefined ? auth : { ...auth, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    stop: () => stopChild(child),
  };
}

/** Wall time of one `node -e 0` on the server CPU: the floor under any cold start. */
export async function nodeStartMs(): Promise<number> {
  const started = performance.now();
  await exited(spawnPinned(SERVER_CPU, process.execPath, ['-e', '0']));
  return performance.now() - started;
}
