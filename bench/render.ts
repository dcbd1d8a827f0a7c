// Rendering a banner card to PNG, and what previews cost the rest of the daemon.
//   npm run bench:render [-- --renders 300 --notifies 300 --previews 20]
//
// (1) `builtin.imageLeft` with a picture, two buttons and a wrapped body, drawn at scale 2 by the renderer in this
//     process (target: p50 under 15 ms). Baseline, same run: node-canvas's own PNG encoder writing an empty canvas
//     of the same pixel size — the floor of "a PNG of this size from node-canvas".
// (2) POST /v1/notify latency (one request at a time) with the daemon idle, then while 20 clients keep
//     POST /v1/preview busy (each sends the next preview as soon as the last one is answered). The daemon runs as
//     its own process pinned to the server CPU; the clients run here, on the load CPU.

import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createCanvas } from 'canvas';
import { drawCard } from '../daemon/core/templates/previews.js';
import { builtinTemplate } from '../templates-renderer/builtins.js';
import { defineBenchmark } from './lib.js';
import type { RunningDaemon } from './kit/daemon.js';
import { median, ms, percentile, printTable, ratio, verdict } from './kit/print.js';
import { ROOT, sleep } from './kit/processes.js';

const WARMUP = 30;
const TARGET_RENDER_P50_MS = 15;
const PICTURE = path.join(ROOT, 'fixtures', 'images', 'sample.png');

/** Four different cards, drawn in turn (so the word-width cache sees more than one text). */
const CARDS = [
  {
    title: 'Build 1742 passed',
    subtitle: 'api · main',
    body: 'main @ 3f2a1c · 412 tests in 3m 12s. [Open the run](https://ci.example/1742)',
  },
  {
    title: 'Marie Dubois',
    subtitle: 'Re: déploiement de vendredi',
    body: 'Tout est prêt de notre côté, on se voit au café avant la mise en production ?',
  },
  {
    title: 'Weekly sync in 10 minutes',
    subtitle: 'Room 4.02',
    body: 'Agenda: release notes, on-call rotation, Q4 planning and the new office plan.',
  },
  { title: 'Backup finished', subtitle: 'nas-01', body: 'Home folder: 18,204 files, 2.3 GB copied in 4m 51s. Next run tonight at 02:00.' },
].map((card, index) => ({
  app: 'bench',
  id: `card-${index}`,
  ...card,
  image: PICTURE,
  buttons: [
    { label: 'Open', url: 'https://example.com' },
    { label: 'Snooze 1 h', callback: {} },
  ],
}));

// ---------------------------------------------------------------------------------------------------------------
// (1) In-process render

async function renderPart(renders: number): Promise<{ p50: number; p99: number; baseline: number; pixels: string }> {
  const template = builtinTemplate('builtin.imageLeft', 'bench')!;
  const draw = (index: number) =>
    drawCard(
      template,
      { notification: CARDS[index % CARDS.length]!, deliveredAt: new Date().toISOString(), appName: 'Bench' },
      {
        appearance: 'light',
        scale: 2,
        stackCount: 1,
        stackExpanded: false,
        replying: false,
      },
    );
  const first = await draw(0);
  for (let i = 0; i < WARMUP; i++) await draw(i);
  const times: number[] = [];
  for (let i = 0; i < renders; i++) {
    const started = performance.now();
    await draw(i);
    times.push(performance.now() - started);
  }
  const canvas = createCanvas(Math.ceil(first.width * 2), Math.ceil(first.height * 2));
  const baselineTimes: number[] = [];
  for (let i = 0; i < WARMUP + renders; i++) {
    const started = performance.now();
    await new Promise<Buffer>((resolve, reject) => canvas.toBuffer((error, png) => (error ? reject(error) : resolve(png)), 'image/png'));
    if (i >= WARMUP) baselineTimes.push(performance.now() - started);
  }
  return { p50: median(times), p99: percentile(times, 99), baseline: median(baselineTimes), pixels: `${canvas.width} x ${canvas.height}` };
}

