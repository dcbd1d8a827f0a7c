// From POST /v1/notify to the Notify call on the session bus, with a real notification server (dunst on Xvfb); and
// the same for the request Apprise sends to ntfy's dialect with a sending key (docs/senders.md), round by round.
//   npm run bench:bus [-- --rounds 300]
// dbus-monitor stamps every Notify call with the time it crossed the bus; the benchmark stamps the moment it
// sent the request. Both are wall-clock times of this machine. Baseline in the same run: GET /v1/health.

import { monitorNotify, wallClockMs as now } from '../rigs/notify-monitor.js';
import { defineBenchmark } from './lib.js';
import { request } from './kit/http.js';
import { ms, percentile, printPercentiles, verdict } from './kit/print.js';

const WARM_UP = 30;
const TARGET_P50_MS = 10;
/** Issue 33: an Apprise notification on dunst, p50 under 20 ms after the request. */
const APPRISE_TARGET_P50_MS = 20;

/**
 * The request Debian's apprise 1.2 sends for `apprise -t T -b B ntfy://notifier:KEY@host/backups` (seen on the
 * wire): `POST /` with ntfy's JSON, Basic credentials, and its headers.
 */
function appriseRequest(key: string, title: string): { headers: Record<string, string>; body: string } {
  return {
    headers: {
      'User-Agent': 'Apprise',
      'Content-Type': 'application/json',
      Authorization: `Basic ${Buffer.from(`notifier:${key}`).toString('base64')}`,
    },
    body: JSON.stringify({ topic: 'bench-apprise', title, message: 'measured on its way to the bus' }),
  };
}

await defineBenchmark({
  title: 'Notifier benchmark: POST /v1/notify -> Notify on the session bus (dunst on Xvfb)',
  options: { rounds: 300 },
  needs: { desktop: true, daemon: { onDesktop: true } },
  async measure({ options: { rounds }, desktop, daemon, atEnd }) {
    const monitor = await monitorNotify(desktop.env);
    atEnd(() => monitor.stop());
    const post = (title: string, id: string) =>
      daemon.call('POST', '/v1/notify', { app: 'bench', id, title, body: 'measured on its way to the bus', timeout: 2 });
    const made = await daemon.call('POST', '/v1/keys', { app: 'bench-apprise' });
    const key = (JSON.parse(made.body) as { key: string }).key;
    const viaApprise = (title: string) => request(`${daemon.baseUrl}/`, { method: 'POST', ...appriseRequest(key, title) });
    const apprise: number[] = [];

    const health: number[] = [];
    const answered: number[] = [];
    const onBus: number[] = [];
    for (let round = -WARM_UP; round < rounds; round++) {
      const title = `bench round ${round}`;
      const started = now();
      const answer = await post(title, `r${round % 50}`);
      const done = now();
      if (answer.status !== 200) throw new Error(`notify answered ${answer.status}`);
      const crossed = await monitor.crossed(title);
      const probe = now();
      await request(`${daemon.baseUrl}/v1/health`);
      const appriseTitle = `apprise round ${round}`;
      const appriseStarted = now();
      const appriseAnswer = await viaApprise(appriseTitle);
      if (appriseAnswer.status !== 200) throw new Error(`the Apprise request answered ${appriseAnswer.status}: ${appriseAnswer.body}`);
      const appriseCrossed = await monitor.crossed(appriseTitle);
      if (round >= 0) {
        answered.push(done - started);
        onBus.push(crossed - started);
        health.push(now() - probe);
        apprise.push(appriseCrossed - appriseStarted);
      }
      if (round % 50 === 49) await desktop.dunstctl('close-all');
    }

    console.log(`\n${rounds} sequential notifications after ${WARM_UP} unmeasured ones, reused ids (in-place replaces) mixed in\n`);
    printPercentiles([
      ['GET /v1/health round trip (baseline)', health],
      ['POST /v1/notify answered (durable)', answered],
      ['POST /v1/notify -> Notify on the bus', onBus],
      ["Apprise's ntfy request (POST /, a key) -> Notify on the bus", apprise],
    ]);
    const p50 = percentile(onBus, 50);
    console.log(`\nnotify -> Notify p50 = ${ms(p50)} (target < ${TARGET_P50_MS} ms): ${verdict(p50 < TARGET_P50_MS)}`);
    const apprise50 = percentile(apprise, 50);
    console.log(
      `Apprise -> Notify p50 = ${ms(apprise50)} (target < ${APPRISE_TARGET_P50_MS} ms): ${verdict(apprise50 < APPRISE_TARGET_P50_MS)}`,
    );
  },
});
