// The device stream, `GET /v1/device/stream` (docs/relay-api.md#ra30 to #ra33): the computer's one WebSocket.
//
// Connect: relay/http/stream-upgrade.ts checks the device token before the upgrade and hands the socket over
// (accept). Then, in one locked transaction, the socket's generation is taken, the computer marked seen, overdue
// notes expired, and the waiting queue read; after the commit the relay sends `welcome` and every waiting note,
// oldest first — also those an earlier socket already got.
// Afterwards each new note is pushed once, the moment the bus announces it.

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { RelayError } from '../../protocol/relay/errors.js';
import {
  CLOSE_UNPAIRED,
  parseDeviceFrame,
  PING,
  PONG,
  readDeviceStatus,
  type DeviceFrame,
  type NotifyFrame,
  type WelcomeFrame,
} from '../../protocol/relay/frames.js';
import { readReceipt } from '../../protocol/relay/receipts.js';
import type { DeviceCaller } from '../core/auth.js';
import { markSeen, saveStatus, seenWrite } from '../core/devices.js';
import { ackWrites, applyReceipt, expireWaiting, queueTtlMs, waitingFrame, waitingFrames } from '../core/notes.js';
import type { Relay } from '../core/relay.js';
import { addUsage } from '../core/usage.js';
import { LAST_SEEN_WRITE_MS } from '../limits.js';
import { notificationsDelivered, receipts } from '../metrics.js';
import { log } from '../log.js';
import type { BusMessage, DeviceTx } from '../store/backend.js';
import { runWrites } from '../store/prepared.js';
import { ackGroup, type AckInput } from './ack-group.js';
import { onConsentMessage, sendOpenConsents } from './consent-push.js';
import { DeviceConnection, SocketRegistry } from './registry.js';

/**
 * The largest message `ws` accepts before it closes the socket (1009). Frames over 16 KiB are ignored, not
 * refused (RA30); this only stops a client from making the relay buffer megabytes.
 */
const MAX_MESSAGE_BYTES = 1024 * 1024;

/** RFC 6455 close code 1012: the server is restarting, the client should reconnect. */
const CLOSE_SERVICE_RESTART = 1012;

/**
 * When a socket tries again to catch up after the read of what it should have failed (the database away for a
 * moment, a lock not had in time): doubling while it fails, up to the maximum, the delays of the bus's LISTEN.
 */
const CATCH_UP_RETRY_MS = { first: 500, max: 30_000 };

export class DeviceStream {
  readonly sockets = new SocketRegistry();
  private readonly server = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  private readonly unsubscribe: Array<() => void>;
  /** The headers each upgrade under way answers in its 101 (its `X-Request-Id`). */
  private readonly upgrades = new WeakMap<IncomingMessage, readonly string[]>();

  constructor(private readonly relay: Relay) {
    this.server.on('headers', (headers, req) => headers.push(...(this.upgrades.get(req) ?? [])));
    this.unsubscribe = [relay.store.bus.subscribe((message) => this.onBusMessage(message)), relay.store.bus.onResync(() => this.resync())];
    relay.store.bus.setSocketHolder((deviceId, gen) => this.sockets.of(deviceId).some((connection) => connection.gen === gen));
  }

  /**
   * Takes over an upgrade whose device token checked out (relay/http/stream-upgrade.ts): the WebSocket handshake,
   * its 101 carrying `headers`, then the socket's connect step. `opened` is called once the 101 is sent.
   */
  accept(req: IncomingMessage, socket: Duplex, head: Buffer, caller: DeviceCaller, headers: readonly string[], opened: () => void): void {
    this.upgrades.set(req, headers);
    this.server.handleUpgrade(req, socket, head, (ws) => {
      opened();
      void this.open(ws, caller);
    });
  }

