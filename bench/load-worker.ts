// The load generator, run as its own process (pinned to its own CPU by the benchmark that spawns it):
//   node dist/bench/load-worker.js '<LoadSpec as JSON>'
// It runs autocannon once for the warm-up (results kept only for the error count) and once for the measurement,
// and prints one LoadResult as JSON on stdout.

import autocannon from 'autocannon';
import type { LoadResult, LoadSpec } from './kit/load.js';

const spec = JSON.parse(process.argv[2] ?? '') as LoadSpec;

/** With `shared`, one request whose content is the list's next, for whichever connection sends it. */
let turn = 0;
const requests = spec.shared
  ? [{ setupRequest: (request: object) => ({ ...request, ...spec.requests[turn++ % spec.requests.length] }) }]
  : spec.requests;

function run(seconds: number) {
  return autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: seconds,
    headers: spec.headers,
    requests,
  });
}

const warmup = await run(spec.warmupSeconds);
const measured = await run(spec.durationSeconds);

const statusCodes: Record<string, number> = {};
for (const result of [warmup, measured]) {
  for (const [code, { count }] of Object.entries(result.statusCodeStats)) statusCodes[code] = (statusCodes[code] ?? 0) + count;
}

const output: LoadResult = {
  seconds: measured.duration,
  requestsPerSecond: measured.requests.average,
  completed: measured.requests.total,
  latencyP50: measured.latency.p50,
  latencyP99: measured.latency.p99,
  latencyMax: measured.latency.max,
  ok2xx: measured['2xx'],
  non2xx: measured.non2xx,
  errors: measured.errors,
  timeouts: measured.timeouts,
  warmupCompleted: warmup.requests.total,
  warmupNon2xx: warmup.non2xx,
  warmupErrors: warmup.errors + warmup.timeouts,
  statusCodes,
};
process.stdout.write(JSON.stringify(output) + '\n');
