// How long from an agent's POST /v1/notify until the frame arrives on the computer's socket, p50 and p99.
//   npm run bench:relay-latency [-- --rounds 500 --warmup 50 --relay <main.js of another build>]
// Measured in one run, one notification at a time (each waits for the frame and the answer):
//   - baseline: bench/relay-push-baseline.ts, Express + ws with no checks and no database;
//   - one relay node on the embedded database (durable: each notify is on disk before the answer);
//   - one relay node on PostgreSQL;
//   - two relay nodes on one PostgreSQL: the socket on node A, the agent sending to node B (LISTEN/NOTIFY).
// Relay nodes and the baseline run pinned to CPU 0, this process (the agent and the computer) on CPU 1; the
// private PostgreSQL server is not pinned (it plays a database on its own machine). The computer acknowledges each notification, as the desktop does.

import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { defineBenchmark } from './lib.js';
import { request } from './kit/http.js';
import { withServer } from './kit/load.js';
import { ms, percentile, printLatencies, verdict } from './kit/print.js';
import { NOTIFY_BODIES, connectDevice, measureRelaySetups, pairWithKey, type Frame, type RelayNode } from './kit/relay.js';

const TARGETS = { oneNodeP50: 5, crossNodeP50: 15 };

/** How many notifications a scenario sends: `warmup` unmeasured, then `rounds` measured. */
interface Counts {
  rounds: number;
  warmup: number;
}

/** Frames by the title they carry, so a round waits for its own. */
class FrameWaiter {
  private readonly waiting = new Map<string, () => void>();

  onFrame = (frame: Frame): void => {
    const title = (frame.payload as { title?: string } | undefined)?.title;
    if (frame.type === 'notify' && title) this.waiting.get(title)?.();
  };

  next(title: string): Promise<void> {
    return new Promise((resolve) => this.waiting.set(title, () => (this.waiting.delete(title), resolve())));
  }
}

/** Sends the notifications one at a time; returns the milliseconds from sending to the frame. */
async function timeFrames({ rounds, warmup }: Counts, send: (body: object) => Promise<number>, waiter: FrameWaiter): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < warmup + rounds; i++) {
    const body = { ...NOTIFY_BODIES[i % NOTIFY_BODIES.length]!, title: `round ${i} ${Math.random()}` };
    const arrived = waiter.next(body.title);
    const started = performance.now();
    const status = await send(body);
    await arrived;
    const elapsed = performance.now() - started;
    if (status !== 202) throw new Error(`the notify answered ${status}`);
    if (i >= warmup) samples.push(elapsed);
  }
  return samples;
}

/** bench/relay-push-baseline.ts on the server CPU, its one client in this process. */
function measureBaseline(counts: Counts): Promise<number[]> {
  return withServer('relay-push-baseline.js', process.env, async (port) => {
    const waiter = new FrameWaiter();
    const socket = new WebSocket(`ws://127.0.0.1:${port}/stream`);
    await new Promise<void>((resolve) =>
      socket.on('message', (data) =>
        JSON.parse(data.toString()).type === 'welcome' ? resolve() : waiter.onFrame(JSON.parse(data.toString())),
      ),
    );
    const push = async (body: object) =>
      (
        await request(`http://127.0.0.1:${port}/push`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).status;
    const samples = await timeFrames(counts, push, waiter);
    socket.close();
    return samples;
  });
}

/** The computer on `socketNode`, the agent on `agentNode`. */
async function measureRelay(counts: Counts, socketNode: RelayNode, agentNode: RelayNode): Promise<number[]> {
  const device = await pairWithKey(socketNode);
  const waiter = new FrameWaiter();
  const socket = await connectDevice(socketNode.port, device.token, waiter.onFrame);
  const send = async (body: object) => (await agentNode.call('POST', '/v1/notify', { token: device.key, body })).status;
  const samples = await timeFrames(counts, send, waiter);
  socket.close();
  return samples;
}

await defineBenchmark({
  title: "Notifier relay benchmark: agent POST /v1/notify -> frame on the computer's socket",
  options: { rounds: 500, warmup: 50 },
  needs: { postgres: true },
  async measure(run) {
    const { options } = run;
    console.log(`${options.rounds} notifications one at a time after ${options.warmup} warm-up rounds, per scenario\n`);

    console.log('1/4 baseline: Express + ws, no checks, no database ...');
    const baseline = await measureBaseline(options);
    const { oneNode, onePg, crossNode, rows } = await measureRelaySetups(run, { onB: 'agent' }, (socketNode, agentNode) =>
      measureRelay(options, socketNode, agentNode),
    );

    console.log('');
    printLatencies([['baseline: Express + ws push', baseline], ...rows]);
    const p50One = percentile(oneNode, 50);
    const p50Cross = percentile(crossNode, 50);
    const p50OnePg = percentile(onePg, 50);
    console.log(`\none node p50 = ${ms(p50One)} (target < ${TARGETS.oneNodeP50} ms): ${verdict(p50One < TARGETS.oneNodeP50)}`);
    console.log(
      `one node on PostgreSQL p50 = ${ms(p50OnePg)} (target < ${TARGETS.oneNodeP50} ms): ${verdict(p50OnePg < TARGETS.oneNodeP50)}`,
    );
    console.log(`two nodes p50 = ${ms(p50Cross)} (target < ${TARGETS.crossNodeP50} ms): ${verdict(p50Cross < TARGETS.crossNodeP50)}`);
  },
});
