// Notify throughput of the relay against a bare Express 5 hello-world measured in the same run.
//   npm run bench:relay-throughput [-- --duration 10 --warmup 2 --connections 16 --cpu-prof <folder>
//                                     --backend embedded|postgres --scenarios 1x1,1x16,2x16 --relay <main.js>
//                                     --cold --in-step --floor]
// A scenario is <nodes>x<computers>: that many relay nodes on one database, that many paired computers (each
// with one agent key and its socket on one node, spread evenly), the load split evenly across the nodes and,
// on each node, spread over its computers' keys: each request goes to the next computer in turn, whichever
// connection sends it, as independent agents would (--in-step: each connection walks the computers from the
// first, so all of them send to one computer at a time, in bursts). The embedded database runs 1x1 (target: at least 0.3 of the
// hello-world); PostgreSQL, a private server, runs 1x1, 1x16 and 2x16 by default (targets: 0.15, 0.25, and
// two nodes at least 1.5 times one node where the database has room: docs/performance.md).
// The relay is durable (each answer waits until its transaction is committed) and does all its work: the
// agent's key checked, the request counted against the budget, the per-key rate, the daily cap and the queue
// checked, the note stored and pushed to the computer, whose socket (in this process) acknowledges each one, as
// the desktop does — one more transaction per notification. Limits are raised so none refuses. One relay node
// and the baseline run pinned to CPU 0, the load generators (their own processes) and the computers' sockets on
// CPU 1; a second node runs on CPU 1 (a second machine would have its own); PostgreSQL unpinned. Server CPU is
// each relay node's share of one core, and PostgreSQL's (all its processes together) beside it; machine CPU is
// every process's together, to show whether anything was left. --cold: PostgreSQL's autovacuum at its default
// (see OPTIONS below). --floor (PostgreSQL): also the least a relay could do, under the same load.

import { cpus } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type WebSocket from 'ws';
import { serverCpuMs, type PostgresServer } from '../rigs/postgres.js';
import { defineBenchmark, type Run } from './lib.js';
import { failed, runLoad, withServer, type LoadResult, type LoadSpec } from './kit/load.js';
import type { ReadOptions } from './kit/options.js';
import { int, ms, printTable, ratio, verdict } from './kit/print.js';
import { cpuMs, machineBusyMs } from './kit/proc.js';
import { LOAD_CPU, SERVER_CPU } from './kit/processes.js';
import { NOTIFY_BODIES, connectDevice, pairWithKey, type RelayNode } from './kit/relay.js';

/**
 * cold: PostgreSQL's autovacuum at its default, once a minute. Without it, autovacuum looks at the tables every
 * second (WARM_SETTINGS), so a run of seconds on a new database measures a relay whose tables have statistics, as
 * every relay's have after its first minute or so: until the first ANALYZE, PostgreSQL plans the relay's named
 * statements for near-empty tables and keeps those plans (docs/performance-history.md, "NOTIFY only where the
 * socket is, and plans on a new database"). inStep: each connection walks the computers from the first, in step, so
 * requests come in bursts to one computer at a time; by default each request goes to the next computer, as
 * independent agents' do. floor: bench/pg-floor-server.ts on the server CPU under the same load — Express taking the
 * body and one INSERT per notification, durable and with synchronous_commit off — to show how far this machine lets
 * any relay go.
 */
const OPTIONS = {
  duration: 10,
  warmup: 2,
  connections: 16,
  cpuProf: '',
  backend: 'embedded',
  scenarios: '',
  cold: false,
  inStep: false,
  floor: false,
  dialect: '',
};
/** What each step is given: the options, the database (PostgreSQL's runs), the run to start relays with. */
type Throughput = Run<ReadOptions<typeof OPTIONS>> & { postgres?: PostgresServer };
const WARM_SETTINGS = ['autovacuum_naptime=1'];
/** The scenarios run when none are named: the embedded database is for one node. */
const DEFAULT_SCENARIOS: Record<string, string> = { embedded: '1x1', postgres: '1x1,1x16,2x16' };
/** Targets as shares of the hello-world (issue 21 for PostgreSQL), by scenario. */
const TARGETS: Record<string, Record<string, number>> = { embedded: { '1x1': 0.3 }, postgres: { '1x1': 0.15, '1x16': 0.25 } };
/** Issue 21: two nodes on one PostgreSQL carry at least this many times one node's notifications (with room). */
const TWO_NODE_GAIN = 1.5;
/** The CPUs the nodes of a scenario run on, in turn. */
const NODE_CPUS = [SERVER_CPU, LOAD_CPU];

