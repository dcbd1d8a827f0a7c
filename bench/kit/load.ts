// The load generator (bench/load-worker.ts, autocannon) in its own process on the load CPU, the servers it loads
// beside the daemon and the relay (benchmark servers that print their port), and the hello-world baseline.

import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { int, ms } from './print.js';
import { cpuMs } from './proc.js';
import { BENCH_DIST, exited, firstLine, LOAD_CPU, SERVER_CPU, spawnPinned, stopChild } from './processes.js';

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

/** A load's result with the server's CPU during the whole run (a share of one core, in %). */
export type Measured = LoadResult & { serverCpuPercent?: number };

/** The load a benchmark puts on each server it compares: its --connections, --warmup and --duration. */
export type Load = Pick<LoadSpec, 'connections' | 'warmupSeconds' | 'durationSeconds'>;

/** Requests of a load that were not answered 2xx (warm-up included): failed, refused or timed out. */
export const failed = (result: LoadResult): number =>
  result.non2xx + result.warmupNon2xx + result.errors + result.warmupErrors + result.timeouts;

/** What a load's answers were, warm-up and measurement apart: how many were 2xx, and by status. */
export function describeAnswers(result: LoadResult): string {
  const codes = Object.entries(result.statusCodes)
    .map(([code, count]) => `${code}: ${int(count)}`)
    .join(', ');
  return (
    `measured ${int(result.ok2xx)} 2xx of ${int(result.completed)} answers, non-2xx ${int(result.non2xx)}, ` +
    `errors ${int(result.errors)}, timeouts ${int(result.timeouts)}; warm-up ${int(result.warmupCompleted)} answers, ` +
    `non-2xx ${int(result.warmupNon2xx)}, errors ${int(result.warmupErrors)}; by status: ${codes || 'none'}`
  );
}

/** A load's rate and latencies as table cells: req/s, p50, p99, max. */
export const loadCells = (result: LoadResult): string[] => [
  int(result.requestsPerSecond),
  ms(result.latencyP50),
  ms(result.latencyP99),
  ms(result.latencyMax),
];

/** Runs the load generator against a server; `serverPid` adds the server's CPU use during the whole run. */
export async function runLoad(spec: LoadSpec, serverPid?: number): Promise<Measured> {
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
export function measureHelloExpress(load: Load): Promise<Measured> {
  return withServer('hello-express.js', process.env, (port, pid) =>
    runLoad({ url: `http://127.0.0.1:${port}/`, ...load, requests: [{ method: 'GET', path: '/' }] }, pid),
  );
}
