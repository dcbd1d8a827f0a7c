// The computer's side of the device stream, played over a real WebSocket (`ws`): connects with the device token,
// keeps every frame it receives, and lets a test wait for the next one it wants. Sockets still open after a
// test file are closed.

import { afterAll } from '@jest/globals';
import WebSocket from 'ws';

const open = new Set<WebSocket>();
afterAll(() => {
  for (const socket of open) socket.terminate();
});

/** A frame as received: JSON frames parsed, `pong` as the string. */
export type Frame = Record<string, any> | string;

export class DeviceSocket {
  /** Every frame received, in order. */
  readonly frames: Frame[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private readonly waiting: Array<{ match: (frame: Frame) => boolean; resolve: (frame: Frame) => void }> = [];
  private readonly listeners: Array<(frame: Frame) => void> = [];

  private constructor(readonly socket: WebSocket) {
    this.closed = new Promise((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    void this.closed.then(() => open.delete(socket));
    socket.on('message', (data) => {
      const text = data.toString();
      let frame: Frame = text;
      try {
        frame = JSON.parse(text) as Frame;
      } catch {
        // `pong` is text
      }
      this.frames.push(frame);
      for (const listener of this.listeners) listener(frame);
      for (const waiter of [...this.waiting]) {
        if (waiter.match(frame)) {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          waiter.resolve(frame);
        }
      }
    });
  }

  /** Connects and waits for the relay's welcome: the computer is online, and frames for it come down this socket. */
  static async online(port: number, token: string): Promise<DeviceSocket> {
    const socket = await DeviceSocket.connect(port, token);
    await socket.welcome();
    return socket;
  }

  /** Connects; rejects with the HTTP status when the relay refuses the upgrade. */
  static connect(port: number, token: string | undefined, headers: Record<string, string> = {}): Promise<DeviceSocket> {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/v1/device/stream`, {
      headers: { ...(token && { Authorization: `Bearer ${token}` }), ...headers },
    });
    open.add(socket);
    return new Promise((resolve, reject) => {
      const device = new DeviceSocket(socket);
      socket.once('open', () => resolve(device));
      socket.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => reject(Object.assign(new Error(`refused: ${res.statusCode} ${body}`), { status: res.statusCode, body })));
      });
      socket.once('error', reject);
    });
  }

  /**
   * Calls `listener` with every frame: first those received so far, then each as it comes. A listener added once
   * `connect` resolved would miss frames otherwise: when the handshake's answer and the first frames arrive in one
   * read (a busy proxy in between), ws emits them before the code after `await connect(...)` runs.
   */
  onFrame(listener: (frame: Frame) => void): void {
    for (const frame of this.frames) listener(frame);
    this.listeners.push(listener);
  }

  /** Frames of a type received so far. */
  ofType(type: string): Record<string, any>[] {
    return this.frames.filter((frame): frame is Record<string, any> => typeof frame === 'object' && frame.type === type);
  }

  /** The first frame matching, among those received so far or later. */
  waitFor(match: (frame: Frame) => boolean, what: string, timeoutMs = 10_000): Promise<Frame> {
    const earlier = this.frames.find(match);
    if (earlier !== undefined) return Promise.resolve(earlier);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timed out waiting for ${what}; frames: ${JSON.stringify(this.frames).slice(0, 2000)}`)),
        timeoutMs,
      );
      this.waiting.push({ match, resolve: (frame) => (clearTimeout(timer), resolve(frame)) });
    });
  }

  /** The `welcome` frame: the relay finished the connect step. */
  welcome(): Promise<Record<string, any>> {
    return this.waitFor((f) => typeof f === 'object' && f.type === 'welcome', 'welcome') as Promise<Record<string, any>>;
  }

  /** The `notify` frame of a relay id (or of a notificationId). */
  notifyFrame(id: string, timeoutMs?: number): Promise<Record<string, any>> {
    return this.waitFor(
      (f) => typeof f === 'object' && f.type === 'notify' && (f.id === id || f.notificationId === id),
      `notify ${id}`,
      timeoutMs,
    ) as Promise<Record<string, any>>;
  }

  send(frame: object | string): void {
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  close(): Promise<{ code: number; reason: string }> {
    this.socket.close();
    return this.closed;
  }
}
