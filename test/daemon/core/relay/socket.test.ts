// The computer's socket to its relay (docs/api/relay-connection.md#rl10 to #rl12), in-process against a relay of the test's
// own over a real WebSocket: online at the first frame, `ping` every 300 s, the reconnect delays (1 s doubling to
// 5 min, each ±20 %), `Retry-After` of a limiting relay, and a rejected token that stops the attempts.

import { afterEach, describe, expect, jest, test } from '@jest/globals';
import {
  BACKOFF_JITTER,
  MAX_BACKOFF_SECONDS,
  reconnectDelaySeconds,
  RelaySocket,
  retryAfterSeconds,
} from '../../../../daemon/core/relay/socket.js';
import { FakeRelay } from '../../../helpers/fake-relay.js';
import { eventually } from '../../../helpers/in-process.js';

const sockets: RelaySocket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.stop();
  jest.useRealTimers();
});

/** A socket to `relay` that counts the frames it is given. */
function socketTo(relay: FakeRelay, pingSeconds?: number) {
  const frames: string[] = [];
  const socket = new RelaySocket({
    url: `${relay.url.replace(/^http/, 'ws')}/v1/device/stream`,
    relayURL: relay.url,
    token: relay.token,
    ...(pingSeconds ? { pingSeconds } : {}),
    events: { online: () => undefined, frame: (text) => frames.push(text), offline: () => undefined },
  });
  sockets.push(socket);
  return { socket, frames };
}

/** Seconds from now until the socket's next attempt. */
const waitSeconds = (socket: RelaySocket) => (socket.nextAttemptAt! - Date.now()) / 1000;

describe('the reconnect delay', () => {
  test('1 s, 2 s, 4 s ... up to 5 min, each times a factor between 0.8 and 1.2', () => {
    expect([0, 1, 2, 3, 8, 9, 30].map((attempt) => reconnectDelaySeconds(attempt, () => 0.5))).toEqual([1, 2, 4, 8, 256, 300, 300]);
    expect(reconnectDelaySeconds(2, () => 0)).toBeCloseTo(4 * BACKOFF_JITTER.min);
    expect(reconnectDelaySeconds(2, () => 1)).toBeCloseTo(4 * BACKOFF_JITTER.max);
    expect(MAX_BACKOFF_SECONDS).toBe(300);
    // Real randomness: spread over the whole band, never outside it.
    const delays = Array.from({ length: 2000 }, () => reconnectDelaySeconds(0));
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(0.8);
    expect(Math.max(...delays)).toBeLessThanOrEqual(1.2);
    expect(Math.min(...delays)).toBeLessThan(0.85);
    expect(Math.max(...delays)).toBeGreaterThan(1.15);
  });

  test('Retry-After in seconds or as a date', () => {
    const now = Date.parse('2026-11-20T12:00:00Z');
    expect(retryAfterSeconds('120', now)).toBe(120);
    expect(retryAfterSeconds('Fri, 20 Nov 2026 12:01:30 GMT', now)).toBe(90);
    expect(retryAfterSeconds(undefined, now)).toBeUndefined();
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
  });
});

describe('the socket', () => {
  test('a relay that fails: the next attempt after about 1 s, then about 2 s', async () => {
    const relay = await FakeRelay.start();
    relay.refuse = { status: 500 };
    const { socket } = socketTo(relay);
    socket.start();
    await eventually(() => socket.state === 'offline' && socket.nextAttemptAt !== undefined, 'the first failure');
    expect(socket.lastProblem).toBe('the relay answered 500 to the socket');
    const first = waitSeconds(socket);
    expect(first).toBeGreaterThan(0.7);
    expect(first).toBeLessThanOrEqual(1.2);
    await eventually(() => relay.attempts === 2 && socket.state === 'offline', 'the second attempt', 3000);
    const second = waitSeconds(socket);
    expect(second).toBeGreaterThan(1.5);
    expect(second).toBeLessThanOrEqual(2.4);
  });

  test("a limiting relay's Retry-After is honoured; the network coming back tries at once", async () => {
    const relay = await FakeRelay.start();
    relay.refuse = { status: 429, retryAfter: 120 };
    const { socket } = socketTo(relay);
    socket.start();
    await eventually(() => socket.state === 'limited', 'the refusal');
    expect(waitSeconds(socket)).toBeGreaterThan(119);
    expect(socket.lastProblem).toBe('the relay is limiting this computer (429)');
    // Without Retry-After a limited computer still waits longer than a failing one: the delay 3 attempts later.
    relay.refuse = { status: 503 };
    socket.reconnectNow();
    await eventually(() => relay.attempts === 2 && socket.state === 'limited', 'the second refusal');
    expect(waitSeconds(socket)).toBeGreaterThan(8 * BACKOFF_JITTER.min - 0.1);
    relay.refuse = null;
    socket.reconnectNow();
    await eventually(() => socket.online, 'online');
    expect(socket.nextAttemptAt).toBeUndefined();
  });

  test('a rejected token stops the attempts until the computer pairs again', async () => {
    const relay = await FakeRelay.start();
    relay.refuse = { status: 401 };
    const { socket } = socketTo(relay);
    socket.start();
    await eventually(() => socket.state === 'rejected', 'the rejection');
    expect(socket.nextAttemptAt).toBeUndefined();
    socket.reconnectNow(); // a wake-up does not retry a rejected token
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect([relay.attempts, socket.state]).toEqual([1, 'rejected']);
  });

  test('online once the first frame arrives; then `ping` every 300 s', async () => {
    // Only the interval is the test's: the socket's network and its other timers run for real.
    jest.useFakeTimers({
      doNotFake: [
        'setTimeout',
        'clearTimeout',
        'setImmediate',
        'clearImmediate',
        'nextTick',
        'queueMicrotask',
        'Date',
        'hrtime',
        'performance',
      ],
    });
    const relay = await FakeRelay.start();
    const { socket, frames } = socketTo(relay);
    socket.start();
    await eventually(() => socket.online, 'online');
    expect(frames.map((frame) => JSON.parse(frame).type)).toEqual(['welcome']);
    const pings = () => relay.received.filter((item) => item.frame === 'ping').length;
    jest.advanceTimersByTime(299_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(pings()).toBe(0);
    jest.advanceTimersByTime(1_000);
    await eventually(() => pings() === 1, 'the first ping');
    jest.advanceTimersByTime(300_000);
    await eventually(() => pings() === 2, 'the second ping');
    expect(frames).toHaveLength(1); // `pong` is not a frame
    expect(socket.online).toBe(true);
  });
});
