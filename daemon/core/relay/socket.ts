// The computer's one WebSocket to its relay (docs/api/relay-connection.md#rl10 to #rl13): connect with the device token in
// the Authorization header, count as online once the first frame arrives, keep the socket alive with `ping`,
// and come back after a loss with a growing, jittered delay. Timers run only while the computer is paired (this
// object exists only then); nothing polls.

import WebSocket from 'ws';
import type { RelaySocketState } from '../../../protocol/app-api-relay.js';
import { PING, PONG } from '../../../protocol/relay/frames.js';
import { PING_INTERVAL_SECONDS } from '../../../protocol/relay/limits.js';
import { MAX_RELAY_MESSAGE_BYTES } from '../../../protocol/relay/inbound.js';
import { networkProblem } from './relay-calls.js';

/** RL12: the reconnect delay doubles from 1 s up to this. */
export const MAX_BACKOFF_SECONDS = 300;
/** RL12: each delay is the doubled one times a random factor in this range. */
export const BACKOFF_JITTER = { min: 0.8, max: 1.2 } as const;
/** RL12: a limited computer (429, 503) waits at least the delay this many attempts later. */
const LIMITED_EXTRA_ATTEMPTS = 3;
/** RL11: how long the relay has to answer a `ping` before the socket counts as dead. */
const PONG_TIMEOUT_MS = 30_000;
/** How long the handshake may take before the attempt counts as failed. */
const HANDSHAKE_TIMEOUT_MS = 15_000;

/** RL12: the delay before attempt `attempt` (0, 1, 2 ...): 1 s, 2 s, 4 s ... 300 s, each ±20 %. */
export function reconnectDelaySeconds(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(2 ** attempt, MAX_BACKOFF_SECONDS);
  return base * (BACKOFF_JITTER.min + (BACKOFF_JITTER.max - BACKOFF_JITTER.min) * random());
}

