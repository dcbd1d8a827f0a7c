// Notify throughput of one relay node on the embedded database, against a bare Express 5 hello-world in the
// same run (target: at least 0.3 of it). `--backend postgres`: the same on a private PostgreSQL server (no target).
//   npm run bench:relay-throughput [-- --duration 10 --warmup 2 --connections 16 --cpu-prof <folder> --backend postgres]
// The relay is durable (each answer waits until its transaction is on disk) and does all its work: the
// agent's key checked, the request counted against the budget, the per-key rate, the daily cap and the queue
// checked, the note stored and pushed to the computer, whose socket (in this process) acknowledges each one, as
// the desktop does — one more transaction per notification. Limits are raised so none refuses. The relay and
// the baseline run pinned to CPU 0; autocannon (its own process) and the computer's socket on CPU 1; PostgreSQL
// unpinned, like a database on its own machine.

import path from 'node:path';
import { NOTIFY_BODIES, connectDevice, pairWithKey, startRelayNode, UNLIMITED } from './relay-lib.js';
import { createDatabase, startPostgres, type PostgresServer } from './rigs/postgres.js';
import {
  LOAD_CPU,
  describeMachine,
  int,
  measureHelloExpress,
  ms,
  option,
  pinSelf,
  printTable,
  ratio,
  runBenchmark,
  runLoad,
  stopChild,
  verdict,
  type LoadResult,
} from './lib.js';

const DURATION_S = Number(option('duration') ?? 10);
const WARMUP_S = Number(option('warmup') ?? 2);
const CONNECTIONS = Number(option('connections') ?? 16);
const CPU_PROFILE_DIR = option('cpu-prof');
const BACKEND = option('backend') ?? 'embedded';
const TARGET_RATIO = 0.3;

type Measured = LoadResult & { serverCpuPercent?: number };

async function measureRelay(postgres: PostgresServer | undefined): Promise<{ result: Measured; frames: number; acked: number }> {
  const env = postgres ? { ...UNLIMITED, DATABASE_URL: await createDatabase(postgres.baseUrl) } : UNLIMITED;
  const relay = await startRelayNode(env, CPU_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(CPU_PROFILE_DIR)}`] : []);
  try {
    const device = await pairWithKey(relay);
    let frames = 0;
    const socket = await connectDevice(relay.port, device.token, (frame) => {
      if (frame.type === 'notify') frames += 1;
    });
    const result = await runLoad(
      {
        url: `${relay.baseUrl}/v1/notify`,
        connections: CONNECTIONS,
        warmupSeconds: WARMUP_S,
        durationSeconds: DURATION_S,
        headers: { authorization: `Bearer ${device.key}`, 'content-type': 'application/json' },
        requests: NOTIFY_BODIES.map((body) => ({ method: 'POST', path: '/v1/notify', body: JSON.stringify(body) })),
      },
      relay.pid,
    );
    await new Promise((resolve) => setTimeout(resolve, 1000)); // the last frames and acks
    const usage = (await relay.call('GET', '/v1/device/usage', { token: device.token })).json as { queued: number; notifications: number };
    socket.close();
    return { result, frames, acked: usage.notifications - usage.queued };
  } finally {
    await stopChild(relay.child); // SIGTERM: the relay closes its database (and writes the CPU profile)
  }
}

await runBenchmark(async () => {
  if (BACKEND !== 'embedded' && BACKEND !== 'postgres') throw new Error('--backend is embedded or postgres');
  // The database server is started before this process pins itself to the load CPU, so it is not pinned there.
  const postgres = BACKEND === 'postgres' ? await startPostgres() : undefined;
  try {
    await measure(postgres);
  } finally {
    await postgres?.stop();
  }
});

async function measure(postgres: PostgresServer | undefined): Promise<void> {
  pinSelf(LOAD_CPU);
  const database = postgres ? 'PostgreSQL' : 'embedded database';
  console.log(`Notifier relay benchmark: POST /v1/notify throughput, one node, ${database} (durable)`);
  console.log(describeMachine());
  console.log(`${CONNECTIONS} connections, ${WARMUP_S} s warm-up then ${DURATION_S} s measured, per server\n`);

  console.log('1/2 baseline: Express 5 hello-world (GET /) ...');
  const baseline = await measureHelloExpress({ connections: CONNECTIONS, warmupSeconds: WARMUP_S, durationSeconds: DURATION_S });
  console.log('2/2 relay: POST /v1/notify, the computer connected and acknowledging ...');
  const { result: relay, frames, acked } = await measureRelay(postgres);

  const answered = relay.warmupCompleted + relay.completed;
  const bad = relay.non2xx + relay.warmupNon2xx + relay.errors + relay.warmupErrors + relay.timeouts;
  console.log(
    `    ${int(answered)} notifications answered (${int(bad)} not 2xx or failed); the computer received ${int(frames)} frames and acknowledged ${int(acked)}`,
  );
  // Requests in flight when autocannon stops (after the warm-up and after the measurement) are answered, and
  // delivered, after it stopped counting.
  const delivered = frames >= answered && frames <= answered + 2 * CONNECTIONS && acked === frames;
  console.log(
    `    sane (every answer 2xx, every notification delivered once and acknowledged): ${bad === 0 && delivered ? 'yes' : 'NO'}\n`,
  );

  const row = (name: string, result: Measured): string[] => [
    name,
    int(result.requestsPerSecond),
    ms(result.latencyP50),
    ms(result.latencyP99),
    `${Math.round(result.serverCpuPercent ?? NaN)}%`,
    ratio(result.requestsPerSecond / baseline.requestsPerSecond),
  ];
  printTable([
    ['server', 'req/s', 'p50', 'p99', 'server CPU', 'vs baseline'],
    row('Express hello-world (baseline)', baseline),
    row(`relay POST /v1/notify (${postgres ? 'PostgreSQL' : 'durable'})`, relay),
  ]);
  console.log('(latencies have 1 ms resolution; server CPU: share of one core used during warm-up + measurement)');
  const achieved = relay.requestsPerSecond / baseline.requestsPerSecond;
  const target = postgres
    ? '(the target is for the embedded database)'
    : `(target >= ${TARGET_RATIO}): ${verdict(achieved >= TARGET_RATIO)}`;
  console.log(`\nrelay notify / baseline = ${achieved.toFixed(2)} ${target}`);
  if (CPU_PROFILE_DIR) console.log(`CPU profile of the relay written to ${path.resolve(CPU_PROFILE_DIR)}`);
}
