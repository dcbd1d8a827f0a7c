// A relay of the test's own, speaking the device protocol over real HTTP and a real WebSocket (`ws`): pairing,
// the few device routes the desktop calls, and the stream, where the test sends whatever frames it likes — the
// relay a hostile or broken deployment could be. It records every frame and call the computer makes. Closed after
// the test file.

import { afterAll } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

const running = new Set<FakeRelay>();
afterAll(async () => {
  for (const relay of running) await relay.close();
});

/** A frame the computer sent: JSON parsed, `ping` as the string; `connection` counts from 1. */
export interface Received {
  connection: number;
  frame: Record<string, any> | string;
}

export interface ConsentDecision {
  id: string;
  decision: string;
  authorization: string | undefined;
}

export class FakeRelay {
  readonly deviceId = randomBytes(24).toString('hex');
  readonly token = `hrd_${this.deviceId}_${randomBytes(32).toString('hex')}`;
  /** Every frame from the computer, in order. */
  readonly received: Received[] = [];
  /** Every HTTP call, as `METHOD /path`. */
  readonly calls: string[] = [];
  readonly decisions: ConsentDecision[] = [];
  /** What `GET /v1/device/consents` lists. */
  consents: Array<Record<string, unknown>> = [];
  /** What the next decisions are answered: a status (200 by default). */
  decisionStatus = 200;
  /** While set, stream connections are refused with this status (and `Retry-After` when given). */
  refuse: { status: number; retryAfter?: number } | null = null;
  /** Required in `X-Pairing-Secret` when set. */
  pairingSecret: string | null = null;
  connections = 0;
  /** Stream attempts, refused ones included. */
  attempts = 0;
  private socket: WebSocket | null = null;
  private readonly waiting: Array<{ match: (received: Received) => boolean; resolve: (received: Received) => void }> = [];
  private readonly server: http.Server;
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });

  private constructor() {
    this.server = http.createServer((req, res) => void this.route(req, res));
    this.server.on('upgrade', (req, socket, head) => this.upgrade(req, socket, head));
  }

  static async start(): Promise<FakeRelay> {
    const relay = new FakeRelay();
    await new Promise<void>((resolve) => relay.server.listen(0, '127.0.0.1', resolve));
    running.add(relay);
    return relay;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  get open(): boolean {
    return this.socket !== null;
  }

  /** Sends a frame (an object as JSON, a string as is) on the current socket. */
  send(frame: object | string): void {
    if (!this.socket) throw new Error('the computer is not connected');
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /**
   * Sends a frame and closes the socket right behind it (the close frame follows the frame on the wire): whatever the
   * computer answers to it finds the socket closing.
   */
  sendAndClose(frame: object): void {
    if (!this.socket) throw new Error('the computer is not connected');
    this.socket.send(JSON.stringify(frame));
    this.socket.close(1001, 'going away');
  }

  /** Closes the current socket from the relay's side (`terminate`: no closing handshake). */
  drop(): void {
    this.socket?.terminate();
    this.socket = null;
  }

  /** Frames of one type the computer sent (on one connection, or on any). */
  framesOf(type: string, connection?: number): Array<Record<string, any>> {
    return this.received
      .filter((item) => connection === undefined || item.connection === connection)
      .map((item) => item.frame)
      .filter((frame): frame is Record<string, any> => typeof frame === 'object' && frame.type === type);
  }

  /** The first received frame matching, now or later. */
  waitFor(match: (received: Received) => boolean, what: string, timeoutMs = 10_000): Promise<Received> {
    const earlier = this.received.find(match);
    if (earlier) return Promise.resolve(earlier);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timed out waiting for ${what}; received: ${JSON.stringify(this.received).slice(-2000)}`)),
        timeoutMs,
      );
      this.waiting.push({ match, resolve: (received) => (clearTimeout(timer), resolve(received)) });
    });
  }

  /** The `receipt` frames of a relay id, waited for until `count` arrived. */
  async receiptsOf(id: string, count = 1): Promise<Array<Record<string, any>>> {
    const of = () => this.framesOf('receipt').filter((frame) => frame.id === id);
    for (let waited = 0; of().length < count; waited += 20) {
      if (waited > 10_000) throw new Error(`timed out waiting for ${count} receipts of ${id}: ${JSON.stringify(of())}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return of();
  }

  /** Waits until the computer said hello on a socket newer than connection `after` (default: any); its number. */
  async connected(after = 0): Promise<number> {
    const hello = await this.waitFor(
      (item) => typeof item.frame === 'object' && item.frame.type === 'hello' && item.connection > after,
      `hello on a connection after ${after}`,
    );
    return hello.connection;
  }

  async close(): Promise<void> {
    running.delete(this);
    this.socket?.terminate();
    for (const client of this.wss.clients) client.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private upgrade(req: http.IncomingMessage, socket: import('node:stream').Duplex, head: Buffer): void {
    if (req.url !== '/v1/device/stream' || req.headers.authorization !== `Bearer ${this.token}`) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    this.attempts++;
    if (this.refuse) {
      const retry = this.refuse.retryAfter === undefined ? '' : `Retry-After: ${this.refuse.retryAfter}\r\n`;
      socket.end(`HTTP/1.1 ${this.refuse.status} Refused\r\n${retry}Content-Length: 0\r\nConnection: close\r\n\r\n`);
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const connection = ++this.connections;
      this.socket?.terminate();
      this.socket = ws;
      ws.on('message', (data) => {
        const text = data.toString();
        if (text === 'ping') ws.send('pong');
        let frame: Received['frame'] = text;
        try {
          frame = JSON.parse(text);
        } catch {
          // `ping`
        }
        const received = { connection, frame };
        this.received.push(received);
        for (const waiter of [...this.waiting]) {
          if (!waiter.match(received)) continue;
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          waiter.resolve(received);
        }
      });
      ws.on('close', () => {
        if (this.socket === ws) this.socket = null;
      });
      ws.send(JSON.stringify({ type: 'welcome', ttlSeconds: 86400 }));
    });
  }

  private async route(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text ? JSON.parse(text) : {};
    const path = (req.url ?? '').split('?')[0]!;
    this.calls.push(`${req.method} ${path}`);
    const answer = (status: number, value: unknown) => {
      const json = JSON.stringify(value);
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json) });
      res.end(json);
    };
    if (req.method === 'POST' && path === '/v1/pair/start') {
      if (this.pairingSecret && req.headers['x-pairing-secret'] !== this.pairingSecret) {
        return answer(401, { error: 'unauthorized', message: 'the pairing secret is missing or wrong' });
      }
      return answer(201, { code: 'ABCD-EFGH', expiresInSeconds: 600 });
    }
    if (req.method === 'POST' && path === '/v1/pair') {
      if (body.code !== 'ABCD-EFGH') return answer(403, { error: 'bad_code', message: 'the pairing code is wrong, used or expired' });
      return answer(200, { deviceId: this.deviceId, deviceToken: this.token });
    }
    if (req.headers.authorization !== `Bearer ${this.token}`) return answer(401, { error: 'unauthorized', message: 'unknown credential' });
    switch (`${req.method} ${path}`) {
      case 'GET /v1/device/keys':
        return answer(200, { keys: [] });
      case 'POST /v1/device/prune':
        return answer(200, { removed: [], devices: [] });
      case 'GET /v1/device/consents':
        return answer(200, { consents: this.consents });
      case 'POST /v1/device/consent': {
        this.decisions.push({ id: body.id, decision: body.decision, authorization: req.headers.authorization });
        if (this.decisionStatus === 200) return answer(200, { status: body.decision === 'approve' ? 'approved' : 'denied' });
        return answer(this.decisionStatus, {
          error: 'already_decided',
          message: 'this connector request was already approved',
          status: 'approved',
        });
      }
      case 'GET /v1/device/usage':
        return answer(200, { day: '2026-11-20', requests: 3, notifications: 1, queued: 0, limits: { queueMax: 100 } });
      case 'GET /v1/device/events':
        return answer(200, { restrictedTo: [], subscriptions: [] });
      case 'DELETE /v1/device':
        return answer(200, { unpaired: true });
      default:
        return answer(404, { error: 'not_found', message: 'no such device endpoint' });
    }
  }
}

/** A relay id (`r_` and 24 hex digits). */
export const relayId = (): string => `r_${randomBytes(12).toString('hex')}`;

/** A `notify` frame as a relay sends it, with this payload. */
export const notifyFrame = (payload: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'notify',
  id: relayId(),
  notificationId: `n_${randomBytes(12).toString('hex')}`,
  createdAt: new Date().toISOString(),
  key: { id: '0a1b2c3d', name: 'build-bot', client: 'other' },
  payload,
  ...extra,
});

/** A `consent` frame of the browser flow, expiring in `seconds`. */
export const consentFrame = (fields: Record<string, unknown> = {}, seconds = 600) => ({
  type: 'consent',
  id: `cr_${randomBytes(8).toString('hex')}`,
  clientId: `hc_${randomBytes(16).toString('hex')}`,
  clientName: 'Claude',
  redirectHost: 'claude.ai',
  scope: 'notify',
  code: '493817',
  status: 'pending',
  createdAt: new Date().toISOString(),
  expiresAt: new Date(Date.now() + seconds * 1000).toISOString(),
  flow: 'code',
  ...fields,
});
