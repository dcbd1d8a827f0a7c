// What held connections cost one relay node (embedded database): 10,000 device sockets — memory per socket,
// CPU while they are idle, and the time to accept them all — then 1,000 long-polls held on top.
//   npm run bench:relay-sockets [-- --sockets 10000 --polls 1000 --idle 10]
// The computers are paired before the relay starts, straight into its database (pairing 10,000 computers over
// HTTP would measure pairing, not sockets). The relay runs pinned to CPU 0; the sockets and long-polls are
// opened from this process on CPU 1. Baseline: the same relay with one socket, measured in the same run.

import http from 'node:http';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { loadConfig } from '../relay/config.js';
import { Credentials, newDeviceToken } from '../relay/core/credentials.js';
import { createKey } from '../relay/core/keys.js';
import { openStore } from '../relay/store/open.js';
import { defineBenchmark } from './lib.js';
import { int, printTable, verdict } from './kit/print.js';
import { CPU_TICK_MS, idleCpuMs, memoryMiB } from './kit/proc.js';
import { makeTempFolder, sleep } from './kit/processes.js';
import { connectDevice } from './kit/relay.js';

const SECRET = 'bench-relay-sockets-secret-0123456789';
/** Sockets opened at once while connecting (a desktop fleet reconnecting after a restart comes in waves). */
const CONNECT_WAVE = 200;

interface Seeded {
  dataDir: string;
  devices: { deviceId: string; token: string }[];
  keys: string[];
}

/** `count` paired computers (and two keys of the first), written into a fresh embedded database. */
async function seed(count: number): Promise<Seeded> {
  const dataDir = await makeTempFolder('notifier-bench-sockets-');
  const store = await openStore(loadConfig({ RELAY_DATA_DIR: dataDir }));
  const credentials = new Credentials(SECRET);
  const devices: Seeded['devices'] = [];
  const now = Date.now();
  await store.withRelayLock(async (tx) => {
    for (let i = 0; i < count; i++) {
      const deviceId = credentials.newDeviceId();
      const { token, hash } = newDeviceToken(deviceId);
      await tx.db
        .insertInto('devices')
        .values({
          id: deviceId,
          name: `bench-${i}`,
          token_hash: hash,
          created_at: now,
          last_seen_at: now,
          status: '{}',
          stream_gen: 0,
          stream_open: null,
        })
        .execute();
      devices.push({ deviceId, token });
    }
  });
  const keys: string[] = [];
  await store.withDeviceLock(devices[0]!.deviceId, async (tx) => {
    for (const name of ['bench-a', 'bench-b']) keys.push((await createKey(tx, devices[0]!.deviceId, { name }, now)).key);
  });
  // The store's checkpoint thread never keeps a process alive by itself (relay/store/checkpointer.ts), and nothing
  // else of this process is running yet: a timer keeps it alive until the thread has closed.
  const alive = setInterval(() => undefined, 1000);
  await store.close().finally(() => clearInterval(alive));
  return { dataDir, devices, keys };
}

