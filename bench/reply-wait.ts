// GET /v1/replies/wait: how fast a waiting request learns of a reply, and what 1,000 held waits cost the rest.
//   npm run bench:replies [-- --rounds 300 --waits 1000 --duration 8 --warmup 2 --connections 16 --pairs 3]
//
// (1) Reply stored -> waiting GET /v1/replies/wait answered (target: p50 under 5 ms). A reply comes only from the
//     person's side, which is reachable in-process only, so this part starts the daemon inside this process with
//     the test presenter and acts as the person. Client and daemon share this process, pinned to one CPU.
// (2) 1,000 concurrent replies/wait held while POST /v1/notify keeps at least 80 % of its unloaded throughput.
//     The daemon runs as its own process pinned to the server CPU (headless presenter), autocannon in its own
//     process on the load CPU, and the 1,000 waits are opened from this process, also on the load CPU. Notify is
//     measured unloaded, then with the waits held, then unloaded again, `--pairs` times over (U L U L U L U); each
//     loaded run is compared with the mean of the unloaded runs on either side, and the median of those ratios is
//     the result (--pairs 1 is the plain unloaded / loaded / unloaded sequence).

import { open, readdir, readFile, readlink, rename, unlink } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startDaemon as startDaemonInProcess, type Daemon } from '../daemon/daemon.js';
import { log } from '../daemon/log.js';
import { TestPresenter } from '../daemon/present/test-presenter.js';
import { defineBenchmark, type Run } from './lib.js';
import type { RunningDaemon } from './kit/daemon.js';
import { describeAnswers, failed, loadCells, runLoad, type LoadSpec, type Measured } from './kit/load.js';
import type { ReadOptions } from './kit/options.js';
import { int, median, ms, percentile, printTable, ratio, verdict } from './kit/print.js';
import { memoryMiB } from './kit/proc.js';
import { hasTaskset, LOAD_CPU, pinSelf, SERVER_CPU, sleep } from './kit/processes.js';

const WARMUP_ROUNDS = 30;
/** pairs: loaded runs in part 2, each between two unloaded runs (the disk of a shared machine drifts by 10-20 %). */
const OPTIONS = { rounds: 300, waits: 1000, duration: 8, warmup: 2, connections: 16, pairs: 3 };
type Replies = Run<ReadOptions<typeof OPTIONS>>;
const TARGET_P50_MS = 5;
const TARGET_RATIO = 0.8;
/** How long a wait must have been held (after the daemon registered it) before the reply is given. */
const HELD_MS = 2;
/** Without a view of the daemon's waiter list, a wait counts as held this long after its request was sent. */
const HELD_BLIND_MS = 5;
/** A reply queue read by polling every 200 ms, a common design: what an event-driven wait is compared with. */
const POLLING_INTERVAL_MS = 200;

// ---------------------------------------------------------------------------------------------------------------
// A small timed HTTP client (part 1): one keep-alive connection, requests one after another.

interface Timed {
  status: number;
  body: string;
  /** performance.now() when the whole body had arrived. */
  endedAt: number;
}

interface Pending {
  done: Promise<Timed>;
  /** performance.now() when the request had been handed to the socket, or null before. */
  sentAt: () => number | null;
  answered: () => boolean;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function send(port: number, token: string, method: string, target: string, body?: string): Pending {
  let sentAt: number | null = null;
  let answered = false;
  const done = new Promise<Timed>((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const req = http.request({ host: '127.0.0.1', port, method, path: target, headers, agent }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), endedAt: performance.now() }),
      );
      res.on('error', reject);
    });
    req.on('finish', () => (sentAt = performance.now()));
    req.on('error', reject);
    req.end(body);
  });
  return { done, sentAt: () => sentAt, answered: () => answered };
}

async function call(port: number, token: string, method: string, target: string, body?: string): Promise<Timed> {
  const answer = await send(port, token, method, target, body).done;
  if (answer.status < 200 || answer.status > 299) {
    throw new Error(`${method} ${target} answered ${answer.status}: ${answer.body}`);
  }
  return answer;
}

// ---------------------------------------------------------------------------------------------------------------
// Part 1: reply -> waiting request answered, in-process.

interface Samples {
  name: string;
  samples: number[];
}

