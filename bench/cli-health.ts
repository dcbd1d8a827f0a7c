// Cold starts of the `notifier` command: `notifier health` against a running daemon, each run a new process.
//   npm run bench:cli [-- --runs 30]
//
// Baseline, same run and spawned the same way: `node -e 0`, the floor under any Node program. Steps between them
// show where the time goes: `node -e "import('commander')"` (Node plus the command-line library), `notifier
// --version` (every module of the tool loaded, commands defined, no request), and for comparison the same
// `--version` from the tool bundled into one file by esbuild (the same code, one module instead of ~24: the
// difference is the cost of loading modules one by one). The kinds of run take turns, so a machine that slows
// down during the run slows all of them alike. The daemon runs pinned to CPU 0; the commands are spawned on CPU 1.

import { spawn } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as esbuild from 'esbuild';
import { defineBenchmark } from './lib.js';
import { median, ms, percentile, printTable, ratio, verdict } from './kit/print.js';
import { DAEMON_MAIN, LOAD_CPU, onCpu } from './kit/processes.js';

const WARM_UP = 3;
const TARGET_MS = 150;

interface Kind {
  name: string;
  args: string[];
}

/**
 * The tool in one file, for the comparison row only. The daemon and the presenters stay outside (they are loaded
 * by `notifier daemon` alone), as does nothing else: commander and the tool's modules are inlined.
 */
async function bundleTool(folder: string): Promise<string> {
  const outfile = path.join(folder, 'notifier.bundle.mjs');
  await esbuild.build({
    entryPoints: [DAEMON_MAIN],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'error',
    // commander is CommonJS: its require() of Node's modules needs a require in an ES module.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    plugins: [
      {
        name: 'leave-the-daemon-out',
        setup: (build) =>
          // `notifier daemon` loads the service through daemon-command.js, which the bundle leaves out as well; each
          // left-out module is imported from dist/ by its absolute path (the bundle is written to a temporary folder).
          build.onResolve({ filter: /(daemon|daemon-command|dbus|node-notifier|headless)\.js$/ }, (args) => ({
            path: path.resolve(args.resolveDir, args.path),
            external: true,
          })),
      },
    ],
  });
  return outfile;
}

/** Wall time from spawn to exit of one process on the load CPU; its exit code must be 0. */
function timeRun(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [file, fileArgs] = onCpu(LOAD_CPU, process.execPath, args);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(file, fileArgs, { stdio: 'ignore', env });
    child.once('error', reject);
    child.once('exit', (code) => {
      const elapsed = performance.now() - started;
      if (code === 0) resolve(elapsed);
      else reject(new Error(`${args.join(' ')} exited ${code}`));
    });
  });
}

await defineBenchmark({
  title: 'Notifier benchmark: `notifier health` cold starts',
  options: { runs: 30 },
  needs: { daemon: true },
  async measure({ options: { runs }, daemon, tempFolder }) {
    const env = { ...process.env, NOTIFIER_SUPPORT_DIR: daemon.supportDir };
    const bundle = await bundleTool(await tempFolder('notifier-bench-cli-bundle-'));
    const kinds: Kind[] = [
      { name: 'node -e 0 (baseline)', args: ['-e', '0'] },
      { name: 'node -e "import(\'commander\')"', args: ['--input-type=module', '-e', "await import('commander')"] },
      { name: 'notifier --version', args: [DAEMON_MAIN, '--version'] },
      { name: 'notifier health', args: [DAEMON_MAIN, 'health'] },
      { name: 'notifier --version, bundled (comparison)', args: [bundle, '--version'] },
      { name: 'notifier health, bundled (comparison)', args: [bundle, 'health'] },
    ];
    const times = kinds.map(() => [] as number[]);
    for (let round = 0; round < WARM_UP + runs; round++) {
      for (const [index, kind] of kinds.entries()) {
        const elapsed = await timeRun(kind.args, env);
        if (round >= WARM_UP) times[index]!.push(elapsed);
      }
    }
    const baseline = median(times[0]!);
    console.log(`\n${runs} cold starts of each (after ${WARM_UP} warm-up rounds), taking turns; the daemon answers GET /v1/health`);
    printTable(
      [
        ['process', 'median', 'p90', 'median vs baseline', 'median - baseline'],
        ...kinds.map((kind, index) => {
          const p50 = median(times[index]!);
          return [
            kind.name,
            ms(p50),
            ms(percentile(times[index]!, 90)),
            ratio(p50 / baseline),
            index === 0 ? '' : `+${ms(p50 - baseline)}`,
          ];
        }),
      ],
      '  ',
    );
    const health = median(times[3]!);
    console.log(`  target: notifier health under ${TARGET_MS} ms wall (median) -> ${verdict(health < TARGET_MS)}`);
  },
});
