// Does the daemon's memory stay flat under a long stream of notifications? (docs/performance.md, bench:memory)
//   npm run bench:memory [-- --duration 180 --interval 15 --connections 16 --cap 50 --display freedesktop|headless]
// The daemon runs in this process (a display like dunst's that draws nothing, or headless; persistence on) so its
// live heap can be read after a full garbage collection (node --expose-gc). Notifications come from several apps,
// some with reused ids, groups, buttons, short lifetimes and follow-ups; History is capped small so History itself
// does not grow. The live heap after GC is printed at intervals, as a ratio to the first sample after the warm-up:
// flat means the daemon keeps nothing per notification once its record has left History.

import http from 'node:http';
import { startDaemon } from '../daemon/daemon.js';
import { log } from '../daemon/log.js';
import type { Banner, BannerKey, OpenTarget, Presenter, Question } from '../daemon/present/presenter.js';
import { defineBenchmark } from './lib.js';
import { int, printTable, ratio } from './kit/print.js';
import { sleep } from './kit/processes.js';

/** The target: the live heap at the end at most this much above the first sample. */
const TARGET_GROWTH = 1.1;

const APPS = ['soak-ci', 'soak-mail', 'soak-calendar', 'soak-backup', 'soak-chat', 'soak-deploy'];
const GROUPS = ['builds', 'alerts', undefined];
/** Ids reused within this pool replace their banner in place; the rest are fresh every time. */
const REUSED_IDS = 100;

const gc = (globalThis as { gc?: () => void }).gc;

/**
 * A display like a freedesktop server (dunst): it draws no stacks and times banners itself, so the core collapses
 * stacks and times the banners it does not draw. It draws nothing and keeps nothing, so what grows is the daemon's.
 */
class FreedesktopLikeDisplay implements Presenter {
  readonly name = 'freedesktop-like';
  readonly handlesExpiry = true;
  readonly drawsStacks = false;
  async start(): Promise<void> {}
  async show(_banner: Banner): Promise<void> {}
  async replace(_banner: Banner): Promise<void> {}
  async close(_key: BannerKey): Promise<void> {}
  async open(_target: OpenTarget): Promise<void> {}
  ask(_question: Question): void {}
  withdraw(_questionId: string): void {}
  async stop(): Promise<void> {}
}

/** The n-th notification: a mix of what senders post. */
function notification(n: number): Record<string, unknown> {
  const app = APPS[n % APPS.length]!;
  const group = GROUPS[n % GROUPS.length];
  const body: Record<string, unknown> = {
    app,
    title: `Message ${n}`,
    body: `**Build ${n}** finished. [Open](https://ci.example/${n}) — see the log for details.`,
    ...(n % 2 === 0 ? { id: `reused-${n % REUSED_IDS}` } : {}),
    ...(group ? { group } : {}),
  };
  if (n % 5 === 0) body.buttons = [{ label: 'Open', url: `https://ci.example/${n}` }, { label: 'Later' }];
  if (n % 7 === 0) body.timeout = 2;
  if (n % 11 === 0) body.followUp = { after: 60, action: { label: 'Ping', kind: 'callback', callback: { url: 'http://127.0.0.1:9/' } } };
  return body;
}

function liveHeapMiB(): number {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

await defineBenchmark({
  title: "Notifier benchmark: the daemon's live heap over a long stream of notifications",
  // display: `freedesktop`, a display like dunst's, drawing nothing; or `headless`, the headless presenter. cap: the
  // run's historyCapPerApp, small, so what stays in memory is not History's own records.
  options: { duration: 180, interval: 15, warmup: 10, display: 'freedesktop', connections: 16, cap: 50 },
  pin: false,
  async measure({ options: { duration, interval, warmup, display, connections, cap }, tempFolder, atEnd }) {
    if (!gc) throw new Error('run with node --expose-gc (npm run bench:memory does)');
    log.setQuiet(true);
    const supportDir = await tempFolder('notifier-soak-');
    const presenter = display === 'headless' ? 'headless' : new FreedesktopLikeDisplay();
    const daemon = await startDaemon({ supportDir, port: 0, presenter, speech: null });
    atEnd(() => daemon.stop());
    const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
    atEnd(() => agent.destroy());
    const post = (method: string, path: string, body: unknown): Promise<number> =>
      new Promise((resolve, reject) => {
        const request = http.request(
          `http://127.0.0.1:${daemon.port}${path}`,
          { method, agent, headers: { authorization: `Bearer ${daemon.token}`, 'content-type': 'application/json' } },
          (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode ?? 0));
          },
        );
        request.on('error', reject);
        request.end(JSON.stringify(body));
      });
    console.log(
      `${duration} s of POST /v1/notify over ${connections} connections, ${display} display, historyCapPerApp ${cap}, ` +
        `${APPS.length} apps; live heap after a full GC every ${interval} s (baseline: the sample after ${warmup} s of warm-up)`,
    );
    if ((await post('PUT', '/v1/settings', { historyCapPerApp: cap })) !== 200) throw new Error('could not set historyCapPerApp');

    let sent = 0;
    let failed = 0;
    let running = true;
    const sender = async (): Promise<void> => {
      while (running) {
        const status = await post('POST', '/v1/notify', notification(sent++));
        if (status !== 200) failed++;
      }
    };
    const senders = Array.from({ length: connections }, sender);
    const started = performance.now();
    const rows = [['after', 'notifications', 'per second', 'on screen', 'History', 'live heap', 'vs baseline']];
    let baseline = NaN;
    let last = { at: started, sent: 0 };
    const sample = (label: string): number => {
      const now = performance.now();
      const heap = liveHeapMiB();
      const { records } = daemon.core.history.size();
      const rate = ((sent - last.sent) * 1000) / (now - last.at);
      last = { at: now, sent };
      rows.push([
        label,
        int(sent),
        int(rate),
        int(daemon.core.banners.list().length),
        int(records),
        `${heap.toFixed(1)} MiB`,
        Number.isNaN(baseline) ? '' : ratio(heap / baseline),
      ]);
      console.log(rows.at(-1)!.join('  '));
      return heap;
    };
    await sleep(warmup * 1000);
    baseline = sample(`${warmup} s (baseline)`);
    rows[rows.length - 1]![6] = ratio(1);
    let end = baseline;
    for (let at = warmup + interval; at <= duration; at += interval) {
      await sleep(started + at * 1000 - performance.now());
      end = sample(`${at} s`);
    }
    running = false;
    await Promise.all(senders);
    console.log();
    printTable(rows, '  ');
    console.log();
    console.log(`${int(sent)} notifications (${int(failed)} not answered 200) in ${Math.round((performance.now() - started) / 1000)} s`);
    const growth = end / baseline;
    console.log(
      `live heap at the end ${ratio(growth)} the baseline; target at most ${ratio(TARGET_GROWTH)}: ${growth <= TARGET_GROWTH ? 'met' : 'MISSED'}`,
    );
  },
});