/** `Retry-After` in whole seconds (a date is read too); undefined when absent or unreadable. */
export function retryAfterSeconds(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(header) ? header[0] : header;
  if (!text) return undefined;
  if (/^\d+$/.test(text.trim())) return Number(text.trim());
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * `connecting`: an attempt is under way; `online`: the relay sent its first frame; `offline`: waiting to try
 * again; `limited`: the relay asked us to wait (429, 503); `rejected`: the relay refused the token (401, 403),
 * and nothing is tried until the computer pairs again; `stopped`: unpaired or shutting down.
 */
export type SocketState = RelaySocketState;

export interface SocketEvents {
  /** The first frame arrived: say hello, send what waited. */
  online(): void;
  /** A text frame other than `pong`. */
  frame(text: string): void;
  /** The socket closed or an attempt failed; `state` and `lastProblem` say why. */
  offline(): void;
}

export interface SocketOptions {
  /** The stream's address (wss://). */
  url: string;
  /** The relay's address as paired, which the person knows: `lastProblem` names it. */
  relayURL: string;
  token: string;
  events: SocketEvents;
  pingSeconds?: number;
}

export class RelaySocket {
  state: SocketState = 'offline';
  /** Why the last attempt failed or the socket closed, for the status route. */
  lastProblem: string | undefined;
  /** When the next attempt is due (epoch ms), while waiting. */
  nextAttemptAt: number | undefined;
  private ws: WebSocket | null = null;
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private pingTimer: NodeJS.Timeout | undefined;
  private pongTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: SocketOptions) {}

  start(): void {
    if (this.state === 'stopped') return;
    this.connect();
  }

  /** Unpaired, or the daemon stops: the socket closes and no timer is left. */
  stop(): void {
    this.state = 'stopped';
    this.clearTimers();
    this.drop();
  }

  /** RL13: the network came back or the computer woke up: try now, from the first delay again. */
  reconnectNow(): void {
    if (this.state === 'stopped' || this.state === 'rejected') return;
    this.attempt = 0;
    this.drop();
    this.connect();
  }

  get online(): boolean {
    return this.state === 'online';
  }

  /** Sends one text frame; resolves true once the socket took it, false when it is not online or the send failed. */
  send(text: string): Promise<boolean> {
    const ws = this.ws;
    if (!ws || this.state !== 'online' || ws.readyState !== WebSocket.OPEN) return Promise.resolve(false);
    return new Promise((resolve) => ws.send(text, (error) => resolve(!error)));
  }

  private connect(): void {
    this.clearTimers();
    this.state = 'connecting';
    this.nextAttemptAt = undefined;
    const ws = new WebSocket(this.options.url, {
      headers: { Authorization: `Bearer ${this.options.token}` },
      maxPayload: MAX_RELAY_MESSAGE_BYTES,
      handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
      perMessageDeflate: false,
      followRedirects: false,
    });
    this.ws = ws;
    let refusal: { status: number; retryAfter?: number } | undefined;
    ws.on('unexpected-response', (_request, response) => {
      refusal = { status: response.statusCode ?? 0, retryAfter: retryAfterSeconds(response.headers['retry-after']) };
      response.resume();
      ws.terminate();
    });
    ws.on('message', (data, isBinary) => {
      if (ws !== this.ws) return;
      if (this.state === 'connecting') this.cameOnline();
      if (isBinary) return; // RL20: the relay speaks text
      const text = data.toString();
      if (text === PONG) clearTimeout(this.pongTimer);
      else this.options.events.frame(text);
    });
    ws.on('error', (error) => {
      if (ws === this.ws && !refusal) this.lastProblem = `cannot reach the relay at ${this.options.relayURL} (${networkProblem(error)})`;
    });
    ws.on('close', (code, reason) => {
      if (ws !== this.ws) return;
      this.ws = null;
      if (!refusal && this.state === 'online') this.lastProblem = `the socket closed (${code}${reason.length ? ` ${reason}` : ''})`;
      this.closed(refusal);
    });
  }

  private cameOnline(): void {
    this.state = 'online';
    this.attempt = 0;
    this.lastProblem = undefined;
    const pingMs = (this.options.pingSeconds ?? PING_INTERVAL_SECONDS) * 1000;
    this.pingTimer = setInterval(() => this.ping(), pingMs).unref();
    this.options.events.online();
  }

  /** RL11: `ping`; no `pong` within 30 s, or a failed send, drops the socket (and a new attempt follows). */
  private ping(): void {
    void this.send(PING).then((sent) => {
      if (!sent) return this.ws?.terminate();
      clearTimeout(this.pongTimer);
      this.pongTimer = setTimeout(() => {
        this.lastProblem = `no pong within ${PONG_TIMEOUT_MS / 1000} s`;
        this.ws?.terminate();
      }, PONG_TIMEOUT_MS).unref();
    });
  }

  /** RL12: what the next attempt waits for. */
  private closed(refusal: { status: number; retryAfter?: number } | undefined): void {
    this.clearTimers();
    if (this.state === 'stopped') return;
    let delaySeconds: number;
    if (refusal?.status === 401 || refusal?.status === 403) {
      this.state = 'rejected';
      this.lastProblem = `the relay rejected this computer's token (${refusal.status}); pair again`;
      this.options.events.offline();
      return;
    }
    if (refusal?.status === 429 || refusal?.status === 503) {
      this.state = 'limited';
      this.lastProblem = `the relay is limiting this computer (${refusal.status})`;
      delaySeconds = Math.max(refusal.retryAfter ?? 0, reconnectDelaySeconds(this.attempt + LIMITED_EXTRA_ATTEMPTS));
    } else {
      this.state = 'offline';
      if (refusal) this.lastProblem = `the relay answered ${refusal.status} to the socket`;
      delaySeconds = reconnectDelaySeconds(this.attempt);
    }
    this.attempt++;
    this.nextAttemptAt = Date.now() + delaySeconds * 1000;
    this.retryTimer = setTimeout(() => this.connect(), delaySeconds * 1000).unref();
    this.options.events.offline();
  }

  /** Closes the current socket without planning another attempt (the caller does). */
  private drop(): void {
    const ws = this.ws;
    this.ws = null;
    ws?.removeAllListeners('close');
    ws?.on('error', () => undefined);
    ws?.terminate();
  }

  private clearTimers(): void {
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
    this.retryTimer = this.pingTimer = this.pongTimer = undefined;
  }
}
