// ntfy's and Gotify's dialects at the relay's root (docs/relay-api.md#ra70, docs/senders.md), end to end with real
// parts: the relay as a process, the built daemon paired with it and showing banners on dunst (Xvfb, a private
// session bus), and Debian's `apprise` with an agent key. A notification published in a dialect reaches the key's
// computer as that key's, with its topic; it counts in the relay's metrics and has its receipt; refusals are in the
// dialect's shape; a topic never reaches another computer; apprise's ntfys:// reaches it through a TLS front.

import { execFile } from 'node:child_process';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { CLI, startDaemon, tempFolder } from '../helpers/daemon.js';
import { bannerOnDunst, useDesktopDaemon } from '../helpers/desktop.js';
import { eventually } from '../helpers/in-process.js';
import { scrape, valueOf } from '../helpers/metrics.js';
import { runProgram } from '../helpers/process.js';
import { makeKey, pairDevice, tampered, useRelay } from '../helpers/relay.js';
import { makeCertificates } from '../../rigs/webhooks.js';

const run = promisify(execFile);
const METRICS_TOKEN = 'dialects-metrics-token';

describe("the dialects at the relay's root", () => {
  const { desktop, daemon } = useDesktopDaemon((desktop) => startDaemon({ env: desktop.env, presenter: 'dbus', tray: false }));
  const relay = useRelay({ backend: 'sqlite', env: { RELAY_METRICS_TOKEN: METRICS_TOKEN } });
  let key = '';

  beforeAll(async () => {
    const paired = await runProgram(process.execPath, [CLI, 'relay', 'pair', relay().baseUrl], {
      env: { NOTIFIER_SUPPORT_DIR: daemon().supportDir },
    });
    expect(paired.code).toBe(0);
    await eventually(async () => (await daemon().api('GET', '/v1/relay/status')).json.online === true, 'the socket to be online');
    key = (await daemon().api('POST', '/v1/relay/keys', { body: { name: 'ci-bot' } })).json.key;
  }, 60_000);

  const apprise = (...args: string[]) => run('apprise', ['-vv', ...args], { env: { ...process.env, HOME: daemon().supportDir } });
  /** The newest record of the key's app on the computer, once one titled `title` is there. */
  const arrived = (title: string) =>
    eventually(async () => {
      const items = (await daemon().api('GET', '/v1/history?app=cloud.ci-bot')).json.items as any[];
      return items.find((item) => item.notification.title === title);
    }, `"${title}" on the computer`);
  const publish = (method: string, route: string, headers: Record<string, string>, body?: string) =>
    relay().call(method, route, { headers: { 'Content-Type': 'text/plain', ...headers }, ...(body !== undefined ? { body } : {}) });

  test("apprise's ntfy:// URL with an agent key: a banner on dunst as the key's, with the topic; a row in History", async () => {
    await desktop().dunstctl('close-all');
    const port = new URL(relay().baseUrl).port;
    await apprise(
      '-t',
      'Deploy finished',
      '-b',
      'v2.3 is live',
      `ntfy://notifier:${key}@127.0.0.1:${port}/deploys?priority=high&tags=rocket,prod`,
    );
    const banner = await bannerOnDunst(desktop(), '🚀 Deploy finished');
    expect(banner.appname).toBe('ci-bot');
    const record = await arrived('🚀 Deploy finished');
    expect(record.notification).toMatchObject({
      app: 'cloud.ci-bot',
      subtitle: 'deploys',
      body: 'v2.3 is live',
      priority: 'high',
      metadata: { source: 'cloud-relay', relayKey: 'ci-bot', project: 'deploys', tags: ['prod'] },
    });
  });

  test("apprise's ntfys:// URL through a TLS front, as a relay on the Internet is reached, with the certificate checked", async () => {
    const certificates = await makeCertificates(await tempFolder('notifier-tls-'), ['localhost']);
    // The TLS front a relay stands behind: it passes each request on to the relay as it came.
    const front = https.createServer({ key: certificates.key, cert: certificates.cert }, (req, res) => {
      const upstream = http.request(
        { host: '127.0.0.1', port: relay().port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    try {
      const port = (front.address() as AddressInfo).port;
      await run('apprise', ['-vv', '-t', 'Release signed', '-b', 'over TLS', `ntfys://notifier:${key}@localhost:${port}/releases`], {
        env: { ...process.env, HOME: daemon().supportDir, REQUESTS_CA_BUNDLE: certificates.caFile },
      });
      expect((await arrived('Release signed')).notification).toMatchObject({ subtitle: 'releases', body: 'over TLS' });
    } finally {
      await new Promise((resolve) => front.close(resolve));
    }
  });

  test("apprise's gotify:// URL with an agent key reaches the computer too", async () => {
    const port = new URL(relay().baseUrl).port;
    await apprise('-t', 'Nightly backup', '-b', 'done in 4 minutes', `gotify://127.0.0.1:${port}/${key}`);
    expect((await arrived('Nightly backup')).notification).toMatchObject({ app: 'cloud.ci-bot', body: 'done in 4 minutes' });
  });

  test("curl's forms: Basic, ?auth=, a view action as the link; the answer is ntfy's message with the receipt's id, counted", async () => {
    const accepted = async () => valueOf(await scrape(relay(), METRICS_TOKEN), 'relay_notifications_total', { outcome: 'accepted' });
    const before = await accepted();
    const basic = `Basic ${Buffer.from(`:${key}`).toString('base64')}`;
    const reply = await publish(
      'POST',
      '/builds',
      { Authorization: basic, Title: 'Build 812 passed', Actions: 'view, Open log, https://ci.example/812' },
      'All 318 tests passed',
    );
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ event: 'message', topic: 'builds', title: 'Build 812 passed', message: 'All 318 tests passed' });
    expect((await arrived('Build 812 passed')).notification).toMatchObject({ url: 'https://ci.example/812', subtitle: 'builds' });
    const receipt = await relay().call('GET', `/v1/receipts/${reply.json.id}`, { token: key });
    expect(receipt.status).toBe(200);
    expect(await accepted()).toBe(before + 1);

    const auth = Buffer.from(`Bearer ${key}`).toString('base64url');
    const byGet = await relay().call('GET', `/builds/publish?message=Webhook+fired&auth=${auth}`);
    expect(byGet.status).toBe(200);
    await arrived('Webhook fired');
  });

  test("refusals in the dialect's shape: no key, a wrong key, an http action, a reserved topic, a delay too long; nothing reaches the computer", async () => {
    const cases: Array<[string, Promise<any>, number, number]> = [
      ['no key', publish('POST', '/builds', {}, 'x'), 401, 40101],
      ['a wrong key', publish('POST', '/builds', { Authorization: `Bearer ${tampered(key)}` }, 'x'), 401, 40101],
      [
        'an http action',
        publish('POST', '/builds', { Authorization: `Bearer ${key}`, Actions: 'http, Retry, https://ci.example/retry' }, 'x'),
        400,
        40018,
      ],
      ['a reserved topic', publish('PUT', '/docs', { Authorization: `Bearer ${key}` }, 'x'), 400, 40010],
      ['a delay over 3 days', publish('POST', '/builds', { Authorization: `Bearer ${key}`, 'X-Delay': '4d' }, 'x'), 400, 40006],
    ];
    for (const [what, pending, http, code] of cases) {
      const reply = await pending;
      expect({ what, status: reply.status, body: reply.json }).toEqual({
        what,
        status: http,
        body: { code, http, error: expect.any(String) },
      });
    }
    const gotify = await relay().call('POST', '/message', { headers: { 'X-Gotify-Key': 'nope' }, body: { message: 'x' } });
    expect([gotify.status, gotify.json]).toEqual([401, { error: 'Unauthorized', errorCode: 401, errorDescription: expect.any(String) }]);
    const items = (await daemon().api('GET', '/v1/history?app=cloud.ci-bot')).json.items as any[];
    expect(items.filter((item) => item.notification.body === 'x')).toEqual([]);
  });

  test("a sequence id sent again takes the earlier one's place on the computer; a delayed publish waits there for its time", async () => {
    const bearer = { Authorization: `Bearer ${key}` };
    await publish('POST', '/backups', { ...bearer, Title: 'Backup running', 'X-Sequence-ID': 'nightly' }, 'at 40%');
    await arrived('Backup running');
    const done = await publish('POST', '/backups', { ...bearer, Title: 'Backup done', 'X-Sequence-ID': 'nightly' }, 'in 4 minutes');
    expect(done.json).toMatchObject({ event: 'message', sequence_id: 'nightly' });
    await arrived('Backup done');
    const items = (await daemon().api('GET', '/v1/history?app=cloud.ci-bot')).json.items as any[];
    expect(items.filter((item) => item.id === 'nightly').map((item) => item.notification.title)).toEqual(['Backup done']);

    const sentAt = Date.now();
    const later = await publish(
      'POST',
      '/reminders',
      { ...bearer, Title: 'Stretch your legs', 'X-Delay': '10s' },
      'you have sat for an hour',
    );
    // ntfy answers a delayed message with the time it shows.
    expect(later.status).toBe(200);
    expect(later.json.time * 1000).toBeGreaterThanOrEqual(Math.floor(sentAt / 1000) * 1000 + 9000);
    await eventually(
      async () =>
        ((await daemon().api('GET', '/v1/scheduled?app=cloud.ci-bot')).json.scheduled as any[]).some(
          (entry) => entry.title === 'Stretch your legs',
        ),
      'it waiting on the computer',
    );
    expect(
      ((await daemon().api('GET', '/v1/history?app=cloud.ci-bot')).json.items as any[]).map((item) => item.notification.title),
    ).not.toContain('Stretch your legs');
    const record = await eventually(
      async () =>
        ((await daemon().api('GET', '/v1/history?app=cloud.ci-bot')).json.items as any[]).find(
          (item) => item.notification.title === 'Stretch your legs',
        ),
      'it to show at its time',
      25_000,
    );
    expect(Date.parse(record.deliveredAt) - sentAt).toBeGreaterThanOrEqual(9000);
  }, 45_000);

  test("ntfy's clear and delete of a sequence id take the notification back on the computer, one waiting for its time included", async () => {
    const bearer = { Authorization: `Bearer ${key}` };
    const history = async () => (await daemon().api('GET', '/v1/history?app=cloud.ci-bot')).json.items as any[];
    const door = () => history().then((items) => items.find((item) => item.id === 'door-1'));
    await publish('POST', '/doors', { ...bearer, Title: 'Front door open', 'X-Sequence-ID': 'door-1' }, 'since 21:04');
    await arrived('Front door open');
    const cleared = await publish('PUT', '/doors/door-1/clear', bearer);
    expect([cleared.status, cleared.json]).toEqual([
      200,
      { id: 'door-1', time: expect.any(Number), event: 'message_clear', topic: 'doors', sequence_id: 'door-1' },
    ]);
    await eventually(async () => (await door())?.dismissedAt, 'its banner closed');
    const deleted = await publish('DELETE', '/doors/door-1', bearer);
    expect([deleted.status, deleted.json.event]).toEqual([200, 'message_delete']);
    await eventually(async () => (await door()) === undefined, 'it gone from History');

    const scheduled = async () => (await daemon().api('GET', '/v1/scheduled?app=cloud.ci-bot')).json.scheduled as any[];
    await publish('POST', '/doors', { ...bearer, Title: 'Lock the door', 'X-Sequence-ID': 'lock-1', 'X-Delay': '1h' }, 'at 23:00');
    await eventually(async () => (await scheduled()).some((entry) => entry.id === 'lock-1'), 'it waiting on the computer');
    expect((await publish('DELETE', '/doors/lock-1', bearer)).status).toBe(200);
    await eventually(async () => !(await scheduled()).some((entry) => entry.id === 'lock-1'), 'it cancelled');
    // The relay's own paths stay its own: a DELETE it does not serve is its 404, not a sequence id.
    const notOurs = await relay().call('DELETE', '/v1/nothing', { token: key });
    expect([notOurs.status, notOurs.json.error]).toEqual([404, 'not_found']);
  });

  test("a topic names nothing on the relay: another computer's key reaches only that computer", async () => {
    const other = await pairDevice(relay(), 'other-computer');
    const otherKey = await makeKey(relay(), other.token, 'other-bot');
    const reply = await publish('POST', '/builds', { Authorization: `Bearer ${otherKey}`, Title: 'For the other computer' }, 'not here');
    expect(reply.status).toBe(200);
    // This computer's own next notification arrives; the other's never does.
    await publish('POST', '/builds', { Authorization: `Bearer ${key}`, Title: 'For this computer' }, 'here');
    await arrived('For this computer');
    const titles = (await daemon().api('GET', '/v1/history?limit=500')).json.items.map((item: any) => item.notification.title);
    expect(titles).not.toContain('For the other computer');
  });
});
