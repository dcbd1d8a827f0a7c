// The webhook outbox's rules of time (docs/relay-api.md#ra208, #ra210), in-process with a clock and timers the
// test moves: the backoff (1 minute doubling to an hour, a longer Retry-After), the 8 attempts and 24 hours, the
// head of line, what each answer does, and that nothing waits on a timer while the outbox is empty. Deliveries
// are real: through a CONNECT proxy to a local TLS server that verifies them with `standardwebhooks`.

import { afterAll, afterEach, describe, expect, test } from '@jest/globals';
import { loadConfig } from '../../../relay/config.js';
import type { Scheduler } from '../../../relay/core/outbox.js';
import { startRelay, type RunningRelay } from '../../../relay/server.js';
import { tempFolder } from '../../helpers/daemon.js';
import { request } from '../../helpers/http.js';
import { echoChallenge, modernRequest, useWebhookRig, type WebhookAnswer, type WebhookReceiver } from '../../helpers/webhooks.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** The outbox's timers, fired when the test says the clock got there. */
class TestScheduler implements Scheduler {
  private readonly timers = new Map<number, { run: () => void; due: number }>();
  private next = 0;

  constructor(private readonly clock: { now: number }) {}

  set(run: () => void, ms: number): unknown {
    this.timers.set(++this.next, { run, due: this.clock.now + ms });
    return this.next;
  }

  clear(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  /** When the earliest timer is due (undefined: none is set). */
  nextDue(): number | undefined {
    const dues = [...this.timers.values()].map((timer) => timer.due);
    return dues.length === 0 ? undefined : Math.min(...dues);
  }

  /** Fires every timer due by now, one at a time; returns whether any fired. */
  fireDue(): boolean {
    const due = [...this.timers.entries()].filter(([, timer]) => timer.due <= this.clock.now).sort((a, b) => a[1].due - b[1].due)[0];
    if (!due) return false;
    this.timers.delete(due[0]);
    due[1].run();
    return true;
  }
}

const rig = useWebhookRig();

let running: RunningRelay | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
  rig().receiver.answer = answers.echo;
});

/** The receiver's usual answers (challenges echoed, events taken), restored after each test. */
const answers: { echo: WebhookReceiver['answer'] } = { echo: echoChallenge };
afterAll(() => {
  rig().receiver.clock = Date.now;
});

let paths = 0;

/** An in-process relay (embedded database) on the test's clock and timers, reaching the receiver through the proxy. */
async function outboxRelay(start = '2026-11-20T12:00:00Z') {
  const clock = { now: Date.parse(start) };
  const scheduler = new TestScheduler(clock);
  const config = loadConfig({ RELAY_PORT: '0', RELAY_DATA_DIR: await tempFolder('notifier-outbox-'), HTTPS_PROXY: rig().proxy.url });
  running = await startRelay(
    { ...config, secret: 'a'.repeat(64) },
    { clock: () => clock.now, scheduler, background: false, outbound: { extraCA: [rig().certificates.ca] } },
  );
  rig().receiver.clock = () => clock.now;
  const relay = running;
  const call = (method: string, path: string, token?: string, body?: unknown, headers?: Record<string, string>) =>
    request(relay.port, method, path, { token: token ?? null, body, headers });

  /** Fires the timers due by now (and those they set for now), waiting for each run's deliveries. */
  const settle = async () => {
    do await relay.outbox.idle();
    while (scheduler.fireDue());
    await relay.outbox.idle();
  };

  const started = await call('POST', '/v1/pair/start', undefined, {});
  const paired = await call('POST', '/v1/pair', undefined, { code: started.json.code });
  const device = { id: paired.json.deviceId as string, token: paired.json.deviceToken as string };
  const key = (await call('POST', '/v1/device/keys', device.token, { name: 'agent' })).json.key as string;

  const subscribeWith = async (cursor?: string) => {
    const hook = rig().hook(`/outbox/${++paths}`);
    const { body, headers } = modernRequest('events/subscribe', {
      name: 'notification.reply',
      delivery: { mode: 'webhook', url: hook.url, secret: hook.secret },
      ...(cursor !== undefined && { cursor }),
    });
    const answer = await call('POST', '/mcp', key, body, headers);
    expect(answer.json.result?.id).toBeDefined();
    return { hook, result: answer.json.result as { cursor: string; truncated: boolean } };
  };
  const subscribe = async () => (await subscribeWith()).hook;

  /** A notification from the key, answered by the computer (over HTTP): its reply event is queued. */
  const replied = async (notificationId: string) => {
    await call('POST', '/v1/notify', key, { title: 'Deploy?', notificationId, expectReply: true });
    const note = await relay.relay.store.db.selectFrom('notes').select('rid').where('nid', '=', notificationId).executeTakeFirstOrThrow();
    expect((await call('POST', '/v1/device/reply', device.token, { id: note.rid, text: 'yes' })).status).toBe(200);
  };

  const waiting = async () => (await call('GET', '/v1/device/events', device.token)).json.subscriptions[0]?.pending;

  return { clock, scheduler, settle, subscribe, subscribeWith, replied, waiting, relay };
}

