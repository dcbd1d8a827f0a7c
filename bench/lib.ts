// Shared helpers of the benchmarks: CPU pinning, child processes and temp folders that are always cleaned up,
// starting the daemon, a small HTTP client, /proc readers, statistics and table printing.

import { spawn, spawnSync, type ChildProcess, type StdioOptions } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

/** The repository root (this file runs as dist/bench/lib.js). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
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
// Child processes and temp folders, cleaned up by `runBenchmark` whatever happens.

const children = new Set<ChildProcess>();
const tempFolders = new Set<string>();

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

/** The first line a child prints (the hello-world server prints its port). */
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

async function cleanUp(): Promise<void> {
  await Promise.all([...children].map((child) => stopChild(child, 3_000)));
  await Promise.all([...tempFolders].map((folder) => rm(folder, { recursive: true, force: true })));
  tempFolders.clear();
}

/** Runs a benchmark's body; child processes and temp folders are removed afterwards, also on error or Ctrl-C. */
export async function runBenchmark(body: () => Promise<void>): Promise<void> {
  const interrupted = (signal: NodeJS.Signals): void => {
    process.stderr.write(`\n${signal}: cleaning up\n`);
    void cleanUp().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    await body();
  } catch (error) {
    process.exitCode = 1;
    process.stderr.write(`benchmark failed: ${(error as Error).stack ?? String(error)}\n`);
  } finally {
    await cleanUp();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// HTTP

export interface Answer {
  status: number;
  body: string;
}

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One request; `fresh` uses a new connection (for polling a server that is starting). */
export function request(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; fresh?: boolean } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: options.method ?? 'GET', headers: options.headers, agent: options.fresh ? false : keepAlive },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The daemon

export interface RunningDaemon {
  child: ChildProcess;
  pid: number;
  baseUrl: string;
  token: string;
  /** Milliseconds from spawn until GET /v1/health answered 200. */
  readyMs: number;
  auth: Record<string, string>;
}

/**
 * Spawns `notifier daemon` on a support folder, pinned to the server CPU, with its output ignored, and waits
 * (polling every 5 ms) for the port file and then for GET /v1/health to answer 200.
 */
export async function startDaemon(
  supportDir: string,
  nodeArgs: string[] = [],
  options: { presenter?: string; args?: string[]; env?: NodeJS.ProcessEnv } = {},
): Promise<RunningDaemon> {
  const portFile = path.join(supportDir, 'port');
  await rm(portFile, { force: true });
  const started = performance.now();
  const child = spawnPinned(
    SERVER_CPU,
    process.execPath,
    [
      ...nodeArgs,
      DAEMON_MAIN,
      'daemon',
      '--support-dir',
      supportDir,
      '--port',
      '0',
      '--presenter',
      options.presenter ?? 'headless',
      ...(options.args ?? []),
    ],
    'ignore',
    options.env,
  );
  let port: number | null = null;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the daemon exited before it answered (exit ${child.exitCode ?? child.signalCode})`);
    }
    if (performance.now() - started > 120_000) throw new Error('the daemon did not answer within 120 s');
    if (port === null) {
      const text = await readFile(portFile, 'utf8').catch(() => '');
      if (/^\d+$/.test(text.trim())) port = Number(text.trim());
    }
    if (port !== null) {
      const answer = await request(`http://127.0.0.1:${port}/v1/health`, { fresh: true }).catch(() => null);
      if (answer?.status === 200) break;
    }
    await sleep(5);
  }
  const readyMs = performance.now() - started;
  const token = (await readFile(path.join(supportDir, 'token'), 'utf8')).trim();
  return {
    child,
    pid: child.pid!,
    baseUrl: `http://127.0.0.1:${port}`,
    token,
    readyMs,
    auth: { authorization: `Bearer ${token}` },
  };
}

/** Wall time of one `node -e 0` on the server CPU: the floor under any cold start. */
export async function nodeStartMs(): Promise<number> {
  const started = performance.now();
  await exited(spawnPinned(SERVER_CPU, process.execPath, ['-e', '0']));
  return performance.now() - started;
}

// ---------------------------------------------------------------------------------------------------------------
// The load generator (bench/load-worker.ts), in its own process on the load CPU

export interface LoadSpec {
  url: string;
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  headers?: Record<string, string>;
  /** Each connection sends these in turn (each walks the whole list from its start: they move in step). */
  requests: { method: string; path: string; headers?: Record<string, string>; body?: string }[];
  /**
   * The connections take `requests` in turn together instead: each request sent is the next of the list, whichever
   * connection sends it — so requests in flight at one time are different ones (for different computers).
   */
  shared?: boolean;
}

export interface LoadResult {
  seconds: number;
  requestsPerSecond: number;
  completed: number;
  latencyP50: number;
  latencyP99: number;
  latencyMax: number;
  ok2xx: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  warmupCompleted: number;
  warmupNon2xx: number;
  warmupErrors: number;
  /** Answers by status code, warm-up and measurement together. */
  statusCodes: Record<string, number>;
}

