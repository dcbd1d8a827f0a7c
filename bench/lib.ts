// defineBenchmark(): a benchmark file declares what it measures — its title, its options with their defaults, what
// it needs started — and the measurement itself. This file does the rest, the same way for every benchmark: it
// reads the options, starts the database before pinning this process (so the database is not pinned with it),
// pins this process, prints the title and the machine, starts what is needed (the daemon and the relay pinned to
// the server CPU), runs the measurement, and stops everything afterwards, also when the measurement fails or the
// run is interrupted (Ctrl-C). `--help` prints the options.
//
// The rigs and the relay's modules are loaded only when a benchmark needs them: Chromium's driver, D-Bus and the
// database client would otherwise sit in every benchmark's heap (bench:memory measures the heap of this process).

import path from 'node:path';
import type { Browser } from 'playwright-core';
import type { Desktop } from '../rigs/desktop.js';
import type { PostgresServer } from '../rigs/postgres.js';
import { startDaemon, type DaemonOptions, type RunningDaemon } from './kit/daemon.js';
import { measureHelloExpress, type Measured } from './kit/load.js';
import { readOptions, usage, type OptionDefaults, type ReadOptions } from './kit/options.js';
import { atCleanUp, cleanUp, describeMachine, LOAD_CPU, makeTempFolder, pinSelf, SERVER_CPU } from './kit/processes.js';
import type { RelayNode, RelayOptions } from './kit/relay.js';

export interface DaemonNeed extends DaemonOptions {
  /** Its support folder: a fresh one unless given. */
  supportDir?: string;
  /**
   * The person's app can open: a DISPLAY, no tray, and a stand-in `chromium` first on PATH that opens nothing (the
   * sign-in link is read from the forwarding file instead: rigs/person-app.ts).
   */
  personApp?: boolean;
  /** Its banners go to the run's desktop (needs.desktop): the D-Bus presenter, the desktop's bus, no tray. */
  onDesktop?: boolean;
}

export interface RelayNeed extends RelayOptions {
  /** `postgres`: a fresh database on the run's PostgreSQL (needs.postgres); the embedded database unless given. */
  database?: 'embedded' | 'postgres';
}

/** What a benchmark needs started before its measurement; each is stopped when the run ends. */
export interface Needs {
  /** A private PostgreSQL server (rigs/postgres.ts), with more settings (`name=value`) if given; not pinned. */
  postgres?: boolean | { settings: string[] };
  /** Xvfb, a private session bus and dunst, a real notification server (rigs/desktop.ts). */
  desktop?: boolean;
  /** Headless Chromium (rigs/chromium.ts). */
  chromium?: boolean;
  /** `notifier daemon` on the server CPU. */
  daemon?: boolean | DaemonNeed;
  /** One relay node on the server CPU. */
  relay?: boolean | RelayNeed;
  /**
   * The baseline of the throughput benchmarks, measured first: the Express 5 hello-world (bench/hello-express.ts) on
   * the server CPU under the benchmark's own load (its `connections`, `warmup` and `duration` options).
   */
  helloWorld?: boolean;
}

/** What the measurement is given to start things itself, at its own moment; all are stopped when the run ends. */
export interface Run<O> {
  options: O;
  tempFolder(prefix?: string): Promise<string>;
  startDaemon(need?: DaemonNeed): Promise<RunningDaemon>;
  startRelay(need?: RelayNeed): Promise<RelayNode>;
  /** A new, empty database on the run's PostgreSQL (needs.postgres); its URL. */
  newDatabase(): Promise<string>;
  /** `stop` runs when the run ends (after the measurement, on failure, on Ctrl-C); the last given runs first. */
  atEnd(stop: () => unknown): void;
}

/** `T` where the need is declared; `T | undefined` where it depends on the options; nothing where it is absent. */
type Given<V, T> = [Exclude<V, undefined | false>] extends [never]
  ? undefined
  : [Extract<V, undefined | false>] extends [never]
    ? T
    : T | undefined;
type Provided<N extends Needs> = { [K in keyof N & keyof Started]: Given<N[K], Started[K]> };
interface Started {
  postgres: PostgresServer;
  desktop: Desktop;
  chromium: Browser;
  daemon: RunningDaemon;
  relay: RelayNode;
  helloWorld: Measured;
}

export interface Benchmark<O extends OptionDefaults, N extends Needs> {
  /** The first line it prints: what it measures (or a function of the options that says). */
  title: string | ((options: ReadOptions<O>) => string);
  /** Each option (`cpuProf` is `--cpu-prof`) with its default: a number, a string (empty: not given) or a flag (false). */
  options?: O;
  /** The CPU this process runs on: the load CPU unless given; false leaves it unpinned (Chromium, several processes, is its child). */
  pin?: 'load' | 'server' | false;
  /** What it needs started, or a function of the options that says. */
  needs?: N | ((options: ReadOptions<O>) => N);
  measure(run: Run<ReadOptions<O>> & Provided<N>): Promise<void>;
}