/** The daemon's list of waiting requests, when this build lets us see it (it is private to the reply queue). */
function waiterList(daemon: Daemon): Map<string, unknown> | null {
  const waiters = (daemon.core.replies as unknown as { waiters?: unknown }).waiters;
  return waiters instanceof Map ? waiters : null;
}

/**
 * Resolves once the wait is surely held: its request is sent, it is not answered, and either the daemon's waiter
 * list holds its id (then HELD_MS more) or, without that view, HELD_BLIND_MS have passed since it was sent.
 */
async function held(wait: Pending, id: string, waiters: Map<string, unknown> | null): Promise<void> {
  const started = performance.now();
  let registeredAt: number | null = null;
  for (;;) {
    if (wait.answered()) throw new Error(`the wait for ${id} was answered before any reply`);
    const now = performance.now();
    const sentAt = wait.sentAt();
    if (sentAt !== null) {
      if (waiters === null) {
        if (now - sentAt >= HELD_BLIND_MS) return;
      } else if (waiters.has(id)) {
        registeredAt ??= now;
        if (now - registeredAt >= HELD_MS) return;
      }
    }
    if (now - started > 2_000) throw new Error(`the wait for ${id} was not held within 2 s`);
    await sleep(1);
  }
}

function checkReply(answer: Timed, id: string, text: string): void {
  const parsed = JSON.parse(answer.body) as { replied?: boolean; reply?: { notificationId?: string; app?: string; text?: string } };
  if (answer.status !== 200 || parsed.replied !== true || parsed.reply?.notificationId !== id || parsed.reply.text !== text) {
    throw new Error(`unexpected answer to the wait for ${id}: ${answer.status} ${answer.body}`);
  }
}

const question = (id: string, n: number): string =>
  JSON.stringify({ app: 'bench', id, title: `Question ${n}`, buttons: [{ label: 'Reply', reply: {} }] });

/** Waits until the person's reply is in the queue and on disk. */
async function replyStored(daemon: Daemon, id: string): Promise<void> {
  const started = performance.now();
  while (!daemon.core.replies.find(id, 'bench')) {
    if (performance.now() - started > 2_000) throw new Error(`the reply to ${id} was not stored within 2 s`);
    await sleep(1);
  }
  await daemon.core.store.settle();
}

/** Durable write of a small file as the store does it (temp file, fsync, rename, fsync folder); then its removal. */
async function diskFloor(folder: string, rounds: number): Promise<{ write: number[]; remove: number[] }> {
  const write: number[] = [];
  const remove: number[] = [];
  const target = path.join(folder, 'bench.json');
  const content = JSON.stringify({
    app: 'bench',
    replies: [{ notificationId: 'q1', app: 'bench', title: 'Question 1', text: 'answer 1', repliedAt: new Date().toISOString() }],
  });
  const syncFolder = async (): Promise<void> => {
    const handle = await open(folder, 'r');
    await handle.sync();
    await handle.close();
  };
  for (let n = 0; n < WARMUP_ROUNDS + rounds; n++) {
    let started = performance.now();
    const temp = `${target}.${n}.tmp`;
    const handle = await open(temp, 'w', 0o600);
    await handle.writeFile(content);
    await handle.sync();
    await handle.close();
    await rename(temp, target);
    await syncFolder();
    if (n >= WARMUP_ROUNDS) write.push(performance.now() - started);
    started = performance.now();
    await unlink(target);
    await syncFolder();
    if (n >= WARMUP_ROUNDS) remove.push(performance.now() - started);
  }
  return { write, remove };
}