/** Runs the load generator against a server; `serverPid` adds the server's CPU use during the whole run. */
export async function runLoad(spec: LoadSpec, serverPid?: number): Promise<LoadResult & { serverCpuPercent?: number }> {
  const cpuBefore = serverPid === undefined ? 0 : await cpuMs(serverPid);
  const started = performance.now();
  const child = spawnPinned(
    LOAD_CPU,
    process.execPath,
    [path.join(BENCH_DIST, 'load-worker.js'), JSON.stringify(spec)],
    ['ignore', 'pipe', 'inherit'],
  );
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (text: string) => (output += text));
  const code = await exited(child);
  if (code !== 0) throw new Error(`the load generator failed (exit ${code})`);
  const result = JSON.parse(output) as LoadResult;
  if (serverPid === undefined) return result;
  const serverCpuPercent = (((await cpuMs(serverPid)) - cpuBefore) / (performance.now() - started)) * 100;
  return { ...result, serverCpuPercent };
}

/**
 * Runs `body` with one of the benchmarks' servers (`script`, in dist/bench, printing its port on stdout) on the
 * server CPU, and stops it afterwards.
 */
export async function withServer<T>(script: string, env: NodeJS.ProcessEnv, body: (port: string, pid: number) => Promise<T>): Promise<T> {
  const server = spawnPinned(SERVER_CPU, process.execPath, [path.join(BENCH_DIST, script)], ['ignore', 'pipe', 'inherit'], env);
  try {
    const port = await firstLine(server.stdout!);
    if (!/^\d+$/.test(port)) throw new Error(`${script} did not report its port`);
    return await body(port, server.pid!);
  } finally {
    await stopChild(server);
  }
}

/**
 * The baseline of the throughput benchmarks: bench/hello-express.ts (a bare Express 5 `GET /`) on the server
 * CPU, under the same load as the server it is compared with.
 */
export function measureHelloExpress(
  load: Pick<LoadSpec, 'connections' | 'warmupSeconds' | 'durationSeconds'>,
): Promise<LoadResult & { serverCpuPercent?: number }> {
  return withServer('hello-express.js', process.env, (port, pid) =>
    runLoad({ url: `http://127.0.0.1:${port}/`, ...load, requests: [{ method: 'GET', path: '/' }] }, pid),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// /proc

/** Resident memory of a process in MiB (VmRSS), and its peak (VmHWM). */
export async function memoryMiB(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;
/** The resolution of `cpuMs`. */
export const CPU_TICK_MS = 1000 / CLOCK_TICKS;

/** CPU time (user + system) a process has used so far, in ms; resolution one clock tick (usually 10 ms). */
export async function cpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields[0] is field 3 (state)
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS; // fields 14 utime, 15 stime
}

/**
 * CPU time the whole machine has spent busy so far (every CPU, every process: all but idle and I/O wait, from
 * /proc/stat), in ms; with the elapsed time it says whether a run had any CPU left over.
 */
export async function machineBusyMs(): Promise<number> {
  const total = (await readFile('/proc/stat', 'utf8')).split('\n')[0]!; // "cpu  user nice system idle iowait irq softirq steal ..."
  const ticks = total.trim().split(/\s+/).slice(1, 9).map(Number);
  const busy = ticks.reduce((sum, value) => sum + value, 0) - ticks[3]! - ticks[4]!;
  return (busy * 1000) / CLOCK_TICKS;
}

// ---------------------------------------------------------------------------------------------------------------
// Statistics and printing

/** Nearest-rank percentile (p in 0..100) of unsorted samples. */
export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

export const median = (samples: number[]): number => percentile(samples, 50);

export const ms = (value: number): string => `${value.toFixed(value < 10 ? 2 : 1)} ms`;
export const int = (value: number): string => Math.round(value).toLocaleString('en-US');
export const ratio = (value: number): string => `${value.toFixed(2)}x`;
export const verdict = (met: boolean): string => (met ? 'met' : 'MISSED');

/**
 * Prints a latency table: for each scenario (its name and samples in milliseconds) p50, p99, max, and its p50
 * against the first row's, the baseline measured in the same run.
 */
export function printLatencies(rows: Array<[string, number[]]>): void {
  const base = percentile(rows[0]![1], 50);
  printTable([
    ['scenario', 'p50', 'p99', 'max', 'p50 vs baseline'],
    ...rows.map(([name, samples]) => [
      name,
      ms(percentile(samples, 50)),
      ms(percentile(samples, 99)),
      ms(Math.max(...samples)),
      ratio(percentile(samples, 50) / base),
    ]),
  ]);
}

/** Prints a table of p50, p90 and p99 (milliseconds) for each row's samples. */
export function printPercentiles(rows: Array<[string, number[]]>): void {
  printTable([
    ['measured', 'p50', 'p90', 'p99'],
    ...rows.map(([name, samples]) => [name, ...[50, 90, 99].map((p) => ms(percentile(samples, p)))]),
  ]);
}

/** Prints rows as a table with aligned columns, each line indented by `indent`; the first row is the header. */
export function printTable(rows: string[][], indent = ''): void {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  const line = (row: string[]): string =>
    indent +
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  console.log(line(rows[0]!));
  console.log(indent + widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows.slice(1)) console.log(line(row));
}

/** `--name value` from the command line. */
export function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}
