// Connector approvals on the computer's socket (docs/relay-api.md#ra111). The node that holds the socket sends
// the frames: on connect every waiting request (`redelivered` when an earlier socket was already sent it), and
// afterwards whatever the bus announces — a new or updated request (`consent`), a closed one (`consent_resolved`)
// — from whichever node changed it.

import type { ConsentResolvedFrame } from '../../protocol/relay/consent.js';
import type { Relay } from '../core/relay.js';
import { log } from '../log.js';
import { consentFrame, expireRequests, readRequest } from '../oauth/requests.js';
import type { BusMessage } from '../store/backend.js';
import { oneOf } from '../store/queries.js';
import type { DeviceConnection, SocketRegistry } from './registry.js';

/** Marks requests as announced to the computer (a later connect re-sends them as `redelivered`). */
async function markAnnounced(relay: Relay, deviceId: string, ids: string[], now: number): Promise<void> {
  if (ids.length === 0) return;
  await relay.store.withDeviceLock(deviceId, (tx) =>
    tx.db
      .updateTable('oauth_requests')
      .set({ announced_at: now })
      .where('device_id', '=', deviceId)
      .where(oneOf(relay.store.dialect, 'id', ids))
      .where('announced_at', 'is', null)
      .execute(),
  );
}

/** RA111, on connect (after the waiting notifications): every waiting request of the computer. */
export async function sendOpenConsents(relay: Relay, connection: DeviceConnection): Promise<void> {
  const now = relay.clock();
  const open = await relay.store.withDeviceLock(connection.deviceId, async (tx) => {
    await expireRequests(tx, connection.deviceId, now);
    return tx.db
      .selectFrom('oauth_requests')
      .selectAll()
      .where('device_id', '=', connection.deviceId)
      .where('status', '=', 'pending')
      .orderBy('created_at')
      .execute();
  });
  for (const row of open) connection.send(consentFrame(relay, row, now, row.announced_at !== null));
  await markAnnounced(
    relay,
    connection.deviceId,
    open.filter((row) => row.announced_at === null).map((row) => row.id),
    now,
  );
}

/** RA111: a bus message about an approval, for the sockets this node holds. */
export function onConsentMessage(relay: Relay, sockets: SocketRegistry, message: BusMessage): void {
  if (message.t !== 'consent' && message.t !== 'consent_resolved') return;
  const connections = sockets.of(message.d).filter((connection) => connection.ready);
  if (connections.length === 0) return;
  if (message.t === 'consent_resolved') {
    const frame: ConsentResolvedFrame = { type: 'consent_resolved', id: message.i, status: message.s as ConsentResolvedFrame['status'] };
    for (const connection of connections) connection.send(frame);
    return;
  }
  void (async () => {
    const row = await readRequest(relay, message.d, message.i);
    const now = relay.clock();
    if (!row || row.status !== 'pending') return;
    for (const connection of connections) connection.send(consentFrame(relay, row, now, false));
    await markAnnounced(relay, message.d, [row.id], now);
  })().catch((error: Error) => log.error(`sending a consent frame failed: ${error.message}`));
}