/** The notificationIds of the events `path` received, in order. */
const delivered = (path: string): string[] =>
  rig()
    .receiver.on(path)
    .map((event) => event.json.data.notificationId);

/** Answers events on `path` with `statuses` in turn (then 200); challenges are echoed. */
function answerWith(path: string, statuses: Array<number | WebhookAnswer>): void {
  const queue = [...statuses];
  rig().receiver.answer = (request) => {
    if (request.path !== path || request.json?.type === 'verification') return answers.echo(request);
    const next = queue.shift() ?? 200;
    return typeof next === 'number' ? { status: next } : next;
  };
}

describe('the webhook outbox, on a clock', () => {
  test('503s are retried after 1, 2, 4, 8, 16, 32 and 60 minutes; the 8th failure gives the event up', async () => {
    const { clock, scheduler, settle, subscribe, replied, waiting } = await outboxRelay();
    await settle(); // the look at start-up
    expect(scheduler.nextDue()).toBeUndefined(); // an empty outbox sets no timer
    const hook = await subscribe();
    answerWith(hook.path, Array(8).fill(503));
    const queuedAt = clock.now;
    await replied('r1');
    expect(scheduler.nextDue()).toBe(clock.now); // woken at once by the commit
    await settle();
    const waits = [1, 2, 4, 8, 16, 32, 60].map((minutes) => minutes * MINUTE);
    let at = clock.now;
    for (const wait of waits) {
      expect(scheduler.nextDue()).toBe(at + wait); // nothing polls in between: one timer, for the retry
      clock.now = at + wait - SECOND;
      await settle();
      expect(rig().receiver.on(hook.path)).toHaveLength(waits.indexOf(wait) + 1); // not a second early
      clock.now = at = at + wait;
      await settle();
    }
    const attempts = rig().receiver.on(hook.path);
    expect(attempts).toHaveLength(8);
    expect(new Set(attempts.map((attempt) => attempt.headers['webhook-id'])).size).toBe(1);
    expect(attempts.map((attempt) => Number(attempt.headers['webhook-timestamp']) * 1000 - queuedAt)).toEqual([
      0,
      ...waits.map((_, i) => waits.slice(0, i + 1).reduce((a, b) => a + b)),
    ]);
    expect(attempts.every((attempt) => attempt.verified === true)).toBe(true);
    expect(await waiting()).toBe(0); // given up
    expect(scheduler.nextDue()).toBeUndefined(); // and nothing left to wake for
  });

  test('a longer Retry-After (seconds or a date) is used instead of the backoff; a shorter one is not', async () => {
    const { clock, scheduler, settle, subscribe, replied, waiting } = await outboxRelay();
    const hook = await subscribe();
    // Asked for at the third attempt (7 minutes in): a date 5 minutes after it.
    const inFiveMinutes = new Date(clock.now + 12 * MINUTE).toUTCString();
    answerWith(hook.path, [
      { status: 429, headers: { 'retry-after': '300' } },
      { status: 503, headers: { 'retry-after': '10' } },
      { status: 503, headers: { 'retry-after': inFiveMinutes } },
    ]);
    await replied('r1');
    await settle();
    expect(scheduler.nextDue()).toBe(clock.now + 5 * MINUTE); // 300 s beat 1 minute
    clock.now += 5 * MINUTE;
    await settle();
    expect(scheduler.nextDue()).toBe(clock.now + 2 * MINUTE); // 10 s did not beat 2 minutes
    clock.now += 2 * MINUTE;
    await settle();
    expect(scheduler.nextDue()).toBe(Date.parse(inFiveMinutes)); // a date 5 minutes ahead beat 4 minutes
    clock.now = scheduler.nextDue()!;
    await settle();
    expect(rig().receiver.on(hook.path)).toHaveLength(4);
    expect(await waiting()).toBe(0);
  });

  test('an event is given up when its next try would pass 24 hours after it was queued', async () => {
    const { clock, scheduler, settle, subscribe, replied, waiting } = await outboxRelay();
    const hook = await subscribe();
    const twentyHours = { status: 503, headers: { 'retry-after': String(20 * 3600) } };
    answerWith(hook.path, [twentyHours, twentyHours]);
    await replied('r1');
    await settle();
    expect(scheduler.nextDue()).toBe(clock.now + 20 * HOUR);
    clock.now += 20 * HOUR;
    await settle();
    expect(rig().receiver.on(hook.path)).toHaveLength(2);
    expect(await waiting()).toBe(0); // 40 hours would pass the day
    expect(scheduler.nextDue()).toBeUndefined();
  });

  test('head of line: a newer event waits while the oldest is retried, then they go in order; redirects, 408 and network errors are retried', async () => {
    const { clock, scheduler, settle, subscribe, replied, waiting } = await outboxRelay();
    const hook = await subscribe();
    answerWith(hook.path, [{ status: 302, headers: { location: 'https://hooks.example.com/elsewhere' } }, 408]);
    await replied('first');
    await settle();
    await replied('second');
    await settle();
    await replied('third');
    await settle();
    expect(delivered(hook.path)).toEqual(['first']); // the others wait behind it
    expect(await waiting()).toBe(3);
    clock.now += MINUTE;
    await settle();
    clock.now += 2 * MINUTE;
    await settle();
    expect(delivered(hook.path)).toEqual(['first', 'first', 'first', 'second', 'third']);
    expect(await waiting()).toBe(0);
    expect(scheduler.nextDue()).toBeUndefined();
  });

  test('a callback that cannot be reached is retried; 410 ends the subscription and drops what waits for it', async () => {
    const { clock, scheduler, settle, subscribe, replied, waiting, relay } = await outboxRelay();
    const hook = await subscribe();
    answerWith(hook.path, [503, 410]);
    await replied('a');
    await settle();
    await replied('b');
    await settle();
    // The proxy refuses this name: a network error, retried like a 503.
    const subs = () => relay.relay.store.db.updateTable('event_subs');
    await subs().set({ url: 'https://nowhere.example.com/x' }).execute();
    clock.now += MINUTE;
    await settle();
    expect(rig().proxy.targets.at(-1)).toBe('nowhere.example.com:443');
    expect(await waiting()).toBe(2);
    expect(scheduler.nextDue()).toBe(clock.now + 2 * MINUTE);
    await subs().set({ url: hook.url }).execute();
    clock.now += 2 * MINUTE;
    await settle();
    expect(delivered(hook.path)).toEqual(['a', 'a']); // b never went
    expect(await waiting()).toBeUndefined(); // the subscription is gone, with b
    expect(await relay.relay.store.db.selectFrom('event_outbox').selectAll().execute()).toEqual([]);
    expect(scheduler.nextDue()).toBeUndefined();
  });

  test('an event still unsent 24 hours after it was queued (the relay was down) is given up unsent', async () => {
    const { clock, scheduler, settle, subscribe, replied, waiting } = await outboxRelay();
    const hook = await subscribe();
    await replied('late');
    clock.now += 24 * HOUR;
    await settle();
    expect(rig().receiver.on(hook.path)).toEqual([]);
    expect(await waiting()).toBe(0);
    expect(scheduler.nextDue()).toBeUndefined();
  });

  test('events are kept 30 days: a cursor from before the oldest kept one replays what is left, and says it is truncated', async () => {
    const { clock, settle, subscribe, subscribeWith, replied, relay } = await outboxRelay();
    await subscribe();
    await replied('r1');
    await replied('r2');
    await settle();
    clock.now += 29 * 24 * HOUR;
    await replied('r3');
    await settle();
    clock.now += 1.5 * 24 * HOUR; // r1 and r2 are 30.5 days old, r3 1.5 days
    await relay.housekeeper.runDueTasks();
    const kept = await relay.relay.store.db.selectFrom('reply_events').select('nid').execute();
    expect(kept.map((event) => event.nid)).toEqual(['r3']);

    const fromStart = await subscribeWith('0');
    expect(fromStart.result).toMatchObject({ truncated: true, cursor: '3' });
    const fromTwo = await subscribeWith('2');
    expect(fromTwo.result).toMatchObject({ truncated: false, cursor: '3' });
    const none = await subscribeWith();
    expect(none.result).toMatchObject({ truncated: false, cursor: '3' });
    await settle();
    expect(delivered(fromStart.hook.path)).toEqual(['r3']);
    expect(delivered(fromTwo.hook.path)).toEqual(['r3']);
    expect(rig().receiver.on(none.hook.path)).toEqual([]);
  });
});