// ---------------------------------------------------------------------------------------------------------------
// (2) Notify latency while previews render

function post(baseUrl: string, route: string, body: unknown, headers: Record<string, string>, agent: http.Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = http.request(
      `${baseUrl}${route}`,
      { method: 'POST', agent, headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function notifyLatencies(baseUrl: string, auth: Record<string, string>, agent: http.Agent, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count + WARMUP; i++) {
    const started = performance.now();
    const status = await post(
      baseUrl,
      '/v1/notify',
      { app: 'bench-notify', title: `Notification ${i}`, body: 'While previews render' },
      auth,
      agent,
    );
    if (status !== 200) throw new Error(`notify answered ${status}`);
    if (i >= WARMUP) times.push(performance.now() - started);
  }
  return times;
}

async function loadPart(daemon: RunningDaemon, notifies: number, previewClients: number) {
  const notifyAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const idle = await notifyLatencies(daemon.baseUrl, daemon.auth, notifyAgent, notifies);

  let running = true;
  let previews = 0;
  const previewTimes: number[] = [];
  const clients = Array.from({ length: previewClients }, async (_, client) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; running; i++) {
      const started = performance.now();
      const body = { app: 'bench', template: 'builtin.imageLeft', scale: 2, data: CARDS[(client + i) % CARDS.length] };
      const status = await post(daemon.baseUrl, '/v1/preview', body, daemon.auth, agent);
      if (status !== 200) throw new Error(`preview answered ${status}`);
      previewTimes.push(performance.now() - started);
      previews++;
    }
  });
  await sleep(1000); // every client has a preview in flight
  const countedFrom = previews;
  const loadedStarted = performance.now();
  const loaded = await notifyLatencies(daemon.baseUrl, daemon.auth, notifyAgent, notifies);
  const previewsPerSecond = ((previews - countedFrom) * 1000) / (performance.now() - loadedStarted);
  running = false;
  await Promise.all(clients);
  return { idle, loaded, previewsPerSecond, previewP50: median(previewTimes) };
}

await defineBenchmark({
  title: 'Notifier benchmark: drawing a card to PNG, and notify while previews render',
  options: { renders: 300, notifies: 300, previews: 20 },
  needs: { daemon: true },
  async measure({ options: { renders, notifies, previews }, daemon }) {
    const render = await renderPart(renders);
    console.log(`\n(1) builtin.imageLeft with a picture at scale 2 (${render.pixels} pixels), ${renders} renders after ${WARMUP} warm-up`);
    printTable(
      [
        ['what', 'p50', 'p99', 'vs baseline'],
        ['node-canvas PNG of an empty canvas (baseline)', ms(render.baseline), '', '1.00x'],
        ['render card to PNG', ms(render.p50), ms(render.p99), ratio(render.p50 / render.baseline)],
      ],
      '  ',
    );
    console.log(`  target: p50 under ${TARGET_RENDER_P50_MS} ms -> ${verdict(render.p50 < TARGET_RENDER_P50_MS)}`);

    const load = await loadPart(daemon, notifies, previews);
    console.log(`\n(2) POST /v1/notify one at a time, ${notifies} requests, idle and while ${previews} clients keep previews busy`);
    printTable(
      [
        ['daemon', 'notify p50', 'notify p99', 'p50 vs idle'],
        ['idle (baseline)', ms(median(load.idle)), ms(percentile(load.idle, 99)), '1.00x'],
        [
          `${previews} previews in flight`,
          ms(median(load.loaded)),
          ms(percentile(load.loaded, 99)),
          ratio(median(load.loaded) / median(load.idle)),
        ],
      ],
      '  ',
    );
    console.log(`  previews meanwhile: ${load.previewsPerSecond.toFixed(0)} per second, each answered in ${ms(load.previewP50)} (p50)`);
  },
});
