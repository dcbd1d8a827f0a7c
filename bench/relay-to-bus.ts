// From an agent's POST /v1/notify at the relay to the Notify call on the computer's session bus: the relay (one
// node, embedded database), the daemon paired with it over its socket, and dunst on Xvfb as the notification server.
//   npm run bench:relay-to-bus [-- --rounds 300]
// dbus-monitor stamps every Notify call with the time it crossed the bus; the benchmark stamps the moment it sent
// the request. Baseline in the same run, round for round: the same daemon's own POST /v1/notify -> Notify of the
// same banner (a Reply button, a 2 s timeout, as every relayed one has), so the ratio is what the relay's hop
// adds. The relay and the daemon run pinned to CPU 0, this process (the agent) on CPU 1; Xvfb, dunst and the bus
// are not pinned.

import { monitorNotify, wallClockMs as now } from '../rigs/notify-monitor.js';
import { waitFor } from '../rigs/wait.js';
import { defineBenchmark } from './lib.js';
import { request } from './kit/http.js';
import { ms, percentile, printPercentiles, ratio, verdict } from './kit/print.js';
import { relayCall } from './kit/relay.js';

const WARM_UP = 30;
const TARGET_P50_MS = 20;

await defineBenchmark({
  title: 'Notifier benchmark: agent POST /v1/notify at the relay -> Notify on the session bus (dunst on Xvfb)',
  options: { rounds: 300 },
  // No Secret Service on the private bus: the device token goes to the support folder's file.
  needs: { desktop: true, relay: true, daemon: { onDesktop: true } },
  async measure({ options: { rounds }, desktop, relay, daemon, atEnd }) {
    const monitor = await monitorNotify(desktop.env);
    atEnd(() => monitor.stop());
    const local = relayCall(daemon.baseUrl);
    const paired = await local('POST', '/v1/relay/pair', { token: daemon.token, body: { relayURL: relay.baseUrl } });
    if (paired.status !== 200) throw new Error(`pairing answered ${paired.status}: ${paired.text}`);
    await waitFor(
      async () => ((await local('GET', '/v1/relay/status', { token: daemon.token })).json?.online === true ? true : undefined),
      'the daemon to come online at the relay',
    );
    const made = await local('POST', '/v1/relay/keys', { token: daemon.token, body: { name: 'bench-agent' } });
    if (made.status !== 201) throw new Error(`making a key answered ${made.status}: ${made.text}`);
    const agent = { authorization: `Bearer ${(made.json as { key: string }).key}`, 'content-type': 'application/json' };
    const body = 'measured on its way to the bus';

    const sendToRelay = (title: string) =>
      request(`${relay.baseUrl}/v1/notify`, { method: 'POST', headers: agent, body: JSON.stringify({ title, body, timeoutSeconds: 2 }) });
    const sendLocally = (title: string) =>
      daemon.call('POST', '/v1/notify', { app: 'bench', title, body, timeout: 2, buttons: [{ label: 'Reply', reply: {} }] });
    /** One notification: from sending to its Notify on the bus, and to the sender's answer. */
    const round = async (send: (title: string) => Promise<{ status: number }>, title: string, expected: number) => {
      const started = now();
      const answer = await send(title);
      const done = now();
      if (answer.status !== expected) throw new Error(`notify answered ${answer.status}, not ${expected}`);
      return { onBus: (await monitor.crossed(title)) - started, answered: done - started };
    };

    const relayed = { onBus: [] as number[], answered: [] as number[] };
    const direct = { onBus: [] as number[], answered: [] as number[] };
    for (let index = -WARM_UP; index < rounds; index++) {
      const viaRelay = await round(sendToRelay, `relayed ${index}`, 202);
      const locally = await round(sendLocally, `local ${index}`, 200);
      if (index >= 0) {
        relayed.onBus.push(viaRelay.onBus);
        relayed.answered.push(viaRelay.answered);
        direct.onBus.push(locally.onBus);
        direct.answered.push(locally.answered);
      }
      if (index % 50 === 49) await desktop.dunstctl('close-all');
    }

    console.log(`\n${rounds} rounds after ${WARM_UP} unmeasured ones; each round one relayed and one local notification\n`);
    printPercentiles([
      ['local POST /v1/notify answered (baseline)', direct.answered],
      ['local POST /v1/notify -> Notify (baseline)', direct.onBus],
      ['relay POST /v1/notify answered (202)', relayed.answered],
      ['relay POST /v1/notify -> Notify on the bus', relayed.onBus],
    ]);
    const p50 = percentile(relayed.onBus, 50);
    console.log(`\nrelay -> Notify vs local -> Notify, p50: ${ratio(p50 / percentile(direct.onBus, 50))}`);
    console.log(`relay -> Notify p50 = ${ms(p50)} (target < ${TARGET_P50_MS} ms): ${verdict(p50 < TARGET_P50_MS)}`);
  },
});
