// How long a durable append takes on the disk a benchmark writes to. Every POST /v1/notify answer waits for one
// (the History journal's write, O_APPEND | O_SYNC), and its time is the disk's, which differs from one machine to the
// next: printed beside the throughput, it helps compare runs made on different machines.

import { open, rm } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { percentile } from './print.js';

/** Appends timed, one after another: a stable median in well under a second on a disk that syncs in 0.1-0.5 ms. */
const APPENDS = 500;

export interface SyncAppend {
  medianMs: number;
  p99Ms: number;
}

/** Times `APPENDS` durable appends of `bytes` each to a new file of `folder` (removed afterwards). */
export async function measureSyncAppend(folder: string, bytes: number): Promise<SyncAppend> {
  const file = path.join(folder, 'sync-append.probe');
  const line = Buffer.alloc(bytes, 'x');
  line[bytes - 1] = 0x0a;
  const handle = await open(file, 'as', 0o600);
  const samples: number[] = [];
  try {
    for (let index = 0; index < APPENDS; index++) {
      const started = performance.now();
      await handle.write(line);
      samples.push(performance.now() - started);
    }
  } finally {
    await handle.close();
    await rm(file, { force: true });
  }
  return { medianMs: percentile(samples, 50), p99Ms: percentile(samples, 99) };
}
