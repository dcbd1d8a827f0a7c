// The daemon with a full History: 200 apps x 1000 records, generated straight into a temp support folder.
//   npm run bench:history [-- --apps 200 --records 1000 --queries 200]
// Measures cold start (spawn -> GET /v1/health 200), two-word search latency, idle memory and idle CPU, each
// next to a same-run baseline (`node -e 0`, the daemon on an empty support folder). The daemon runs pinned to
// CPU 0; this process (which generates the data and sends the searches) to CPU 1.

import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  CPU_TICK_MS,
  LOAD_CPU,
  cpuMs,
  describeMachine,
  int,
  makeTempFolder,
  median,
  memoryMiB,
  ms,
  nodeStartMs,
  option,
  percentile,
  pinSelf,
  printTable,
  ratio,
  request,
  runBenchmark,
  sleep,
  startDaemon,
  stopChild,
  verdict,
  type RunningDaemon,
} from './lib.js';

const APP_COUNT = Number(option('apps') ?? 200);
const RECORDS_PER_APP = Number(option('records') ?? 1000);
const QUERY_COUNT = Number(option('queries') ?? 200);
const COLD_STARTS = 3;
const IDLE_SECONDS = 5;
const TARGET_COLD_START_MS = 1500;
const TARGET_SEARCH_P50_MS = 20;
const DAY_MS = 24 * 60 * 60 * 1000;

// ---------------------------------------------------------------------------------------------------------------
// Data: titles from a subject and an outcome, bodies of 6-17 vocabulary words, some accented; about one record in
// a thousand carries one rare word (at most one per record, so two rare words never match together).

const SUBJECTS = [
  'Build',
  'Deploy',
  'Backup',
  'Release',
  'Test run',
  'Merge request',
  'Invoice',
  'Meeting',
  'Déploiement',
  'Réunion',
  'Café',
  'Sync',
  'Pipeline',
  'Report',
  'Alert',
  'Reminder',
  'Download',
  'Upload',
  'Certificate',
  'Migration',
];
const OUTCOMES = [
  'passed',
  'failed',
  'started',
  'finished',
  'cancelled',
  'scheduled',
  'réussi',
  'échoué',
  'queued',
  'delayed',
  'approved',
  'expired',
];
const WORDS = [
  'main',
  'staging',
  'production',
  'server',
  'cluster',
  'branch',
  'commit',
  'review',
  'team',
  'room',
  'tomorrow',
  'today',
  'invoice',
  'customer',
  'order',
  'payment',
  'disk',
  'memory',
  'network',
  'latency',
  'report',
  'weekly',
  'daily',
  'monthly',
  'café',
  'crème',
  'brûlée',
  'déploiement',
  'élève',
  'à',
  'côté',
  'naïve',
  'résumé',
  'über',
  'straße',
  'niño',
  'update',
  'version',
  'feature',
  'bug',
  'fix',
  'ticket',
  'calendar',
  'lunch',
  'coffee',
  'project',
  'deadline',
  'backup',
  'volume',
  'snapshot',
];
const RARE = ['kumquat', 'zeppelin', 'quasar', 'obsidian', 'marzipan', 'fjord', 'gazpacho', 'tundra', 'nebula', 'origami'];

/** Queries by category: two words each, several with accents or capitals (search folds both). */
const QUERIES: Record<string, string[]> = {
  many: [
    'build passed',
    'main staging',
    'café réunion',
    'cafe resume',
    'Déploiement réussi',
    'server memory',
    'weekly report',
    'CRÈME brulee',
  ],
  rare: [
    'kumquat staging',
    'zeppelin café',
    'quasar server',
    'obsidian report',
    'marzipan main',
    'fjord deploy',
    'nebula memory',
    'origami team',
  ],
  none: [
    'kumquat zeppelin',
    'xylophone walrus',
    'cafe xylophone',
    'quasar nebula',
    'build walrus',
    'tundra origami',
    'lorem ipsum',
    'fjord gazpacho',
  ],
};

/** mulberry32: the same History on every run. */
function randomGenerator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = randomGenerator(20261120);
const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)]!;

function message(): { title: string; body: string } {
  const title =
    random() < 0.5 ? `${pick(SUBJECTS)} ${1 + Math.floor(random() * 2000)} ${pick(OUTCOMES)}` : `${pick(SUBJECTS)} ${pick(OUTCOMES)}`;
  const words = Array.from({ length: 6 + Math.floor(random() * 12) }, () => pick(WORDS));
  if (random() < 0.001) words.splice(Math.floor(random() * words.length), 0, pick(RARE));
  if (random() < 0.3)
    words.push(
      '@',
      Math.floor(random() * 0xffffff)
        .toString(16)
        .padStart(6, '0'),
    );
  const body = words.join(' ');
  return { title, body: body[0]!.toUpperCase() + body.slice(1) };
}