interface Scenario {
  name: string;
  nodes: number;
  computers: number;
}

interface Measured {
  requestsPerSecond: number;
  latencyP50: number;
  latencyP99: number;
  /** Each node's share of one core during warm-up and measurement, in %. */
  nodeCpuPercent: number[];
  /** PostgreSQL's (all its processes) in % of one core; NaN on the embedded database. */
  databaseCpuPercent: number;
  /** The whole machine's busy time, in % of one core (200% is all of two): what was left for anyone. */
  machineBusyPercent: number;
  answered: number;
  bad: number;
  frames: number;
  acked: number;
}

function readScenarios({ scenarios, backend }: ReadOptions<typeof OPTIONS>): Scenario[] {
  if (backend !== 'embedded' && backend !== 'postgres') throw new Error('--backend is embedded or postgres');
  const names = (scenarios || DEFAULT_SCENARIOS[backend]!).split(',');
  return names.map((name) => {
    const match = /^(\d+)x(\d+)$/.exec(name.trim());
    if (!match) throw new Error(`a scenario is <nodes>x<computers>, e.g. 1x16: ${name}`);
    const [nodes, computers] = [Number(match[1]), Number(match[2])];
    if (nodes < 1 || nodes > NODE_CPUS.length || computers < nodes) throw new Error(`1 or 2 nodes, at least one computer each: ${name}`);
    if (nodes > 1 && backend !== 'postgres') throw new Error('several nodes need --backend postgres');
    return { name: name.trim(), nodes, computers };
  });
}

interface Computer {
  node: RelayNode;
  token: string;
  key: string;
  socket: WebSocket;
}

