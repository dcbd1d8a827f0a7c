// The benchmarks' processes: where things are, which CPU each runs on, and child processes, temp folders and other
// things to stop that are always cleaned up when a run ends (bench/lib.ts's defineBenchmark calls cleanUp after the
// measurement, when it fails, and on Ctrl-C).

import { spawn, spawnSync, type ChildProcess, type StdioOptions } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

/** The repository root (this file runs as dist/bench/kit/processes.js). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const DAEMON_MAIN = path.join(ROOT, 'dist', 'cli', 'main.js');
export const BENCH_DIST = path.join(ROOT, 'dist', 'bench');

/** The server under test runs on CPU 0; the load generator (and the benchmark process itself) on CPU 1. */
export const SERVER_CPU = 0;
export const LOAD_CPU = 1;

export const hasTaskset = spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0;

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** `command args` prefixed with `taskset -c <cpu>` when taskset exists (taskset execs: the pid stays the same). */
export function onCpu(cpu: number, command: string, args: string[]): [string, string[]] {
  return hasTaskset ? ['taskset', ['-c', String(cpu), command, ...args]] : [command, args];
}

/** Moves this process (all its threads) to one CPU; children it spawns inherit that unless pinned elsewhere. */
export function pinSelf(cpu: number): void {
  if (hasTaskset) spawnSync('taskset', ['-a', '-c', '-p', String(cpu), String(process.pid)], { stdio: 'ignore' });
}

export function describeMachine(): string {
  const pinning = hasTaskset
    ? `server on CPU ${SERVER_CPU}, load generator on CPU ${LOAD_CPU} (taskset)`
    : 'taskset not found: processes are NOT pinned';
  return `${os.cpus().length} CPU(s) ${os.cpus()[0]?.model ?? ''}, Node ${process.version}, ${pinning}`;
}

// ---------------------------------------------------------------------------------------------------------------
// What a run leaves behind, removed by cleanUp whatever happens.

const children = new Set<ChildProcess>();
const tempFolders = new Set<string>();
const stops: Array<() => unknown> = [];

export function spawnPinned(
  cpu: number,
  command: string,
  args: string[],
  stdio: StdioOptions = 'ignore',
  env: NodeJS.ProcessEnv = process.env,
): ChildProcess {
  const [file, fileArgs] = onCpu(cpu, command, args);
  const child = spawn(file, fileArgs, { stdio, env });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** The first line a child prints (the benchmarks' servers print their port). */
export function firstLine(stream: Readable): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      text += chunk;
      if (text.includes('\n')) resolve(text.slice(0, text.indexOf('\n')));
    });
    stream.once('end', () => reject(new Error('the process ended without printing a line')));
  });
}

export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** SIGTERM to the child's pid, then SIGKILL if it has not exited after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited(child);
  clearTimeout(timer);
}

export async function makeTempFolder(prefix: string): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), prefix));
  tempFolders.add(folder);
  return folder;
}

/** `stop` runs when the run ends, before the children are stopped and the folders removed; the last given runs first. */
export function atCleanUp(stop: () => unknown): void {
  stops.push(stop);
}

/** Stops what the run started (each at most once), then its children, then removes its temp folders. */
export async function cleanUp(): Promise<void> {
  for (let stop = stops.pop(); stop; stop = stops.pop()) {
    await Promise.resolve()
      .then(stop)
      .catch((error: unknown) => process.stderr.write(`cleaning up: ${(error as Error).message ?? String(error)}\n`));
  }
  await Promise.all([...children].map((child) => stopChild(child, 3_000)));
  await Promise.all([...tempFolders].map((folder) => rm(folder, { recursive: true, force: true })));
  tempFolders.clear();
}