async function partOne({ options: { rounds }, tempFolder }: Replies): Promise<{ target: Samples; health: Samples }> {
  log.setQuiet(true);
  const supportDir = await tempFolder('notifier-bench-replies-');
  const person = new TestPresenter();
  const daemon = await startDaemonInProcess({ supportDir, port: 0, presenter: person });
  try {
    await daemon.core.history.ready;
    const { port, token } = daemon;
    const waiters = waiterList(daemon);
    let sequence = 0;

    /** A reply given while the wait is held; the time from the reply to the whole answer. */
    const waitingRound = async (consume: boolean): Promise<number> => {
      const n = ++sequence;
      const id = `q${n}`;
      const text = `answer ${n}`;
      await call(port, token, 'POST', '/v1/notify', question(id, n));
      const wait = send(port, token, 'GET', `/v1/replies/wait?id=${id}&timeout=30${consume ? '' : '&consume=false'}`);
      await held(wait, id, waiters);
      const t0 = performance.now();
      person.reply('bench', id, 'reply', text);
      const answer = await wait.done;
      const elapsed = answer.endedAt - t0;
      checkReply(answer, id, text);
      if (!consume) await call(port, token, 'GET', '/v1/replies?app=bench&consume=true'); // untimed: empty the queue again
      return elapsed;
    };

    /** A reply given (and on disk) before the wait is asked for: answered at once. */
    const existingRound = async (consume: boolean): Promise<number> => {
      const n = ++sequence;
      const id = `q${n}`;
      const text = `answer ${n}`;
      await call(port, token, 'POST', '/v1/notify', question(id, n));
      person.reply('bench', id, 'reply', text);
      await replyStored(daemon, id);
      const t0 = performance.now();
      const answer = await send(port, token, 'GET', `/v1/replies/wait?id=${id}&timeout=30${consume ? '' : '&consume=false'}`).done;
      const elapsed = answer.endedAt - t0;
      checkReply(answer, id, text);
      if (!consume) await call(port, token, 'GET', '/v1/replies?app=bench&consume=true');
      return elapsed;
    };

    const healthRound = async (): Promise<number> => {
      const t0 = performance.now();
      const answer = await call(port, token, 'GET', '/v1/health');
      return answer.endedAt - t0;
    };

    const measure = async (name: string, round: () => Promise<number>): Promise<Samples> => {
      const samples: number[] = [];
      for (let n = 0; n < WARMUP_ROUNDS + rounds; n++) {
        const elapsed = await round();
        if (n >= WARMUP_ROUNDS) samples.push(elapsed);
      }
      return { name, samples };
    };

    console.log(
      waiters
        ? `    a wait counts as held once the daemon's waiter list has its id, plus ${HELD_MS} ms, with no answer yet`
        : `    (the daemon's waiter list is not visible: a wait counts as held ${HELD_BLIND_MS} ms after it was sent, with no answer yet)`,
    );
    const health = await measure('GET /v1/health round trip (baseline)', healthRound);
    const existing = await measure('reply already there -> wait answered (baseline)', () => existingRound(true));
    const existingKept = await measure('  same, consume=false (no disk write)', () => existingRound(false));
    const target = await measure('reply -> waiting request answered (target)', () => waitingRound(true));
    const targetKept = await measure('  same, consume=false (one durable batch)', () => waitingRound(false));
    const floor = await diskFloor(await tempFolder('notifier-bench-disk-'), rounds);
    const write: Samples = { name: 'disk: small file written durably (temp, fsync, rename, fsync folder)', samples: floor.write };
    const remove: Samples = { name: 'disk: file removed durably (unlink, fsync folder)', samples: floor.remove };

    const healthP50 = percentile(health.samples, 50);
    const rows = [['measurement', 'n', 'p50', 'p90', 'p99', 'max', 'p50 vs health']];
    for (const { name, samples } of [health, existing, existingKept, target, targetKept, write, remove]) {
      rows.push([
        name,
        String(samples.length),
        ms(percentile(samples, 50)),
        ms(percentile(samples, 90)),
        ms(percentile(samples, 99)),
        ms(Math.max(...samples)),
        ratio(percentile(samples, 50) / healthP50),
      ]);
    }
    console.log('');
    printTable(rows, '    ');
    console.log(
      '    Every answer was checked: {"replied":true,...} with this round\'s id and text. The reply is written durably\n' +
        '    (History journal + replies file, fsync, rename, fsync folder) before waiters are answered, and the default\n' +
        '    consume=true then removes it from the queue durably (unlink, fsync folder) before the answer is sent: the\n' +
        '    target time includes both disk writes. Client and daemon share this process (one CPU).',
    );
    return { target, health };
  } finally {
    agent.destroy();
    await daemon.stop();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Part 2: 1,000 held waits against notify throughput, the daemon in its own process.

const APPS = ['bench-ci', 'bench-mail', 'bench-calendar', 'bench-backup'];
const NOTIFY_BODIES = APPS.flatMap((app, a) =>
  [0, 1].map((k) =>
    JSON.stringify({ app, title: `${app.slice(6)} event ${a * 2 + k}`, body: `Something happened in ${app.slice(6)}: item ${k}, café ok` }),
  ),
);

function notifySpec(daemon: RunningDaemon, { connections, warmup, duration }: ReadOptions<typeof OPTIONS>): LoadSpec {
  return {
    url: `${daemon.baseUrl}/v1/notify`,
    connections,
    warmupSeconds: warmup,
    durationSeconds: duration,
    headers: { ...daemon.auth, 'content-type': 'application/json' },
    requests: NOTIFY_BODIES.map((body) => ({ method: 'POST', path: '/v1/notify', body })),
  };
}

interface HeldWait {
  sent: boolean;
  answered: boolean;
  failed: string | null;
  req: http.ClientRequest;
}

function openWait(daemon: RunningDaemon, k: number): HeldWait {
  const req = http.request(`${daemon.baseUrl}/v1/replies/wait?id=never-${k}&timeout=300`, {
    headers: daemon.auth,
    agent: false, // each on its own connection
  });
  const wait: HeldWait = { sent: false, answered: false, failed: null, req };
  req.on('finish', () => (wait.sent = true));
  req.on('response', (res) => {
    wait.answered = true;
    res.resume();
  });
  req.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET' || !req.destroyed) wait.failed ??= error.message;
  });
  req.end();
  return wait;
}