/** Runs a benchmark (see the top of this file). */
export async function defineBenchmark<const O extends OptionDefaults = {}, const N extends Needs = {}>(
  benchmark: Benchmark<O, N>,
): Promise<void> {
  if (process.argv.includes('--help')) {
    console.log(usage(benchmark.options ?? {}));
    return;
  }
  const interrupted = (signal: NodeJS.Signals): void => {
    process.stderr.write(`\n${signal}: cleaning up\n`);
    void cleanUp().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    const options = readOptions(benchmark.options ?? ({} as O));
    const needs: Needs = typeof benchmark.needs === 'function' ? benchmark.needs(options) : (benchmark.needs ?? {});
    const run = await start(benchmark, options, needs);
    await benchmark.measure(run as Run<ReadOptions<O>> & Provided<N>);
  } catch (error) {
    process.exitCode = 1;
    process.stderr.write(`benchmark failed: ${(error as Error).stack ?? String(error)}\n`);
  } finally {
    await cleanUp();
  }
}

/** Starts what `needs` names, in the order that keeps each where it should run; the run the measurement is given. */
async function start<O>(
  benchmark: { title: string | ((options: O) => string); pin?: 'load' | 'server' | false },
  options: O,
  needs: Needs,
) {
  const started: Partial<Started> = {};
  if (needs.postgres) {
    console.log('starting a private PostgreSQL server ...');
    const { startPostgres } = await import('../rigs/postgres.js');
    const postgres = await startPostgres(needs.postgres === true ? [] : needs.postgres.settings);
    atCleanUp(() => postgres.stop());
    started.postgres = postgres;
  }
  const pin = benchmark.pin ?? 'load';
  if (pin) pinSelf(pin === 'load' ? LOAD_CPU : SERVER_CPU);
  console.log(typeof benchmark.title === 'function' ? benchmark.title(options) : benchmark.title);
  console.log(describeMachine());

  const run: Run<O> = {
    options,
    tempFolder: (prefix = 'notifier-bench-') => makeTempFolder(prefix),
    newDatabase: async () => {
      if (!started.postgres) throw new Error('a database needs needs.postgres');
      const { createDatabase } = await import('../rigs/postgres.js');
      return createDatabase(started.postgres.baseUrl);
    },
    startDaemon: (need = {}) => startDaemonFor(need, started.desktop),
    startRelay: async ({ database, env, ...need } = {}) => {
      const url: Record<string, string> = database === 'postgres' ? { DATABASE_URL: await run.newDatabase() } : {};
      const { startRelayNode } = await import('./kit/relay.js');
      return startRelayNode({ ...need, env: { ...url, ...env } });
    },
    atEnd: atCleanUp,
  };

  if (needs.helloWorld) started.helloWorld = await measureHelloWorld(options);
  if (needs.desktop) {
    const { startDesktop } = await import('../rigs/desktop.js');
    const desktop = await startDesktop();
    atCleanUp(() => desktop.stop());
    started.desktop = desktop;
  }
  if (needs.chromium) {
    const { launchChromium } = await import('../rigs/chromium.js');
    const browser = await launchChromium();
    atCleanUp(() => browser.close());
    started.chromium = browser;
  }
  if (needs.daemon) started.daemon = await run.startDaemon(needs.daemon === true ? {} : needs.daemon);
  if (needs.relay) started.relay = await run.startRelay(needs.relay === true ? {} : needs.relay);
  return { ...run, ...started };
}

/** The daemon a need describes, on its own support folder or a fresh one. */
async function startDaemonFor({ supportDir, personApp, onDesktop, ...options }: DaemonNeed, desktop: Desktop | undefined) {
  const env: NodeJS.ProcessEnv = { ...(options.env ?? process.env) };
  if (personApp) {
    const { writeSilentBrowser } = await import('../rigs/person-app.js');
    const bin = await makeTempFolder('notifier-bench-bin-');
    await writeSilentBrowser(bin);
    Object.assign(env, { DISPLAY: ':0', NOTIFIER_NO_TRAY: '1', PATH: `${bin}${path.delimiter}${env.PATH}` });
  }
  if (onDesktop) {
    if (!desktop) throw new Error('a daemon on the desktop needs needs.desktop');
    Object.assign(env, desktop.env);
    options = { ...options, presenter: 'dbus', args: ['--no-tray', ...(options.args ?? [])] };
  }
  return startDaemon(supportDir ?? (await makeTempFolder('notifier-bench-daemon-')), { ...options, env });
}

/** needs.helloWorld: the hello-world under the benchmark's load, announced as the others' first step is. */
async function measureHelloWorld(options: unknown): Promise<Measured> {
  const { connections, warmup, duration } = options as Record<string, unknown>;
  if (typeof connections !== 'number' || typeof warmup !== 'number' || typeof duration !== 'number') {
    throw new Error('needs.helloWorld takes the load from the options connections, warmup and duration');
  }
  console.log(`${connections} connections, ${warmup} s warm-up then ${duration} s measured, per server\n`);
  console.log('baseline: Express 5 hello-world (GET /) ...');
  return measureHelloExpress({ connections, warmupSeconds: warmup, durationSeconds: duration });
}