/** The scenario's nodes on one fresh database, its computers paired and connected, each counting its frames. */
async function startScenario(bench: Throughput, scenario: Scenario, onFrame: () => void) {
  const database: Record<string, string> = bench.postgres
    ? { DATABASE_URL: await bench.newDatabase(), RELAY_SECRET: 'bench-secret-'.repeat(4) }
    : {};
  const { cpuProf } = bench.options;
  const nodeArgs = cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(cpuProf)}`] : [];
  const nodes: RelayNode[] = [];
  for (let i = 0; i < scenario.nodes; i++) nodes.push(await bench.startRelay({ env: database, nodeArgs, cpu: NODE_CPUS[i] }));
  const computers: Computer[] = [];
  for (let i = 0; i < scenario.computers; i++) {
    const node = nodes[i % nodes.length]!;
    const device = await pairWithKey(node);
    const socket = await connectDevice(node.port, device.token, (frame) => frame.type === 'notify' && onFrame());
    computers.push({ node, token: device.token, key: device.key, socket });
  }
  return { nodes, computers };
}

/** How a notification is sent: the agent API, or ntfy's or Gotify's dialect at the root (docs/relay-api.md#ra70). */
type Way = 'notify' | 'ntfy' | 'gotify';

/** What a dialect can say of NOTIFY_BODIES (a title, a body, a priority), for the agent API and the dialects alike. */
const PLAIN_BODIES = NOTIFY_BODIES.map(({ title, body, ...rest }) => ({
  title,
  body,
  ...('priority' in rest ? { priority: rest.priority } : {}),
}));
const NTFY_PRIORITY: Record<string, string> = { high: '4' };

/** One request of `way` with a computer's key. */
function requestOf(
  way: Way,
  key: string,
  body: (typeof PLAIN_BODIES)[number] | (typeof NOTIFY_BODIES)[number],
): { method: string; path: string; headers: Record<string, string>; body: string } {
  if (way === 'ntfy') {
    const headers: Record<string, string> = { authorization: `Bearer ${key}`, title: body.title };
    if ('priority' in body && body.priority) headers.priority = NTFY_PRIORITY[body.priority]!;
    return { method: 'POST', path: '/bench', headers, body: body.body };
  }
  if (way === 'gotify') {
    const priority = 'priority' in body && body.priority ? { priority: 8 } : {};
    const json = JSON.stringify({ title: body.title, message: body.body, ...priority });
    return { method: 'POST', path: '/message', headers: { 'x-gotify-key': key, 'content-type': 'application/json' }, body: json };
  }
  return {
    method: 'POST',
    path: '/v1/notify',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
}

/**
 * The load of one node: its share of the connections, each going through its computers' keys in turn. With
 * --dialect, the agent API sends what the dialect can say, so both send the same.
 */
function loadOf(bench: Throughput, node: RelayNode, computers: Computer[], connections: number, way: Way): LoadSpec {
  const mine = computers.filter((computer) => computer.node === node);
  const bodies = bench.options.dialect ? PLAIN_BODIES : NOTIFY_BODIES;
  return {
    url: `${node.baseUrl}/v1/notify`,
    connections,
    warmupSeconds: bench.options.warmup,
    durationSeconds: bench.options.duration,
    headers: { 'content-type': 'application/json' },
    // Each request to the next computer, whichever connection sends it: the computers' agents are independent.
    // With --in-step, each connection walks the computers from the first, so they all send to one at a time.
    shared: !bench.options.inStep,
    requests: bodies.flatMap((body) => mine.map((computer) => requestOf(way, computer.key, body))),
  };
}

/**
 * From now until the returned function is called: the time elapsed (ms), PostgreSQL's CPU (all its processes; NaN
 * without it) and the whole machine's busy time, each in % of one core.
 */
async function cpuShares(postgres: PostgresServer | undefined) {
  const started = performance.now();
  const databaseBefore = postgres ? serverCpuMs(postgres) : NaN;
  const machineBefore = await machineBusyMs();
  return async () => {
    const elapsed = performance.now() - started;
    return {
      elapsed,
      databaseCpuPercent: postgres ? ((serverCpuMs(postgres) - databaseBefore) / elapsed) * 100 : NaN,
      machineBusyPercent: (((await machineBusyMs()) - machineBefore) / elapsed) * 100,
    };
  };
}

async function measureScenario(bench: Throughput, scenario: Scenario, way: Way = 'notify'): Promise<Measured> {
  let frames = 0;
  const { nodes, computers } = await startScenario(bench, scenario, () => (frames += 1));
  try {
    const nodeCpuBefore = await Promise.all(nodes.map((node) => cpuMs(node.pid)));
    const shares = await cpuShares(bench.postgres);
    const perNode = Math.max(1, Math.round(bench.options.connections / nodes.length));
    const results: LoadResult[] = await Promise.all(nodes.map((node) => runLoad(loadOf(bench, node, computers, perNode, way))));
    const { elapsed, databaseCpuPercent, machineBusyPercent } = await shares();
    const nodeCpuAfter = await Promise.all(nodes.map((node) => cpuMs(node.pid)));
    await new Promise((resolve) => setTimeout(resolve, 1000)); // the last frames and acks
    let acked = 0;
    for (const computer of computers) {
      const usage = (await computer.node.call('GET', '/v1/device/usage', { token: computer.token })).json as {
        queued: number;
        notifications: number;
      };
      acked += usage.notifications - usage.queued;
      computer.socket.close();
    }
    const sum = (field: (result: LoadResult) => number): number => results.reduce((total, result) => total + field(result), 0);
    return {
      requestsPerSecond: sum((result) => result.requestsPerSecond),
      latencyP50: Math.max(...results.map((result) => result.latencyP50)),
      latencyP99: Math.max(...results.map((result) => result.latencyP99)),
      nodeCpuPercent: nodeCpuAfter.map((after, i) => ((after - nodeCpuBefore[i]!) / elapsed) * 100),
      databaseCpuPercent,
      machineBusyPercent,
      answered: sum((result) => result.warmupCompleted + result.completed),
      bad: sum(failed),
      frames,
      acked,
    };
  } finally {
    // SIGTERM: each node closes its database (and writes its CPU profile)
    await Promise.all(nodes.map((node) => node.stop()));
  }
}

/** The floor server (durable or not) under a relay node's load (the same connections and bodies), on a database of its own. */
async function measureFloor(bench: Throughput, commit: 'durable' | 'async'): Promise<Measured> {
  const env = { ...process.env, DATABASE_URL: await bench.newDatabase(), FLOOR_COMMIT: commit };
  return withServer('pg-floor-server.js', env, async (port, pid) => {
    const shares = await cpuShares(bench.postgres);
    const result = await runLoad(
      {
        url: `http://127.0.0.1:${port}`,
        connections: bench.options.connections,
        warmupSeconds: bench.options.warmup,
        durationSeconds: bench.options.duration,
        shared: true,
        requests: NOTIFY_BODIES.map((body) => ({
          method: 'POST',
          path: '/v1/notify',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })),
      },
      pid,
    );
    const { databaseCpuPercent, machineBusyPercent } = await shares();
    return {
      requestsPerSecond: result.requestsPerSecond,
      latencyP50: result.latencyP50,
      latencyP99: result.latencyP99,
      nodeCpuPercent: [result.serverCpuPercent ?? NaN],
      databaseCpuPercent,
      machineBusyPercent,
      answered: result.completed + result.warmupCompleted,
      bad: failed(result),
      frames: 0,
      acked: 0,
    };
  });
}