/** The daemon's TCP connections on its port (IPv4): how many, and how many have unread bytes waiting. */
async function serverConnections(port: number): Promise<{ established: number; unread: number }> {
  const table = await readFile('/proc/net/tcp', 'utf8');
  let established = 0;
  let unread = 0;
  for (const line of table.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 5) continue;
    const localPort = parseInt(fields[1]!.split(':')[1]!, 16);
    if (localPort !== port || fields[3] !== '01') continue;
    established++;
    if (parseInt(fields[4]!.split(':')[1]!, 16) > 0) unread++;
  }
  return { established, unread };
}

async function socketCount(pid: number): Promise<number> {
  const fds = await readdir(`/proc/${pid}/fd`);
  const links = await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')));
  return links.filter((link) => link.startsWith('socket:')).length;
}

async function openFileLimit(pid: number | 'self'): Promise<number> {
  const limits = await readFile(`/proc/${pid}/limits`, 'utf8');
  const soft = /^Max open files\s+(\S+)/m.exec(limits)?.[1];
  return soft === 'unlimited' ? Infinity : Number(soft);
}

function loadRow(name: string, result: Measured, baseline: Measured, rss: number): string[] {
  return [
    name,
    ...loadCells(result),
    `${Math.round(result.serverCpuPercent ?? NaN)}%`,
    `${rss.toFixed(1)} MiB`,
    ratio(result.requestsPerSecond / baseline.requestsPerSecond),
  ];
}

const heldCount = (waits: HeldWait[]): number => waits.filter((wait) => wait.sent && !wait.answered && !wait.failed).length;

/**
 * Opens the waits (100 at a time) and returns once they are held: the daemon has read every request (no unread
 * bytes on its side of the connections) and answered none.
 */
async function openWaits(daemon: RunningDaemon, port: number, into: HeldWait[], count: number): Promise<boolean> {
  const opening = performance.now();
  for (let k = 0; k < count; k += 100) {
    const batch = Array.from({ length: Math.min(100, count - k) }, (_, i) => openWait(daemon, k + i));
    into.push(...batch);
    while (batch.some((wait) => !wait.sent && !wait.failed && !wait.answered)) {
      if (performance.now() - opening > 30_000) throw new Error('the waits could not all be sent within 30 s');
      await sleep(2);
    }
  }
  let connections = await serverConnections(port);
  for (let tries = 0; tries < 500 && (connections.established < count || connections.unread > 0); tries++) {
    await sleep(10);
    connections = await serverConnections(port);
  }
  const openedMs = performance.now() - opening;
  await sleep(500); // settle, then look again
  connections = await serverConnections(port);
  const sockets = await socketCount(daemon.pid);
  const held = heldCount(into);
  console.log(
    `      ${int(held)} of ${int(count)} sent and unanswered (all open after ${int(openedMs)} ms); daemon side: ` +
      `${int(connections.established)} established connections on its port, ${connections.unread} with unread bytes, ` +
      `${int(sockets)} sockets open`,
  );
  return held === count && connections.established >= count && connections.unread === 0;
}

