// Throughput of POST /v1/notify against a same-run baseline (a bare Express 5 hello-world).
//   npm run bench:notify [-- --duration 10 --warmup 2 --connections 16 --cpu-prof <folder>]
// Both servers run pinned to CPU 0, the load generator (autocannon, its own process) to CPU 1. The daemon has
// a fresh support folder, the headless presenter and persistence on: every answer waits for an fsync. Afterwards
// it times that durable write alone on the same disk (bench/kit/disk.ts).

import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { defineBenchmark } from './lib.js';
import { measureSyncAppend } from './kit/disk.js';
import { describeAnswers, failed, loadCells, runLoad, type Measured } from './kit/load.js';
import { int, ms, printTable, ratio, verdict } from './kit/print.js';

const TARGET_RATIO = 0.5;
const HISTORY_CAP = 1000;

/** What four typical senders post; each connection cycles through all of them. */
const APPS = ['bench-ci', 'bench-mail', 'bench-calendar', 'bench-backup'];
const MESSAGES: Record<string, { title: string; body: string }[]> = {
  'bench-ci': [
    { title: 'Build 1742 passed', body: 'main @ 3f2a1c · 412 tests in 3m 12s' },
    { title: 'Build 1743 failed', body: 'feature/search @ 9b07de · 2 failing tests in history.test.ts' },
  ],
  'bench-mail': [
    { title: 'Marie Dubois', body: 'Re: déploiement de vendredi — tout est prêt de notre côté, on se voit au café ?' },
    { title: 'Invoice #2026-1187', body: 'Your invoice for November is ready: 3 items, due in 14 days.' },
  ],
  'bench-calendar': [
    { title: 'Weekly sync in 10 minutes', body: 'Room 4.02 · Agenda: release notes, on-call rotation, Q4 planning' },
    { title: 'Lunch with Tomás', body: 'Tomorrow 12:30 at the Crème Brûlée café on Rue Oberkampf' },
  ],
  'bench-backup': [
    { title: 'Backup finished', body: 'Home folder: 18,204 files, 2.3 GB copied to nas-01 in 4m 51s' },
    { title: 'Snapshot pruned', body: 'Removed 12 hourly snapshots older than 7 days from volume data-2' },
  ],
};

function row(name: string, result: Measured, baseline: Measured): string[] {
  return [
    name,
    ...loadCells(result),
    int(result.completed),
    `${Math.round(result.serverCpuPercent ?? NaN)}%`,
    ratio(result.requestsPerSecond / baseline.requestsPerSecond),
  ];
}

/** The records each app's History holds afterwards, and the size of its files. */
async function historyOnDisk(supportDir: string): Promise<{ recordsPerApp: Record<string, number>; historyBytes: number }> {
  const recordsPerApp: Record<string, number> = {};
  let historyBytes = 0;
  const historyDir = path.join(supportDir, 'history');
  for (const name of await readdir(historyDir)) {
    if (!name.endsWith('.json')) continue;
    const text = await readFile(path.join(historyDir, name), 'utf8');
    const file = JSON.parse(text) as { app: string; records: unknown[] };
    recordsPerApp[file.app] = file.records.length;
    historyBytes += Buffer.byteLength(text);
  }
  return { recordsPerApp, historyBytes };
}

await defineBenchmark({
  title: 'Notifier benchmark: POST /v1/notify throughput',
  options: { duration: 10, warmup: 2, connections: 16, cpuProf: '' },
  needs: { helloWorld: true },
  async measure({ options, helloWorld: baseline, startDaemon }) {
    const { connections, cpuProf } = options;
    console.log(`    ${describeAnswers(baseline)}`);
    console.log('daemon: POST /v1/notify, 4 apps, persistence on ...');
    const daemon = await startDaemon({ nodeArgs: cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(cpuProf)}`] : [] });
    const notify = await runLoad(
      {
        url: `${daemon.baseUrl}/v1/notify`,
        connections,
        warmupSeconds: options.warmup,
        durationSeconds: options.duration,
        headers: { ...daemon.auth, 'content-type': 'application/json' },
        requests: APPS.flatMap((app) =>
          MESSAGES[app]!.map((message) => ({ method: 'POST', path: '/v1/notify', body: JSON.stringify({ app, ...message }) })),
        ),
      },
      daemon.pid,
    );
    await daemon.stop(); // the daemon settles its writes (and writes the CPU profile)
    const { recordsPerApp, historyBytes } = await historyOnDisk(daemon.supportDir);
    console.log(`    ${describeAnswers(notify)}`);

    // Each connection cycles through 2 messages per app, so every app got a quarter of the answers (give or take
    // one cycle per connection); its History holds that many records, or the cap.
    const answered = notify.warmupCompleted + notify.completed;
    const share = Math.floor(answered / APPS.length);
    const sane =
      failed(notify) === 0 &&
      APPS.every((app) => {
        const stored = recordsPerApp[app] ?? 0;
        return stored <= HISTORY_CAP && stored >= Math.min(HISTORY_CAP, share - 2 * connections);
      });
    const perApp = Object.entries(recordsPerApp)
      .map(([app, n]) => `${app} ${n}`)
      .join(', ');
    console.log(
      `    History afterwards: ${perApp} records (cap ${HISTORY_CAP} per app), ` +
        `${(historyBytes / 1024 / APPS.length).toFixed(0)} KiB per file: each write of an app's History rewrites that much`,
    );
    console.log(`    answers sane (all 2xx, no errors, each app's History holds its share or the cap): ${sane ? 'yes' : 'NO'}`);
    // What each answer waits for on this disk, measured in the daemon's folder once it has stopped: on machine L
    // the durable write costs about a fifth of the throughput (docs/performance-history.md, "bench:notify").
    const records = Object.values(recordsPerApp).reduce((sum, n) => sum + n, 0);
    const lineBytes = Math.round(historyBytes / Math.max(1, records));
    const sync = await measureSyncAppend(daemon.supportDir, lineBytes);
    console.log(
      `    this disk's durable append of ${lineBytes} bytes, as the journal writes it: p50 ${ms(sync.medianMs)}, p99 ${ms(sync.p99Ms)}\n`,
    );

    printTable([
      ['server', 'req/s', 'p50', 'p99', 'max', 'requests', 'server CPU', 'vs baseline'],
      row('Express hello-world (baseline)', baseline, baseline),
      row('daemon POST /v1/notify', notify, baseline),
    ]);
    console.log('(latencies have 1 ms resolution; server CPU: share of one core used during warm-up + measurement)');
    const achieved = notify.requestsPerSecond / baseline.requestsPerSecond;
    console.log(`\nnotify / baseline = ${achieved.toFixed(2)} (target >= ${TARGET_RATIO}): ${verdict(achieved >= TARGET_RATIO)}`);
    if (cpuProf) console.log(`CPU profile of the daemon written to ${path.resolve(cpuProf)}`);
  },
});