  /** Every socket closes with 1012 ("service restart"): the computer reconnects, to another node or to this one restarted. */
  async close(): Promise<void> {
    for (const stop of this.unsubscribe) stop();
    this.sockets.closeAll(CLOSE_SERVICE_RESTART, 'the relay is restarting; reconnect');
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async open(ws: WebSocket, caller: DeviceCaller): Promise<void> {
    const connection = new DeviceConnection(caller.deviceId, ws);
    this.sockets.add(connection); // from now on, new notes are remembered (connection.early)
    const connected = this.connect(connection, ws, caller);
    ws.on('message', (data, isBinary) => this.receive(connection, connected, data, isBinary));
    ws.on('close', () => void this.onClose(connection));
    ws.on('error', () => undefined);
  }

  /** The connect step (RA31); frames wait for it. */
  private async connect(connection: DeviceConnection, ws: WebSocket, caller: DeviceCaller): Promise<void> {
    try {
      const { gen, frames } = await this.relay.store.withDeviceLock(caller.deviceId, async (tx) => {
        const now = this.relay.clock();
        const device = await tx.db
          .updateTable('devices')
          .set((eb) => ({ stream_gen: eb('stream_gen', '+', 1), last_seen_at: now }))
          .where('id', '=', caller.deviceId)
          .returning('stream_gen')
          .executeTakeFirst();
        if (!device) return { gen: undefined, frames: [] };
        await tx.db.updateTable('devices').set({ stream_open: device.stream_gen }).where('id', '=', caller.deviceId).execute();
        await expireWaiting(this.relay, tx, caller.deviceId, now);
        tx.publish({ t: 'stream', d: caller.deviceId, g: device.stream_gen });
        return { gen: device.stream_gen, frames: await waitingFrames(tx.db, caller.deviceId) };
      });
      if (gen === undefined) return ws.close(CLOSE_UNPAIRED, 'unpaired'); // removed while connecting
      connection.gen = gen;
      connection.lastSeenWrite = this.relay.clock();
      const welcome: WelcomeFrame = { type: 'welcome', ttlSeconds: Math.round(queueTtlMs(this.relay) / 1000) };
      connection.send(welcome);
      for (const frame of frames) this.sendOnce(connection, frame);
      connection.ready = true;
      for (const rid of connection.early.splice(0)) await this.push(connection, rid);
      await sendOpenConsents(this.relay, connection); // RA111: connector approvals waiting for the person
      if (!connection.open) await this.onClose(connection); // closed during the replay: the close event came too early to clear stream_open
    } catch (error) {
      log.error(`opening a device stream failed: ${(error as Error).stack ?? String(error)}`, { deviceId: connection.deviceId });
      ws.close(1011, 'internal error');
    }
  }

  /** Pushes one note on one socket, unless it was already sent on it or no longer waits. */
  private async push(connection: DeviceConnection, rid: string): Promise<void> {
    if (connection.sent.has(rid) || !connection.open) return;
    connection.sent.add(rid);
    // Not sent if the read fails (the database went away): the catch-up once it is back must not skip it.
    const frame = await waitingFrame(this.relay.store.db, connection.deviceId, rid).catch((error: unknown) => {
      connection.sent.delete(rid);
      throw error;
    });
    if (!frame) return void connection.sent.delete(rid);
    connection.send(frame);
    notificationsDelivered.inc();
  }

  /** RA32 `hello`, and after a lost bus: send every waiting note this socket does not have yet. */
  private async catchUp(connection: DeviceConnection): Promise<void> {
    for (const frame of await waitingFrames(this.relay.store.db, connection.deviceId)) this.sendOnce(connection, frame);
  }

  /**
   * A read of the notes this socket should have failed: it catches up from the database a moment later, and again
   * while that fails, until it works or the socket closes. Without it, a note whose push failed would wait for
   * the computer's next connection.
   */
  private catchUpLater(connection: DeviceConnection, delayMs = CATCH_UP_RETRY_MS.first): void {
    if (connection.catchUpRetry || !connection.open) return; // one at a time: it sends all that waits
    connection.catchUpRetry = setTimeout(() => {
      connection.catchUpRetry = undefined;
      if (!connection.open) return;
      this.catchUp(connection).catch((error: Error) => {
        log.warn(`catching a socket up failed (${error.message}); trying again later`, { deviceId: connection.deviceId });
        this.catchUpLater(connection, Math.min(delayMs * 2, CATCH_UP_RETRY_MS.max));
      });
    }, delayMs).unref();
  }

  /** RA31: each note once per socket. */
  private sendOnce(connection: DeviceConnection, frame: NotifyFrame): void {
    if (connection.sent.has(frame.id)) return;
    connection.sent.add(frame.id);
    connection.send(frame);
    notificationsDelivered.inc();
  }

  private onBusMessage(message: BusMessage): void {
    if (message.t === 'note') {
      for (const connection of this.sockets.of(message.d)) {
        if (!connection.ready) connection.early.push(message.r);
        else if (message.frame)
          this.sendOnce(connection, message.frame); // committed by this process: no need to read it back
        else
          void this.push(connection, message.r).catch((error: Error) => {
            log.error(`pushing a note failed: ${error.message}; catching up later`, { deviceId: connection.deviceId });
            this.catchUpLater(connection);
          });
      }
    } else if (message.t === 'stream') {
      this.sockets.replaceOlder(message.d, message.g);
    } else if (message.t === 'gone') {
      this.sockets.closeUnpaired(message.d);
    } else onConsentMessage(this.relay, this.sockets, message);
  }

  private resync(): void {
    for (const connection of this.sockets.all()) {
      if (!connection.ready) continue;
      void this.catchUp(connection).catch(() => this.catchUpLater(connection));
      void sendOpenConsents(this.relay, connection).catch(() => undefined);
    }
  }

  /** RA30: `ping` is answered at once; a frame the relay takes is queued, the rest ignored. */
  private receive(connection: DeviceConnection, connected: Promise<void>, data: RawData, isBinary: boolean): void {
    if (isBinary) return;
    const text = data.toString();
    if (text === PING) {
      connection.send(PONG);
      void this.noteSignOfLife(connection);
      return;
    }
    const frame = parseDeviceFrame(text);
    if (!frame) return; // larger than 16 KiB, not JSON or of an unknown type
    connection.inbox.push(frame);
    if (connection.applying) return;
    connection.applying = true;
    void connected.then(() => this.applyInbox(connection));
  }

  /**
   * Applies the queued frames in order, once the connect step is done: all that arrived while the previous
   * transaction ran go into the next one (a computer acknowledging a burst of notes costs one commit).
   */
  private async applyInbox(connection: DeviceConnection): Promise<void> {
    while (connection.ready && connection.inbox.length > 0) {
      const frames = connection.inbox.splice(0);
      try {
        await this.applyFrames(connection, frames);
        if (frames.some((frame) => frame.type === 'hello')) await this.catchUp(connection);
      } catch (error) {
        log.error(`device frames failed: ${(error as Error).stack ?? String(error)}`, { deviceId: connection.deviceId });
      }
    }
    connection.applying = false;
  }

  /**
   * RA32: frames in one locked transaction, each counted as a socket message; one that breaks a rule is skipped.
   * A run of acks is one write (ackWrites), and the acks the frames begin with — all of them, when the computer
   * acknowledges a burst — ride with the usage count and the sign of life: on PostgreSQL, one statement.
   */
  private async applyFrames(connection: DeviceConnection, frames: DeviceFrame[]): Promise<void> {
    const deviceId = connection.deviceId;
    const runs = ackRuns(frames);
    /** Applies the frames; the receipts applied (the ack group, which runs frames that are all acks, applies none). */
    const apply = async (tx: DeviceTx): Promise<number> => {
      let receiptsApplied = 0;
      const now = this.relay.clock();
      const alongside = ackWrites(tx.db, deviceId, runs[0]!.acks, now);
      if (now - connection.lastSeenWrite >= LAST_SEEN_WRITE_MS) {
        alongside.push(seenWrite(deviceId, now)); // RA30: a sign of life, written at most once a minute per socket
        connection.lastSeenWrite = now;
      }
      await addUsage(tx.db, deviceId, now, { ws_messages: frames.length }, alongside);
      for (const [index, { frame, acks }] of runs.entries()) {
        if (index > 0) await runWrites(tx.db, ackWrites(tx.db, deviceId, acks, now));
        if (!frame) continue;
        try {
          if (await applyFrame(tx, deviceId, frame, now)) receiptsApplied += 1;
        } catch (error) {
          if (!(error instanceof RelayError)) throw error; // each check comes before its write: nothing to undo
        }
      }
      return receiptsApplied;
    };
    // Frames that are all acks may be applied with other computers' (ack-group.ts), as `apply` would apply them.
    const input: AckInput = { connection, acks: runs[0]!.acks, frames: frames.length };
    const grouped = runs.length === 1 ? { group: ackGroup(this.relay), input } : undefined;
    const receiptsApplied = (await this.relay.store.withDeviceLock(deviceId, apply, grouped)) ?? 0;
    // Counted once committed (whether `apply` or the ack group ran): a scrape that sees an ack counted sees its note
    // gone from the queue, and a transaction that failed counts nothing.
    const ackCount = runs.reduce((sum, run) => sum + run.acks.length, 0);
    receipts.inc({ kind: 'ack' }, ackCount);
    if (receiptsApplied > 0) receipts.inc({ kind: 'receipt' }, receiptsApplied);
    for (const frame of frames) {
      const acked = frame.type === 'ack' ? frame.id : frame.type === 'receipt' ? (frame.id ?? frame.notificationId) : undefined;
      if (typeof acked === 'string') connection.sent.delete(acked); // it will not be sent again: nothing to remember
    }
  }

  private async noteSignOfLife(connection: DeviceConnection): Promise<void> {
    const now = this.relay.clock();
    if (now - connection.lastSeenWrite < LAST_SEEN_WRITE_MS) return;
    connection.lastSeenWrite = now;
    await this.relay.store.withDeviceLock(connection.deviceId, (tx) => markSeen(tx.db, connection.deviceId, now)).catch(() => undefined);
  }

  /** The socket closed: if it was the one in force, the computer has no socket now. */
  private async onClose(connection: DeviceConnection): Promise<void> {
    this.sockets.remove(connection);
    clearTimeout(connection.catchUpRetry);
    const gen = connection.gen;
    if (gen === undefined || !connection.ready) return; // still opening: open() finishes and calls this again
    connection.gen = undefined; // once
    try {
      await this.relay.store.withDeviceLock(connection.deviceId, (tx) =>
        tx.db
          .updateTable('devices')
          .set({ stream_open: null, last_seen_at: this.relay.clock() })
          .where('id', '=', connection.deviceId)
          .where('stream_open', '=', gen)
          .execute(),
      );
    } catch (error) {
      log.error(`closing a device stream failed: ${(error as Error).message}`, { deviceId: connection.deviceId });
    }
  }
}

/**
 * The frames in order, as runs: the ids of consecutive acks, then the frame that ended the run (none after the
 * last). Applying each run's acks before its frame keeps the frames' order.
 */
function ackRuns(frames: DeviceFrame[]): Array<{ acks: string[]; frame?: DeviceFrame }> {
  const runs: Array<{ acks: string[]; frame?: DeviceFrame }> = [{ acks: [] }];
  for (const frame of frames) {
    const run = runs[runs.length - 1]!;
    if (frame.type === 'ack') {
      if (typeof frame.id === 'string') run.acks.push(frame.id);
    } else {
      run.frame = frame;
      runs.push({ acks: [] });
    }
  }
  return runs;
}

/** RA32: one frame from the computer other than an ack (ackRuns); true when it was a receipt, applied. */
async function applyFrame(tx: DeviceTx, deviceId: string, frame: DeviceFrame, now: number): Promise<boolean> {
  if (frame.type === 'hello' || frame.type === 'status') await saveStatus(tx.db, deviceId, readDeviceStatus(frame));
  if (frame.type !== 'receipt') return false;
  await applyReceipt(tx, deviceId, readReceipt(frame, { idAlias: true }), now);
  return true;
}
