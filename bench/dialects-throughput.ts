// Throughput of the publishing dialects (docs/senders.md) against POST /v1/notify with the same content, in the
// same run: ntfy's `POST /<topic>` and Gotify's `POST /message`, each with a sending key, and Notifier's own route
// with the API token, in turn, round after round (the order turns each round, so a drift of the machine weighs on
// each alike). Issue 33's target: a dialect costs at most 15 % more than /v1/notify (a ratio of at least 0.87).
//   npm run bench:dialects [-- --duration 10 --warmup 2 --connections 16 --rounds 3]
// The daemon runs pinned to CPU 0, the load generator (autocannon, its own process) to CPU 1; persistence on.

import { defineBenchmark } from './lib.js';
import { describeAnswers, failed, loadCells, runLoad, type Measured } from './kit/load.js';
import { int, printTable, ratio, verdict } from './kit/print.js';

/** At most 15 % more cost per notification: the dialect's throughput at least 1 / 1.15 of /v1/notify's. */
const TARGET_RATIO = 1 / 1.15;

/** What four typical senders post (as bench:notify), each app with its own sending key. */
const MESSAGES = [
  { app: 'bench-ci', title: 'Build 1742 passed', body: 'main @ 3f2a1c · 412 tests in 3m 12s' },
  { app: 'bench-mail', title: 'Invoice #2026-1187', body: 'Your invoice for November is ready: 3 items, due in 14 days.' },
  { app: 'bench-calendar', title: 'Weekly sync in 10 minutes', body: 'Room 4.02 · Agenda: release notes, on-call rotation, Q4 planning' },
  { app: 'bench-backup', title: 'Backup finished', body: 'Home folder: 18,204 files, 2.3 GB copied to nas-01 in 4m 51s' },
];

type Way = 'notify' | 'ntfy' | 'gotify';
const WAYS: readonly Way[] = ['notify', 'ntfy', 'gotify'];

await defineBenchmark({
  title: "Notifier benchmark: ntfy's and Gotify's dialects against POST /v1/notify",
  options: { duration: 10, warmup: 2, connections: 16, rounds: 3 },
  needs: { daemon: {} },
  async measure({ options, daemon }) {
    const keys: Record<string, string> = {};
    for (const { app } of MESSAGES) keys[app] = (JSON.parse((await daemon.call('POST', '/v1/keys', { app })).body) as { key: string }).key;
    const requests: Record<Way, { method: string; path: string; headers?: Record<string, string>; body: string }[]> = {
      notify: MESSAGES.map((message) => ({ method: 'POST', path: '/v1/notify', body: JSON.stringify(message) })),
      ntfy: MESSAGES.map(({ app, title, body }) => ({
        method: 'POST',
        path: `/${app}`,
        headers: { Authorization: `Bearer ${keys[app]}`, Title: title, 'content-type': 'text/plain' },
        body,
      })),
      gotify: MESSAGES.map(({ app, title, body }) => ({
        method: 'POST',
        path: '/message',
        headers: { 'X-Gotify-Key': keys[app]!, 'content-type': 'application/json' },
        body: JSON.stringify({ title, message: body }),
      })),
    };
    const measure = (way: Way): Promise<Measured> =>
      runLoad(
        {
          url: `${daemon.baseUrl}${way === 'notify' ? '/v1/notify' : '/'}`,
          connections: options.connections,
          warmupSeconds: options.warmup,
          durationSeconds: options.duration,
          headers: way === 'notify' ? { ...daemon.auth, 'content-type': 'application/json' } : {},
          requests: requests[way],
        },
        daemon.pid,
      );

    const rows: string[][] = [['round', 'way', 'req/s', 'p50', 'p99', 'max', 'requests', 'server CPU', 'vs /v1/notify']];
    const ratios: Record<Exclude<Way, 'notify'>, number[]> = { ntfy: [], gotify: [] };
    let sane = true;
    for (let round = 0; round < options.rounds; round++) {
      const order = WAYS.map((_, index) => WAYS[(index + round) % WAYS.length]!);
      const results = {} as Record<Way, Measured>;
      for (const way of order) {
        console.log(`round ${round + 1}: ${way} ...`);
        results[way] = await measure(way);
        console.log(`    ${describeAnswers(results[way])}`);
        sane &&= failed(results[way]) === 0;
      }
      for (const way of WAYS) {
        const against = results[way].requestsPerSecond / results.notify.requestsPerSecond;
        if (way !== 'notify') ratios[way].push(against);
        rows.push([
          String(round + 1),
          way,
          ...loadCells(results[way]),
          int(results[way].completed),
          `${Math.round(results[way].serverCpuPercent ?? NaN)}%`,
          ratio(against),
        ]);
      }
    }
    console.log(`\nanswers sane (all 2xx, no errors): ${sane ? 'yes' : 'NO'}\n`);
    printTable(rows);
    console.log('(latencies have 1 ms resolution; server CPU: share of one core used during warm-up + measurement)');
    for (const way of ['ntfy', 'gotify'] as const) {
      const sorted = [...ratios[way]].sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)]!;
      console.log(
        `${way} / notify: ${sorted.map((each) => each.toFixed(2)).join(', ')}; median ${median.toFixed(2)} ` +
          `(target >= ${TARGET_RATIO.toFixed(2)}): ${verdict(median >= TARGET_RATIO)}`,
      );
    }
  },
});