async function closeWaits(waits: HeldWait[], port: number): Promise<void> {
  for (const wait of waits.splice(0)) wait.req.destroy();
  for (let tries = 0; tries < 500 && (await serverConnections(port)).established > 0; tries++) await sleep(10);
  await sleep(200);
}

const rssOf = async (daemon: RunningDaemon): Promise<number> => (await memoryMiB(daemon.pid)).rss;
const mib = (value: number): string => `${value.toFixed(1)} MiB`;

interface PartTwo {
  /** Unloaded runs: one before the first loaded run and one after each. */
  unloaded: Measured[];
  loaded: Measured[];
  /** Each loaded run against the mean of the unloaded runs just before and just after it. */
  ratios: number[];
  held: boolean;
  sane: boolean;
}

async function partTwo({ options, startDaemon }: Replies): Promise<PartTwo> {
  const { waits: waitCount, pairs } = options;
  const ownLimit = await openFileLimit('self');
  const daemon = await startDaemon();
  const port = Number(new URL(daemon.baseUrl).port);
  const daemonLimit = await openFileLimit(daemon.pid);
  const limitOk = ownLimit >= waitCount + 100 && daemonLimit >= waitCount + 100;
  console.log(
    `    open-file limit (soft): this process ${ownLimit}, daemon ${daemonLimit}: ` +
      (limitOk ? `enough for ${int(waitCount)} waits` : `TOO LOW for ${int(waitCount)} waits (raise it with ulimit -n)`),
  );
  const waits: HeldWait[] = [];
  try {
    // Memory first, on the idle daemon: after a notify run its heap holds garbage of varying size, which hides
    // what the waits themselves cost.
    await sleep(500);
    const rssIdle = await rssOf(daemon);
    console.log(`    memory, idle daemon: ${int(waitCount)} waits opened and closed again ...`);
    await openWaits(daemon, port, waits, waitCount);
    const rssIdleWaits = await rssOf(daemon);
    await closeWaits(waits, port);
    const rssIdleClosed = await rssOf(daemon);

    const runs: { name: string; result: Measured; rss: number }[] = [];
    const unloaded: Measured[] = [];
    const loaded: Measured[] = [];
    let held = true;
    const measureNotify = async (name: string): Promise<Measured> => {
      console.log(
        `    ${name}: POST /v1/notify, ${options.connections} connections, ${options.warmup} s warm-up + ${options.duration} s ...`,
      );
      const result = await runLoad(notifySpec(daemon, options), daemon.pid);
      console.log(`      ${describeAnswers(result)}`);
      runs.push({ name, result, rss: await rssOf(daemon) });
      return result;
    };

    unloaded.push(await measureNotify('unloaded 1'));
    let rssBeforeWaits = 0;
    let rssWithWaits = 0;
    for (let pair = 1; pair <= pairs; pair++) {
      console.log(`    opening ${int(waitCount)} GET /v1/replies/wait?id=never-<k>&timeout=300, each on its own connection ...`);
      if (pair === 1) rssBeforeWaits = await rssOf(daemon);
      const heldBefore = await openWaits(daemon, port, waits, waitCount);
      if (pair === 1) rssWithWaits = await rssOf(daemon);
      loaded.push(await measureNotify(`loaded ${pair} (${int(waitCount)} waits held)`));
      const connectionsAfter = await serverConnections(port);
      const heldAfter = heldCount(waits);
      const failures = waits.filter((wait) => wait.failed).map((wait) => wait.failed);
      held &&= heldBefore && heldAfter === waitCount && connectionsAfter.established >= waitCount;
      console.log(
        `      after it: ${int(heldAfter)} of ${int(waitCount)} waits still held, ${waits.filter((w) => w.answered).length} answered, ` +
          `${failures.length} failed${failures.length ? ` (${[...new Set(failures)].join('; ')})` : ''}; ` +
          `${int(connectionsAfter.established)} connections on the daemon's port`,
      );
      await closeWaits(waits, port);
      console.log(`      waits closed (${(await serverConnections(port)).established} connections left)`);
      unloaded.push(await measureNotify(`unloaded ${pair + 1}`));
    }
    const ratios = loaded.map(
      (result, i) => result.requestsPerSecond / ((unloaded[i]!.requestsPerSecond + unloaded[i + 1]!.requestsPerSecond) / 2),
    );
    const sane = [...unloaded, ...loaded].every((result) => failed(result) === 0);

    console.log('');
    printTable(
      [
        ['POST /v1/notify, in order', 'req/s', 'p50', 'p99', 'max', 'server CPU', 'RSS after', 'vs unloaded 1'],
        ...runs.map(({ name, result, rss }) => loadRow(name, result, unloaded[0]!, rss)),
      ],
      '    ',
    );
    console.log('    (latencies have 1 ms resolution; server CPU: share of one core during warm-up + measurement;');
    console.log("     RSS after: the daemon's VmRSS right after the run, mostly heap left by the notify load)");
    console.log(
      `    each loaded run / mean of the unloaded runs around it: ${ratios.map((value) => value.toFixed(2)).join(', ')}; ` +
        `median ${median(ratios).toFixed(2)}`,
    );
    console.log('');
    printTable(
      [
        ['daemon VmRSS', 'no waits', `${int(waitCount)} waits held`, 'waits closed', 'per wait'],
        [
          'idle daemon',
          mib(rssIdle),
          mib(rssIdleWaits),
          mib(rssIdleClosed),
          `${(((rssIdleWaits - rssIdle) * 1024) / waitCount).toFixed(1)} KiB`,
        ],
        ['after unloaded 1', mib(rssBeforeWaits), mib(rssWithWaits), '', '(heap garbage of the run dominates)'],
      ],
      '    ',
    );
    console.log(
      `    all notify answers 2xx: ${sane ? 'yes' : 'NO'}; all ${int(waitCount)} waits held throughout every loaded run: ${held ? 'yes' : 'NO'}`,
    );
    return { unloaded, loaded, ratios, held, sane };
  } finally {
    for (const wait of waits) wait.req.destroy();
    await daemon.stop();
  }
}

