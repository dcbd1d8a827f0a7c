// The baseline of bench/relay-events.ts: the least a relay could do to send webhooks. Signs and posts events with
// the relay's own outbound module (the same proxy, TLS and kept connections), from a process pinned where the
// relay runs, with no database, no queue and no claims. Reads its job as JSON from BENCH_WEBHOOKS:
// {proxy, caFile, hooks: [{url, secret}], total, concurrency}; prints the seconds it took on stdout.

import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Outbound } from '../relay/core/outbound.js';
import { sendBaselineEvent } from './kit/relay.js';

interface Job {
  proxy: string;
  caFile: string;
  hooks: { url: string; secret: string }[];
  total: number;
  concurrency: number;
}

const job = JSON.parse(process.env.BENCH_WEBHOOKS ?? '{}') as Job;
const outbound = new Outbound({ proxy: new URL(job.proxy), noProxy: [], extraCA: [readFileSync(job.caFile, 'utf8')] });

const send = (n: number): Promise<void> => sendBaselineEvent(outbound, job.hooks[n % job.hooks.length]!, n);

let next = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: job.concurrency }, async () => {
    for (let n = next++; n < job.total; n = next++) await send(n);
  }),
);
process.stdout.write(`${(performance.now() - started) / 1000}\n`);
outbound.close();