function historyFile(app: string, now: number): string {
  const times = Array.from({ length: RECORDS_PER_APP }, () => now - 60_000 - Math.floor(random() * 30 * DAY_MS)).sort((a, b) => a - b);
  const records = times.map((time) => {
    const id = randomUUID().toUpperCase();
    const deliveredAt = new Date(time).toISOString();
    const { title, body } = message();
    return {
      id,
      app,
      notification: { app, id, title, body, template: 'builtin.imageLeft' },
      deliveredAt,
      fields: { title, body, app, id, appName: app, deliveredAt },
    };
  });
  return JSON.stringify({ app, records });
}

async function generate(supportDir: string): Promise<{ bytes: number; ms: number }> {
  const started = performance.now();
  const now = Date.now();
  const apps = Array.from({ length: APP_COUNT }, (_, index) => `app-${String(index).padStart(3, '0')}`);
  await mkdir(path.join(supportDir, 'history'), { recursive: true, mode: 0o700 });
  for (const app of apps) await writeFile(path.join(supportDir, 'history', `${app}.json`), historyFile(app, now), { mode: 0o600 });
  await writeFile(path.join(supportDir, 'apps.json'), JSON.stringify({ apps: apps.map((app) => ({ app })) }), { mode: 0o600 });
  spawnSync('sync'); // written back to disk now, not during the cold starts
  let bytes = 0;
  for (const name of await readdir(path.join(supportDir, 'history'))) bytes += (await stat(path.join(supportDir, 'history', name))).size;
  return { bytes, ms: performance.now() - started };
}

// ---------------------------------------------------------------------------------------------------------------
// Measurements

/**
 * Starts the daemon `times` times (SIGTERM and wait for exit in between); the last one is left running for the
 * later measurements (the empty-folder daemon idles on the server CPU while the full one starts: it uses no CPU).
 */
async function coldStarts(supportDir: string, times: number): Promise<{ samples: number[]; loaded: number[]; daemon: RunningDaemon }> {
  const samples: number[] = [];
  const loaded: number[] = [];
  for (let run = 1; ; run++) {
    const daemon = await startDaemon(supportDir);
    samples.push(daemon.readyMs);
    // History loads in the background after the daemon answers; a search of every app waits until it is all in.
    loaded.push(daemon.readyMs + (await search(daemon, 'startup probe')).ms);
    if (run === times) return { samples, loaded, daemon };
    await stopChild(daemon.child);
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

/** CPU ms the process uses over `seconds` with no requests. */
async function idleCpuMs(pid: number, seconds: number): Promise<number> {
  const before = await cpuMs(pid);
  await sleep(seconds * 1000);
  return (await cpuMs(pid)) - before;
}

const describe = (samples: number[]): string => `${samples.map(ms).join(', ')} (median ${ms(median(samples))})`;

await runBenchmark(async () => {
  pinSelf(LOAD_CPU);
  console.log('Notifier benchmark: History at scale');
  console.log(describeMachine());

  const fullDir = await makeTempFolder('notifier-bench-history-');
  const emptyDir = await makeTempFolder('notifier-bench-empty-');
  const generated = await generate(fullDir);
  console.log(
    `generated ${APP_COUNT} apps x ${RECORDS_PER_APP} records = ${int(APP_COUNT * RECORDS_PER_APP)} records, ` +
      `${(generated.bytes / 1024 / 1024).toFixed(1)} MiB of History files, in ${ms(generated.ms)}` +
      ' (the files are in the page cache: these are warm-cache cold starts)\n',
  );

  // (a) cold start, with its baselines
  console.log(`(a) cold start: spawn -> GET /v1/health 200, ${COLD_STARTS} runs each`);
  const nodeSamples: number[] = [];
  for (let run = 0; run < COLD_STARTS; run++) nodeSamples.push(await nodeStartMs());
  const empty = await coldStarts(emptyDir, COLD_STARTS);
  const full = await coldStarts(fullDir, COLD_STARTS);
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
  console.log(`(b) search: GET /v1/history/search?q=<two words>&limit=50, ${QUERY_COUNT} sequential requests`);
  const first = await search(daemon, QUERIES.none![0]!);
  console.log(`    first query once History is loaded ("${QUERIES.none![0]}", scans every record): ${ms(first.ms)}, ${first.count} found`);
  const categories = Object.keys(QUERIES);
  const timings: Record<string, number[]> = Object.fromEntries(categories.map((category) => [category, []]));
  const counts: Record<string, number[]> = Object.fromEntries(categories.map((category) => [category, []]));
  for (let index = 0; index < QUERY_COUNT; index++) {
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

  await Promise.all([stopChild(daemon.child), stopChild(empty.daemon.child)]);
});

function memoryText({ rss, peak }: { rss: number; peak: number }): string {
  return `${rss.toFixed(1)} MiB (peak ${peak.toFixed(1)} MiB)`;
}