// ---------------------------------------------------------------------------------------------------------------

await defineBenchmark({
  title: 'Notifier benchmark: GET /v1/replies/wait',
  options: OPTIONS,
  pin: 'server',
  async measure(bench) {
    const { rounds, waits } = bench.options;
    if (!hasTaskset) console.log('(without taskset nothing is pinned; the figures are noisier)');
    console.log(
      `\n1/2 reply -> waiting request answered: daemon in this process (test presenter), this process on CPU ${SERVER_CPU}, ` +
        `${rounds} rounds per row after ${WARMUP_ROUNDS} unmeasured`,
    );
    const { target, health } = await partOne(bench);

    pinSelf(LOAD_CPU);
    console.log(
      `\n2/2 ${int(waits)} held waits against POST /v1/notify: daemon on CPU ${SERVER_CPU} (headless), autocannon and ` +
        `the waits on CPU ${LOAD_CPU}`,
    );
    const two = await partTwo(bench);

    const p50 = percentile(target.samples, 50);
    const achieved = median(two.ratios);
    const mean = (results: Measured[]): number => results.reduce((sum, r) => sum + r.requestsPerSecond, 0) / results.length;
    console.log('\nTargets');
    console.log(
      `  reply -> waiting GET /v1/replies/wait answered: p50 ${ms(p50)}, p90 ${ms(percentile(target.samples, 90))}, ` +
        `p99 ${ms(percentile(target.samples, 99))} (target p50 < ${TARGET_P50_MS} ms): ${verdict(p50 < TARGET_P50_MS)}; ` +
        `${ratio(p50 / percentile(health.samples, 50))} a health round trip`,
    );
    console.log(
      `  notify with ${int(waits)} waits held / unloaded = ${achieved.toFixed(2)} (median of ${two.ratios.length}: ` +
        `${two.ratios.map((value) => value.toFixed(2)).join(', ')}; mean ${int(mean(two.loaded))} against ${int(mean(two.unloaded))} req/s; ` +
        `target >= ${TARGET_RATIO}): ${verdict(achieved >= TARGET_RATIO && two.held && two.sane)}` +
        (two.held && two.sane ? '' : ' (waits not all held or notify answers not all 2xx)'),
    );
    console.log(
      `  remark, not measured: a queue polled every ${POLLING_INTERVAL_MS} ms would answer a waiting ` +
        `request ~${POLLING_INTERVAL_MS / 2} ms after the reply on average (0-${POLLING_INTERVAL_MS} ms) plus the write.`,
    );
  },
});
