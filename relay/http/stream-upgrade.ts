// The device stream's HTTP side, `GET /v1/device/stream` with `Upgrade: websocket` (docs/relay-api.md#ra30): the
// device token is checked before the upgrade (401/403 as plain HTTP, 503 while the database does not answer;
// without `Upgrade: websocket` the HTTP route answers 426), the upgrade gets its request log line, and the socket
// goes to the stream (relay/ws/stream.ts).

import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { notFound, RelayError, upgradeRequired } from '../../protocol/relay/errors.js';
import { authenticateDevice } from '../core/auth.js';
import type { Relay } from '../core/relay.js';
import { log } from '../log.js';
import type { DeviceStream } from '../ws/stream.js';
import { authorizationOf } from './auth.js';
import { databaseRefusal } from './errors.js';
import { REQUEST_ID_HEADER, upgradeLog, type UpgradeLog } from './request-log.js';

export const STREAM_PATH = '/v1/device/stream';

/** The HTTP server's `upgrade` event; each upgrade gets a request log line of its own (request-log.ts). */
export function streamUpgrade(relay: Relay, stream: DeviceStream): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (req, socket, head) => {
    socket.on('error', () => undefined); // a client that goes away mid-handshake is not an error of ours
    const path = (req.url ?? '').split('?')[0];
    const line = upgradeLog(req, path === STREAM_PATH ? STREAM_PATH : undefined);
    if (path !== STREAM_PATH || req.method !== 'GET') return refuseUpgrade(socket, notFound('no such endpoint'), line);
    Promise.resolve()
      .then(() => authenticateDevice(relay, authorizationOf(req)))
      .then(
        (caller) => {
          if (req.headers.upgrade?.toLowerCase() !== 'websocket') return refuseUpgrade(socket, upgradeRequired(), line, caller.deviceId);
          stream.accept(req, socket, head, caller, [`${REQUEST_ID_HEADER}: ${line.requestId}`], () => line.answered(101, caller.deviceId));
        },
        (error: unknown) => refuseUpgrade(socket, upgradeRefusal(error), line),
      );
  };
}

/**
 * Why an upgrade was refused: the relay's own refusal, 503 when the database does not answer or is busy (the
 * computer tries again after Retry-After, as an agent would), else 500.
 */
function upgradeRefusal(error: unknown): RelayError {
  if (error instanceof RelayError) return error;
  const refusal = databaseRefusal(error);
  if (refusal) return refusal;
  log.error(`a device stream upgrade failed: ${(error as Error)?.stack ?? String(error)}`);
  return new RelayError('internal', 'internal error');
}

/** Answers a refused upgrade as plain HTTP, with the relay's error body, and drops the connection. */
function refuseUpgrade(socket: Duplex, error: RelayError, line: UpgradeLog, deviceId?: string): void {
  const body = JSON.stringify(error.body());
  const { retryAfterHeader, retryAfterSeconds } = error.details;
  socket.end(
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\nConnection: close\r\n' +
      `${REQUEST_ID_HEADER}: ${line.requestId}\r\n` +
      (retryAfterHeader && retryAfterSeconds !== undefined ? `Retry-After: ${retryAfterSeconds}\r\n` : '') +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  line.answered(error.status, deviceId);
}
