// GET /metrics (docs/relay.md, "Metrics"): a real relay process scraped over HTTP. The token rule on the main
// port, the separate listener, 404 when neither is configured; counters that move after real actions (a notify
// accepted, deduplicated, refused by reason; a computer connected over the device stream; a receipt read; reply
// events to real webhooks delivered, retried, given up and gone, on both backends); and no label value that is an
// id or a path.

import { describe, expect, test } from '@jest/globals';
import { waitFor } from '../helpers/daemon.js';
import { DeviceSocket } from '../helpers/device-socket.js';
import { freePort, request } from '../helpers/http.js';
import { authorizeAndApprove, exchange, openComputer, postForm, register } from '../helpers/oauth.js';
import { parseMetrics, scrape as scrapeWith, valueOf, type Sample } from '../helpers/metrics.js';
import { BACKENDS, pairWithKey, startRelay, useRelay, type RelayProcess } from '../helpers/relay.js';
import { PACKAGE_VERSION } from '../helpers/support.js';
import { echoChallenge, subscribeHook, useWebhookRig, type WebhookAnswer } from '../helpers/webhooks.js';

const rig = useWebhookRig();

const TOKEN = 'metrics-token-for-the-test-0123456789';

const scrape = (relay: RelayProcess): Promise<Sample[]> => scrapeWith(relay, TOKEN);

const notify = (relay: RelayProcess, key: string, body: object) => relay.call('POST', '/v1/notify', { token: key, body });

