// The daemon with a full History: 200 apps x 1000 records, generated straight into a temp support folder.
//   npm run bench:history [-- --apps 200 --records 1000 --queries 200]
// Measures cold start (spawn -> GET /v1/health 200), two-word search latency, idle memory and idle CPU, each
// next to a same-run baseline (`node -e 0`, the daemon on an empty support folder). The daemon runs pinned to
// CPU 0; this process (which generates the data and sends the searches) to CPU 1.

import { generateHistory, QUERIES } from '../rigs/history-data.js';
import { defineBenchmark, type Run } from './lib.js';
import { nodeStartMs, type RunningDaemon } from './kit/daemon.js';
import { request } from './kit/http.js';
import { int, median, ms, percentile, printTable, ratio, verdict } from './kit/print.js';
import { CPU_TICK_MS, idleCpuMs, memoryMiB } from './kit/proc.js';
import { sleep } from './kit/processes.js';

const COLD_STARTS = 3;
const IDLE_SECONDS = 5;
const TARGET_COLD_START_MS = 1500;
const TARGET_SEARCH_P50_MS = 20;

// ---------------------------------------------------------------------------------------------------------------
// Measurements

/**
 * Starts the daemon `times` times (SIGTERM and wait for exit in between); the last one is left running for the
 * later measurements (the empty-folder daemon idles on the server CPU while the full one starts: it uses no CPU).
 */
async function coldStarts(run: Run<unknown>, supportDir: string, times: number) {
  const samples: number[] = [];
  const loaded: number[] = [];
  for (let started = 1; ; started++) {
    const daemon = await run.startDaemon({ supportDir });
    samples.push(daemon.readyMs);
    // History loads in the background after the daemon answers; a search of every app waits until it is all in.
    loaded.push(daemon.readyMs + (await search(daemon, 'startup probe')).ms);
    if (started === times) return { samples, loaded, daemon };
    await daemon.stop();
  }
}

async function search(daemon: RunningDaemon, query: string): Promise<{ ms: number; count: number }> {
  const url = `${daemon.baseUrl}/v1/history/search?q=${encodeURIComponent(query)}&limit=50`;
  const started = performance.now();
  const answer = await request(url, { headers: daemon.auth });
  const elapsed = performance.now() - started;
  if (answer.status !== 200) throw new Error(`search "${query}" answered ${answer.status}: ${answer.body.slice(0, 200)}`);
  return { ms: elapsed, count: (JSON.parse(answer.body) as { count: number }).count };
}

const describe = (samples: number[]): string => `${samples.map(ms).join(', ')} (median ${ms(median(samples))})`;

await defineBenchmark({
  title: 'Notifier benchmark: History at scale',
  options: { apps: 200, records: 1000, queries: 200 },
  async measure(run) {
    const { apps, records, queries } = run.options;
    const fullDir = await run.tempFolder('notifier-bench-history-');
    const emptyDir = await run.tempFolder('notifier-bench-empty-');
    const generated = await generateHistory(fullDir, { apps, recordsPerApp: records });
    console.log(
      `generated ${apps} apps x ${records} records = ${int(apps * records)} records, ` +
        `${(generated.bytes / 1024 / 1024).toFixed(1)} MiB of History files, in ${ms(generated.ms)}` +
        ' (the files are in the page cache: these are warm-cache cold starts)\n',
    );

    // (a) cold start, with its baselines
    console.log(`(a) cold start: spawn -> GET /v1/health 200, ${COLD_STARTS} runs each`);
    const nodeSamples: number[] = [];
    for (let start = 0; start < COLD_STARTS; start++) nodeSamples.push(await nodeStartMs());
    const empty = await coldStarts(run, emptyDir, COLD_STARTS);
    const full = await coldStarts(run, fullDir, COLD_STARTS);
    const fullMedian = median(full.samples);
    console.log(`    node -e 0:            ${describe(nodeSamples)}`);
    console.log(`    daemon, empty folder: ${describe(empty.samples)}`);
    console.log(`    daemon, full History: ${describe(full.samples)}`);
    console.log(`    ... until all History is loaded (spawn -> first search answered): ${describe(full.loaded)}`);
    console.log(
      `    full / empty = ${ratio(fullMedian / median(empty.samples))}; ` +
        `target median <= ${ms(TARGET_COLD_START_MS)}: ${verdict(fullMedian <= TARGET_COLD_START_MS)}\n`,
    );

    // (b) search, on the last daemon started on the full History
    const daemon = full.daemon;
    console.log(`(b) search: GET /v1/history/search?q=<two words>&limit=50, ${queries} sequential requests`);
    const first = await search(daemon, QUERIES.none![0]!);
    console.log(
      `    first query once History is loaded ("${QUERIES.none![0]}", scans every record): ${ms(first.ms)}, ${first.count} found`,
    );
    const categories = Object.keys(QUERIES);
    const timings: Record<string, number[]> = Object.fromEntries(categories.map((category) => [category, []]));
    const counts: Record<string, number[]> = Object.fromEntries(categories.map((category) => [category, []]));
    for (let index = 0; index < queries; index++) {
      const category = categories[index % categories.length]!;
      const list = QUERIES[category]!;
      const { ms: elapsed, count } = await search(daemon, list[Math.floor(index / categories.length) % list.length]!);
      timings[category]!.push(elapsed);
      counts[category]!.push(count);
    }
    const all = Object.values(timings).flat();
    const rows = categories.map((category) => [
      category,
      String(timings[category]!.length),
      `${Math.min(...counts[category]!)}-${Math.max(...counts[category]!)}`,
      ms(percentile(timings[category]!, 50)),
      ms(percentile(timings[category]!, 99)),
      ms(Math.max(...timings[category]!)),
    ]);
    printTable(
      [
        ['queries', 'n', 'found', 'p50', 'p99', 'max'],
        ...rows,
        ['all', String(all.length), '', ms(percentile(all, 50)), ms(percentile(all, 99)), ms(Math.max(...all))],
      ],
      '    ',
    );
    const searchP50 = percentile(all, 50);
    console.log(`    target p50 <= ${ms(TARGET_SEARCH_P50_MS)}: ${verdict(searchP50 <= TARGET_SEARCH_P50_MS)}\n`);

    // (c) memory and (d) idle CPU, the full History next to the empty folder
    await sleep(1000);
    const fullMemory = await memoryMiB(daemon.pid);
    await search(empty.daemon, 'build passed');
    await sleep(1000);
    const emptyMemory = await memoryMiB(empty.daemon.pid);
    console.log(`(c) memory when idle (VmRSS, peak VmHWM)`);
    console.log(`    daemon, empty folder: ${memoryText(emptyMemory)}`);
    console.log(`    daemon, full History: ${memoryText(fullMemory)} (after the searches)`);
    console.log(`    full / empty = ${ratio(fullMemory.rss / emptyMemory.rss)}\n`);

    console.log(`(d) CPU used in ${IDLE_SECONDS} s with no requests (utime + stime, resolution ${CPU_TICK_MS} ms)`);
    const [fullIdle, emptyIdle] = await Promise.all([idleCpuMs(daemon.pid, IDLE_SECONDS), idleCpuMs(empty.daemon.pid, IDLE_SECONDS)]);
    console.log(`    daemon, empty folder: ${ms(emptyIdle)}`);
    console.log(`    daemon, full History: ${ms(fullIdle)}`);
  },
});

function memoryText({ rss, peak }: { rss: number; peak: number }): string {
  return `${rss.toFixed(1)} MiB (peak ${peak.toFixed(1)} MiB)`;
}
