// The device sockets this process holds, by computer (docs/relay-api.md#ra33). One socket per computer is in
// force across all processes: each connect raises the computer's stream generation in the database, and the
// `stream` message of the newest generation closes every older socket, here or on another node, with 4000.

import type WebSocket from 'ws';
import { CLOSE_REPLACED, CLOSE_UNPAIRED, type DeviceFrame } from '../../protocol/relay/frames.js';
import { connectedComputers } from '../metrics.js';

/** One computer's socket and what was sent on it. */
export class DeviceConnection {
  /** The stream generation, once the connect transaction committed. */
  gen: number | undefined;
  /**
   * Whether the connect step is done and the waiting queue replayed. Until then new notes are only remembered and
   * frames from the computer wait; if the connect step fails, it stays false and they are never applied.
   */
  ready = false;
  /** Notes pushed on this socket: each is pushed once per connection (RA31). Acked ones are forgotten. */
  readonly sent = new Set<string>();
  /** Notes announced before the replay finished. */
  readonly early: string[] = [];
  /** When this socket last wrote the computer's last-seen time (RA30: at most once a minute). */
  lastSeenWrite = 0;
  /** Frames received and not applied yet, in order. */
  readonly inbox: DeviceFrame[] = [];
  /** Whether frames are being applied now (the next ones wait for that transaction). */
  applying = false;
  /** The catch-up planned after a failed read of this socket's notes (DeviceStream.catchUpLater). */
  catchUpRetry: NodeJS.Timeout | undefined;

  constructor(
    readonly deviceId: string,
    readonly socket: WebSocket,
  ) {}

  get open(): boolean {
    return this.socket.readyState === this.socket.OPEN;
  }

  send(frame: object | string): void {
    if (!this.open) return;
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame), () => undefined);
  }
}

export class SocketRegistry {
  private readonly byDevice = new Map<string, Set<DeviceConnection>>();

  add(connection: DeviceConnection): void {
    const set = this.byDevice.get(connection.deviceId) ?? new Set();
    if (set.size === 0) connectedComputers.inc();
    set.add(connection);
    this.byDevice.set(connection.deviceId, set);
  }

  remove(connection: DeviceConnection): void {
    const set = this.byDevice.get(connection.deviceId);
    set?.delete(connection);
    if (set?.size === 0 && this.byDevice.delete(connection.deviceId)) connectedComputers.dec();
  }

  of(deviceId: string): DeviceConnection[] {
    return [...(this.byDevice.get(deviceId) ?? [])];
  }

  all(): DeviceConnection[] {
    return [...this.byDevice.values()].flatMap((set) => [...set]);
  }

  /** RA33: generation `gen` is in force: older sockets of the computer close with 4000. */
  replaceOlder(deviceId: string, gen: number): void {
    for (const connection of this.of(deviceId)) {
      if (connection.gen !== undefined && connection.gen < gen) connection.socket.close(CLOSE_REPLACED, 'replaced by a newer connection');
    }
  }

  /** RA33: the computer was unpaired or removed: its sockets close with 4001. */
  closeUnpaired(deviceId: string): void {
    for (const connection of this.of(deviceId)) connection.socket.close(CLOSE_UNPAIRED, 'unpaired');
  }

  closeAll(code: number, reason: string): void {
    for (const connection of this.all()) connection.socket.close(code, reason);
  }
}