describe.each(BACKENDS)('metrics on the main port with RELAY_METRICS_TOKEN (%s)', (backend) => {
  const relay = useRelay({ backend, env: { RELAY_METRICS_TOKEN: TOKEN, RATE_LIMIT_PER_KEY: '2' } });

  test('without the token, or with a wrong one, /metrics is 401 unauthorized; with it, the process metrics', async () => {
    for (const token of [undefined, `${TOKEN}x`, 'short']) {
      const refused = await relay().call('GET', '/metrics', token === undefined ? {} : { token });
      expect([refused.status, refused.json?.error]).toEqual([401, 'unauthorized']);
      expect(refused.text).not.toContain('process_cpu');
    }
    const samples = await scrape(relay());
    expect(valueOf(samples, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(samples.some((s) => s.name === 'nodejs_heap_size_used_bytes')).toBe(true);
    expect(valueOf(samples, 'relay_build_info', { version: PACKAGE_VERSION, node_version: process.version })).toBe(1);
  });

  test('notifications accepted, deduplicated and refused by reason; requests by route; transactions timed', async () => {
    const device = await pairWithKey(relay());
    const before = await scrape(relay());
    expect((await notify(relay(), device.key, { title: 'one', notificationId: 'n1' })).status).toBe(202);
    expect((await notify(relay(), device.key, { title: 'one again', notificationId: 'n1' })).status).toBe(200);
    expect((await notify(relay(), device.key, { title: 'two' })).status).toBe(202);
    const limited = await notify(relay(), device.key, { title: 'three' });
    expect(limited.json.error).toBe('rate_limited');
    expect((await notify(relay(), device.key, { title: 'four', colour: 'red' })).json.error).toBe('forbidden_fields');
    const after = await scrape(relay());

    const moved = (name: string, labels: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(moved('relay_notifications_total', { outcome: 'accepted' })).toBe(2);
    expect(moved('relay_notifications_total', { outcome: 'deduplicated' })).toBe(1);
    expect(moved('relay_notifications_total', { outcome: 'refused' })).toBe(2);
    expect(moved('relay_notifications_refused_total', { reason: 'rate_limited' })).toBe(1);
    expect(moved('relay_notifications_refused_total', { reason: 'forbidden_fields' })).toBe(1);
    expect(moved('relay_queue_depth', {})).toBe(2);
    expect(moved('relay_http_requests_total', { route: '/v1/notify', method: 'POST', status: '202' })).toBe(2);
    expect(moved('relay_http_requests_total', { route: '/v1/notify', method: 'POST', status: '429' })).toBe(1);
    expect(moved('relay_http_request_duration_seconds_count', { route: '/v1/notify' })).toBe(5);
    expect(moved('relay_db_transaction_duration_seconds_count', { kind: 'device' })).toBeGreaterThanOrEqual(4);
    // The pool's gauges are there on PostgreSQL only; a connection is in use or idle once queries ran; no
    // request waits once every one was answered.
    const pool = after.filter((s) => s.name === 'relay_db_pool_connections');
    if (backend === 'postgres') {
      expect(
        valueOf(after, 'relay_db_pool_connections', { state: 'idle' }) + valueOf(after, 'relay_db_pool_connections', { state: 'in_use' }),
      ).toBeGreaterThan(0);
    } else expect(pool).toEqual([]);
    expect(after.filter((s) => s.name === 'relay_db_requests_queued')).toEqual([expect.objectContaining({ value: 0 })]);
  });

  test('a computer connected over the device stream is counted, gets its notification, and is uncounted when it leaves', async () => {
    const device = await pairWithKey(relay());
    const before = await scrape(relay());
    const socket = await DeviceSocket.online(relay().port, device.token);
    expect((await notify(relay(), device.key, { title: 'to the stream' })).status).toBe(202);
    const frame = await socket.waitFor((f) => typeof f === 'object' && f.type === 'notify', 'the notification');
    const connected = await scrape(relay());
    expect(valueOf(connected, 'relay_connected_computers') - valueOf(before, 'relay_connected_computers')).toBe(1);
    expect(valueOf(connected, 'relay_notifications_delivered_total') - valueOf(before, 'relay_notifications_delivered_total')).toBe(1);

    // The ack is counted, and the notification leaves the queue.
    socket.send({ type: 'ack', id: (frame as { id: string }).id });
    await waitFor(async () => {
      const now = await scrape(relay());
      return valueOf(now, 'relay_receipts_total', { kind: 'ack' }) - valueOf(before, 'relay_receipts_total', { kind: 'ack' }) === 1
        ? now
        : undefined;
    }, 'the ack to be counted');
    expect(valueOf(await scrape(relay()), 'relay_queue_depth')).toBe(valueOf(before, 'relay_queue_depth'));

    await socket.close();
    await waitFor(
      async () =>
        valueOf(await scrape(relay()), 'relay_connected_computers') === valueOf(before, 'relay_connected_computers') ? true : undefined,
      'the gauge to go down after the socket closed',
    );
  });

  test('OAuth grants by grant type and outcome: granted, invalid_grant, unsupported_grant_type; no client id in a label', async () => {
    const device = await openComputer(relay());
    const client = (await register(relay())).client_id as string;
    const before = await scrape(relay());
    const { code, verifier } = await authorizeAndApprove(relay(), device.token, client, { device: device.index });
    expect((await exchange(relay(), client, code, verifier)).status).toBe(200);
    expect((await exchange(relay(), client, code, verifier)).json.error).toBe('invalid_grant');
    expect((await postForm(relay(), '/token', { grant_type: 'password', client_id: client })).json.error).toBe('unsupported_grant_type');
    const after = await scrape(relay());
    const moved = (labels: Record<string, string>) =>
      valueOf(after, 'relay_oauth_grants_total', labels) - valueOf(before, 'relay_oauth_grants_total', labels);
    expect(moved({ grant: 'authorization_code', outcome: 'granted' })).toBe(1);
    expect(moved({ grant: 'authorization_code', outcome: 'invalid_grant' })).toBe(1);
    expect(moved({ grant: 'other', outcome: 'unsupported_grant_type' })).toBe(1);
    const values = after.flatMap((s) => Object.values(s.labels));
    expect(values.filter((value) => value.includes(client) || value.includes('password') || value.includes('Test connector'))).toEqual([]);
    await device.socket.close();
  });

  test('no label value is an id, a key or a path: receipts count under their route pattern', async () => {
    const device = await pairWithKey(relay());
    const sent = await notify(relay(), device.key, { title: 'receipt', notificationId: 'label-check-id' });
    expect(sent.status).toBe(202);
    expect((await relay().call('GET', `/v1/receipts/label-check-id`, { token: device.key })).status).toBe(200);
    expect((await relay().call('GET', `/no/such/${device.deviceId}`)).status).toBe(404);
    expect((await relay().call('GET', '/healthz')).status).toBe(200);
    const samples = await scrape(relay());
    // A route with two spellings counts under both, as the log names it (it was once counted as unmatched).
    expect(valueOf(samples, 'relay_http_requests_total', { route: '/health|/healthz', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, 'relay_http_requests_total', { route: '/v1/receipts/:id', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, 'relay_http_requests_total', { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    const values = samples.filter((s) => s.name.startsWith('relay_')).flatMap((s) => Object.values(s.labels));
    for (const value of values) {
      for (const secret of [device.deviceId, device.token, device.key, 'label-check-id', 'no/such']) expect(value).not.toContain(secret);
      // A route label is a pattern (several spellings of one route joined by |): every piece after a slash is a fixed
      // word or a :parameter.
      if (value.startsWith('/')) for (const spelling of value.split('|')) expect(spelling).toMatch(/^(\/([a-z0-9._-]+|:[a-zA-Z]+))+\/?$/);
    }
  });
});

describe('where /metrics is served', () => {
  test('with neither RELAY_METRICS_TOKEN nor RELAY_METRICS_PORT, /metrics on the main port is 404 not_found', async () => {
    const relay = await startRelay({ backend: 'sqlite' });
    try {
      const reply = await relay.call('GET', '/metrics', { token: TOKEN });
      expect([reply.status, reply.json.error]).toEqual([404, 'not_found']);
    } finally {
      await relay.stop();
    }
  });

  test('RELAY_METRICS_PORT: a second listener on 127.0.0.1 serves /metrics without a token; the main port does not', async () => {
    const port = await freePort();
    const relay = await startRelay({ backend: 'sqlite', env: { RELAY_METRICS_PORT: String(port) } });
    try {
      const scraped = await request(port, 'GET', '/metrics');
      expect(scraped.status).toBe(200);
      expect(parseMetrics(scraped.text).some((s) => s.name === 'relay_connected_computers')).toBe(true);
      expect((await request(port, 'GET', '/health')).status).toBe(404);
      expect((await relay.call('GET', '/metrics')).status).toBe(404);
      expect(relay.log()).toContain(`metrics on http://127.0.0.1:${port}/metrics`);
    } finally {
      await relay.stop();
    }
  });

  test('a short RELAY_METRICS_TOKEN or a RELAY_METRICS_PORT that is not a port stops the relay at start, naming both', async () => {
    await expect(startRelay({ backend: 'sqlite', env: { RELAY_METRICS_TOKEN: 'short', RELAY_METRICS_PORT: 'nine' } })).rejects.toThrow(
      /RELAY_METRICS_PORT must be a port number[\s\S]*RELAY_METRICS_TOKEN must have at least 16 characters/,
    );
  });
});

/** RA210: a wait longer than the 24 hours an event is tried for: the relay gives the event up at once. */
const A_DAY_AND_MORE_S = String(25 * 3600);

describe.each(BACKENDS)('reply events over real webhooks (%s)', (backend) => {
  test('delivered, retried on a 500, given up when the next try would pass 24 hours, gone on a 410: counted, timed, gauged', async () => {
    const relay = await startRelay({ backend, env: { ...rig().env, RELAY_METRICS_TOKEN: TOKEN } });
    try {
      const device = await pairWithKey(relay);
      const [good, failing, givingUp, gone] = [
        rig().hook(`/metrics/${backend}/good`),
        rig().hook(`/metrics/${backend}/failing`, 'agent.example.org'),
        rig().hook(`/metrics/${backend}/giving-up`, 'elsewhere.example.net'),
        rig().hook(`/metrics/${backend}/gone`),
      ];
      const answers = new Map<string, WebhookAnswer>([
        [failing!.path, { status: 500 }],
        [givingUp!.path, { status: 503, headers: { 'retry-after': A_DAY_AND_MORE_S } }],
        [gone!.path, { status: 410 }],
      ]);
      rig().receiver.answer = (request) =>
        request.json?.type === 'verification' ? echoChallenge(request) : (answers.get(request.path) ?? echoChallenge(request));
      for (const hook of [good!, failing!, givingUp!, gone!])
        expect((await subscribeHook(relay, device.key, hook)).json.result.id).toMatch(/^sub_/);
      const socket = await DeviceSocket.online(relay.port, device.token);
      const before = await scrape(relay);

      const sent = await notify(relay, device.key, { title: 'Deploy?', notificationId: 'ask-1', expectReply: true });
      expect(sent.status).toBe(202);
      const frame = await socket.notifyFrame('ask-1');
      socket.send({ type: 'receipt', id: frame.id, kind: 'replied', text: 'yes' });

      const moved = (after: Sample[], name: string, labels: Record<string, string> = {}) =>
        valueOf(after, name, labels) - valueOf(before, name, labels);
      const outcomes = ['delivered', 'retried', 'given_up', 'gone'];
      // The attempt is counted as it ends, its row written in the transaction after: wait for both.
      const after = await waitFor(async () => {
        const now = await scrape(relay);
        const counted = outcomes.every((outcome) => moved(now, 'relay_reply_events_total', { outcome }) >= 1);
        return counted && valueOf(now, 'relay_reply_events_waiting') === 1 ? now : undefined; // only the failed one waits, for its retry
      }, 'one delivery, one retry, one given up and one gone, and only the retry waiting');
      expect(outcomes.map((outcome) => moved(after, 'relay_reply_events_total', { outcome }))).toEqual([1, 1, 1, 1]);
      expect(moved(after, 'relay_reply_events_queued_total')).toBe(4);
      expect(moved(after, 'relay_webhook_duration_seconds_count')).toBe(4);
      expect(moved(after, 'relay_receipts_total', { kind: 'receipt' })).toBe(1);
      await socket.close();
    } finally {
      rig().receiver.answer = echoChallenge;
      await relay.stop();
    }
  });
});
