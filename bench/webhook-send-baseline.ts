// The baseline of bench/relay-events.ts: the least a relay could do to send webhooks. Signs and posts events with
// the relay's own outbound module (the same proxy, TLS and kept connections), from a process pinned where the
// relay runs, with no database, no queue and no claims. Reads its job as JSON from BENCH_WEBHOOKS:
// {proxy, caFile, hooks: [{url, secret}], total, concurrency}; prints the seconds it took on stdout.

import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Outbound } from '../relay/core/outbound.js';
import { signature } from '../relay/core/webhooks.js';

interface Job {
  proxy: string;
  caFile: string;
  hooks: { url: string; secret: string }[];
  total: number;
  concurrency: number;
}

const job = JSON.parse(process.env.BENCH_WEBHOOKS ?? '{}') as Job;
const outbound = new Outbound({ proxy: new URL(job.proxy), noProxy: [], extraCA: [readFileSync(job.caFile, 'utf8')] });

async function send(n: number): Promise<void> {
  const hook = job.hooks[n % job.hooks.length]!;
  const id = `evt_${n}_${'0'.repeat(20)}`;
  const body = JSON.stringify({
    eventId: id,
    name: 'notification.reply',
    timestamp: new Date().toISOString(),
    data: { notificationId: `b${n}`, id: 'r_000000000000000000000000', kind: 'text' },
    cursor: String(n),
  });
  const timestamp = Math.floor(Date.now() / 1000);
  const answer = await outbound.request(new URL(hook.url), {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': 'Notifier-Relay/1.0',
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signature(hook.secret, id, timestamp, body),
      'x-mcp-subscription-id': 'sub_00000000000000000000',
    },
    body,
    timeoutMs: 10_000,
    maxResponseBytes: 65536,
  });
  if (answer.status !== 200) throw new Error(`the receiver answered ${answer.status}`);
}

let next = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: job.concurrency }, async () => {
    for (let n = next++; n < job.total; n = next++) await send(n);
  }),
);
process.stdout.write(`${(performance.now() - started) / 1000}\n`);
outbound.close();