await defineBenchmark({
  title: 'Notifier relay benchmark: held device sockets and long-polls on one node (embedded database)',
  options: { sockets: 10_000, polls: 1000, idle: 10 },
  async measure({ options: { sockets: socketCount, polls, idle }, startRelay, atEnd }) {
    console.log(`${int(socketCount)} sockets, then ${int(polls)} long-polls; idle CPU over ${idle} s\n`);

    console.log(`seeding ${int(socketCount)} paired computers ...`);
    const seeded = await seed(socketCount);
    const relay = await startRelay({ env: { RELAY_DATA_DIR: seeded.dataDir, RELAY_SECRET: SECRET } });
    const sockets: WebSocket[] = [];
    atEnd(() => sockets.forEach((socket) => socket.terminate()));
    // Baseline: one socket, warmed up.
    sockets.push(await connectDevice(relay.port, seeded.devices[0]!.token));
    await sleep(1000);
    const base = await memoryMiB(relay.pid);
    const baseIdle = await idleCpuMs(relay.pid, idle);

    console.log(`opening ${int(socketCount - 1)} more sockets, ${CONNECT_WAVE} at a time ...`);
    const started = performance.now();
    for (let i = 1; i < socketCount; i += CONNECT_WAVE) {
      const wave = seeded.devices.slice(i, i + CONNECT_WAVE);
      sockets.push(...(await Promise.all(wave.map((device) => connectDevice(relay.port, device.token)))));
    }
    const acceptMs = performance.now() - started;
    await sleep(2000);
    const held = await memoryMiB(relay.pid);
    const heldIdle = await idleCpuMs(relay.pid, idle);
    const online = (await relay.call('GET', '/v1/status', { token: seeded.keys[0] })).json as { online: boolean };

    // Long-polls: notifications of the first computer, each waited on by one request (two keys: each key may
    // read 600 times in 10 minutes).
    console.log(`holding ${int(polls)} long-polls ...`);
    const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
    for (let i = 0; i < polls; i++) {
      const sent = await relay.call('POST', '/v1/notify', {
        token: seeded.keys[i % 2]!,
        body: { title: `wait ${i}`, notificationId: `w${i}`, expectReply: true },
      });
      if (sent.status !== 202) throw new Error(`notify answered ${sent.status}: ${sent.text}`);
    }
    await sleep(1000);
    const beforePolls = await memoryMiB(relay.pid);
    let answered = 0;
    const waiting = Array.from(
      { length: polls },
      (_, i) =>
        new Promise<void>((resolve) => {
          const req = http.get(
            `${relay.baseUrl}/v1/replies/w${i}?wait=60`,
            { agent, headers: { authorization: `Bearer ${seeded.keys[i % 2]}` } },
            (res) => {
              res.resume();
              res.on('end', () => ((answered += 1), resolve()));
            },
          );
          req.on('error', () => resolve());
        }),
    );
    await sleep(3000);
    const withPolls = await memoryMiB(relay.pid);
    const pollIdle = await idleCpuMs(relay.pid, idle);

    const perSocketKiB = ((held.rss - base.rss) * 1024) / (socketCount - 1);
    const perPollKiB = ((withPolls.rss - beforePolls.rss) * 1024) / polls;
    console.log('');
    printTable([
      ['measure', 'value'],
      ['relay RSS with 1 socket (baseline)', `${base.rss.toFixed(1)} MiB`],
      [`relay RSS with ${int(socketCount)} sockets`, `${held.rss.toFixed(1)} MiB`],
      ['memory per socket', `${perSocketKiB.toFixed(1)} KiB`],
      [
        `time to accept ${int(socketCount - 1)} sockets`,
        `${(acceptMs / 1000).toFixed(2)} s (${int(((socketCount - 1) / acceptMs) * 1000)} per second)`,
      ],
      [`relay CPU in ${idle} s idle, 1 socket`, `${baseIdle.toFixed(0)} ms`],
      [`relay CPU in ${idle} s idle, ${int(socketCount)} sockets`, `${heldIdle.toFixed(0)} ms`],
      [`relay RSS with ${int(polls)} long-polls held too`, `${withPolls.rss.toFixed(1)} MiB (${perPollKiB.toFixed(1)} KiB per long-poll)`],
      [`relay CPU in ${idle} s with the long-polls held`, `${pollIdle.toFixed(0)} ms`],
    ]);
    console.log(
      `(CPU resolution ${CPU_TICK_MS} ms; the computer is online: ${online.online}; long-polls answered before the end: ${answered} of ${polls})`,
    );
    const quiet = heldIdle <= baseIdle + 5 * CPU_TICK_MS && pollIdle <= baseIdle + 5 * CPU_TICK_MS;
    console.log(
      `\nidle with ${int(socketCount)} sockets and ${int(polls)} long-polls costs no more CPU than with one socket (no polling timers): ${verdict(quiet)}`,
    );
    agent.destroy();
    void Promise.allSettled(waiting);
  },
});