const FLOOR_COMMIT = { durable: 'commit on disk', async: 'synchronous_commit off' };

const describe = (scenario: Scenario): string =>
  `${scenario.nodes} node${scenario.nodes > 1 ? 's' : ''}, ${scenario.computers} computer${scenario.computers > 1 ? 's' : ''}`;

await defineBenchmark({
  title: ({ backend }) =>
    `Notifier relay benchmark: POST /v1/notify throughput, ${backend === 'postgres' ? 'PostgreSQL' : 'embedded database'} (durable)`,
  options: OPTIONS,
  // The database server is started before this process pins itself to the load CPU, so it is not pinned there.
  needs: ({ backend, cold }) => ({ helloWorld: true, postgres: backend === 'postgres' && { settings: cold ? [] : WARM_SETTINGS } }),
  async measure(bench) {
    const { backend, connections, cpuProf } = bench.options;
    const scenarios = readScenarios(bench.options);
    const baseline = bench.helloWorld;
    const floors = bench.options.floor && bench.postgres ? (['durable', 'async'] as const) : [];
    const steps = scenarios.length + floors.length;
    const floor = new Map<string, Measured>();
    for (const [i, commit] of floors.entries()) {
      console.log(`${i + 1}/${steps} floor: Express and one INSERT per notification, ${FLOOR_COMMIT[commit]} ...`);
      const result = await measureFloor(bench, commit);
      floor.set(commit, result);
      console.log(`    ${int(result.answered)} answered (${int(result.bad)} not 2xx or failed)`);
    }
    const measured = new Map<string, Measured>();
    for (const [i, scenario] of scenarios.entries()) {
      console.log(`${i + floors.length + 1}/${steps} relay: POST /v1/notify, ${describe(scenario)}, each connected and acknowledging ...`);
      const result = await measureScenario(bench, scenario);
      measured.set(scenario.name, result);
      console.log(
        `    ${int(result.answered)} notifications answered (${int(result.bad)} not 2xx or failed); the computers received ${int(result.frames)} frames and acknowledged ${int(result.acked)}`,
      );
      // Requests in flight when a load generator stops (after the warm-up and after the measurement) are answered,
      // and delivered, after it stopped counting.
      const delivered =
        result.frames >= result.answered && result.frames <= result.answered + 2 * connections && result.acked === result.frames;
      console.log(
        `    sane (every answer 2xx, every notification delivered once and acknowledged): ${result.bad === 0 && delivered ? 'yes' : 'NO'}`,
      );
    }
    console.log('');

    const percent = (value: number): string => (Number.isNaN(value) ? '-' : `${Math.round(value)}%`);
    printTable([
      ['server', 'req/s', 'p50', 'p99', 'relay CPU', 'PostgreSQL CPU', 'machine CPU', 'vs baseline'],
      [
        'Express hello-world (baseline)',
        int(baseline.requestsPerSecond),
        ms(baseline.latencyP50),
        ms(baseline.latencyP99),
        percent(baseline.serverCpuPercent ?? NaN),
        '-',
        '-',
        ratio(1),
      ],
      ...[...floor.keys(), ...scenarios.map((scenario) => scenario.name)].map((name) => {
        const result = floor.get(name) ?? measured.get(name)!;
        const scenario = scenarios.find((each) => each.name === name);
        return [
          scenario ? `relay notify, ${describe(scenario)}` : `floor, ${FLOOR_COMMIT[name as keyof typeof FLOOR_COMMIT]}`,
          int(result.requestsPerSecond),
          ms(result.latencyP50),
          ms(result.latencyP99),
          result.nodeCpuPercent.map(percent).join(' + '),
          percent(result.databaseCpuPercent),
          `${percent(result.machineBusyPercent)} of ${cpus().length * 100}%`,
          ratio(result.requestsPerSecond / baseline.requestsPerSecond),
        ];
      }),
    ]);
    console.log(
      "(latencies have 1 ms resolution and are the worst node's; CPU: share of one core during warm-up + measurement;\n" +
        ' machine: every process, the load generators and the computers included)\n',
    );
    for (const scenario of scenarios) {
      const achieved = measured.get(scenario.name)!.requestsPerSecond / baseline.requestsPerSecond;
      const target = TARGETS[backend]![scenario.name];
      const verdictText = target === undefined ? '(no target)' : `(target >= ${target}): ${verdict(achieved >= target)}`;
      console.log(`relay notify, ${describe(scenario)} / baseline = ${achieved.toFixed(2)} ${verdictText}`);
    }
    const one = measured.get('1x16');
    const two = measured.get('2x16');
    if (one && two) {
      const gain = two.requestsPerSecond / one.requestsPerSecond;
      console.log(
        `2 nodes / 1 node (16 computers) = ${gain.toFixed(2)} (target >= ${TWO_NODE_GAIN} where the database has room): ${verdict(gain >= TWO_NODE_GAIN)}`,
      );
    }
    await compareDialect(bench, scenarios, measured);
    if (cpuProf) console.log(`CPU profiles of the relay written to ${path.resolve(cpuProf)}`);
  },
});

/**
 * --dialect ntfy|gotify: each scenario again, sent in that dialect at the relay's root with the same content, against
 * the agent API's run above (issue 33: at most 15 % more cost, a ratio of at least 0.87).
 */
async function compareDialect(bench: Throughput, scenarios: Scenario[], agentAPI: Map<string, Measured>): Promise<void> {
  const dialect = bench.options.dialect;
  if (dialect === '') return;
  if (dialect !== 'ntfy' && dialect !== 'gotify') throw new Error(`--dialect is ntfy or gotify, not ${dialect}`);
  for (const scenario of scenarios) {
    console.log(`relay: ${dialect}'s dialect, ${describe(scenario)} ...`);
    const result = await measureScenario(bench, scenario, dialect);
    const against = result.requestsPerSecond / agentAPI.get(scenario.name)!.requestsPerSecond;
    console.log(
      `    ${int(result.requestsPerSecond)} req/s, ${int(result.bad)} not 2xx or failed, ${int(result.frames)} frames: ` +
        `${dialect} / agent API = ${against.toFixed(2)} (target >= ${(1 / 1.15).toFixed(2)}): ${verdict(against >= 1 / 1.15)}`,
    );
  }
}
