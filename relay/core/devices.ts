// Paired computers (docs/relay-api.md#ra13, #ra24, #ra25): their status, whether they are online, the list one
// computer sees of the others, and removal — by unpairing, by another computer, or by housekeeping.

import { type DeviceStatus } from '../../protocol/relay/frames.js';
import { invalidRequest, notFound, notRemovable } from '../../protocol/relay/errors.js';
import type { DeviceTx, RelayDb } from '../store/backend.js';
import { prepared, write, type Write } from '../store/prepared.js';
import { PER_DEVICE_TABLES, type DeviceRow } from '../store/schema.js';
import { IDLE_DEVICE_MS, ONLINE_WINDOW_MS, REMOVABLE_AFTER_MS } from '../limits.js';
import type { Relay } from './relay.js';
import { iso } from './time.js';

/** RA24: online = a socket is open and the computer showed a sign of life within 11 minutes. */
export function isOnline(device: DeviceRow, now: number): boolean {
  return device.stream_open !== null && now - device.last_seen_at <= ONLINE_WINDOW_MS;
}

export function deviceStatus(device: DeviceRow): DeviceStatus {
  try {
    return JSON.parse(device.status) as DeviceStatus;
  } catch {
    return {};
  }
}

/** RA24: quiet hours as agents see them (never whether the person muted Notifier). */
export function quietHours(device: DeviceRow): { active: boolean; until?: string } {
  const status = deviceStatus(device);
  return { active: status.quietActive === true, ...(status.quietUntil !== undefined && { until: status.quietUntil }) };
}

/** `GET /v1/status` (RA49): exactly these keys. */
export function statusView(
  device: DeviceRow,
  now: number,
): { online: boolean; lastSeenAt?: string; quietHours: { active: boolean; until?: string } } {
  return { online: isOnline(device, now), lastSeenAt: iso(device.last_seen_at), quietHours: quietHours(device) };
}

export async function findDevice(db: RelayDb, deviceId: string): Promise<DeviceRow | undefined> {
  return db.selectFrom('devices').selectAll().where('id', '=', deviceId).executeTakeFirst();
}

const updateSeen = prepared((db: RelayDb, now: number, deviceId: string) =>
  db.updateTable('devices').set({ last_seen_at: now }).where('id', '=', deviceId),
);

/** A sign of life from the computer; false when it is no longer paired. */
export async function markSeen(db: RelayDb, deviceId: string, now: number): Promise<boolean> {
  return (await updateSeen.run(db, now, deviceId)) > 0;
}

/** The same sign of life as a write, to run with other writes (runWrites). */
export const seenWrite = (deviceId: string, now: number): Write => write(updateSeen, now, deviceId);

export async function saveStatus(db: RelayDb, deviceId: string, status: DeviceStatus): Promise<void> {
  await db
    .updateTable('devices')
    .set({ status: JSON.stringify(status) })
    .where('id', '=', deviceId)
    .execute();
}

/** Deletes everything of one computer and tells every process (its socket closes with 4001). */
export async function wipeDevice(tx: DeviceTx, deviceId: string): Promise<boolean> {
  for (const table of PER_DEVICE_TABLES) await tx.db.deleteFrom(table).where('device_id', '=', deviceId).execute();
  const removed = await tx.db.deleteFrom('devices').where('id', '=', deviceId).executeTakeFirst();
  tx.publish({ t: 'gone', d: deviceId });
  return Number(removed.numDeletedRows) > 0;
}

/** Removes one computer under its own lock. */
export async function removeDevice(relay: Relay, deviceId: string): Promise<boolean> {
  return relay.store.withDeviceLock(deviceId, (tx) => wipeDevice(tx, deviceId));
}

/**
 * RA13: computers the relay drops by itself — idle 30 days (no connect, not online), or with an id this relay's
 * secret no longer signs (RELAY_SECRET was rotated). Runs on every device-list lookup and daily.
 */
export async function pruneIdleDevices(relay: Relay, now: number): Promise<string[]> {
  const devices = await relay.store.db.selectFrom('devices').selectAll().execute();
  const stale = devices.filter(
    (device) => !relay.credentials.verifyDeviceId(device.id) || (!isOnline(device, now) && now - device.last_seen_at > IDLE_DEVICE_MS),
  );
  const removed: string[] = [];
  for (const device of stale) if (await removeDevice(relay, device.id)) removed.push(device.id);
  return removed;
}

export interface DeviceView {
  id: string;
  name: string;
  online: boolean;
  lastSeenAt: string;
  createdAt: string;
  thisDevice: boolean;
  removable: boolean;
  removableReason?: 'same-name' | 'idle';
}

/** RA25: whether `me` may remove `other`: the same name (a reinstall), or no connection for 7 days. */
function removableReason(me: DeviceRow, other: DeviceRow, now: number): DeviceView['removableReason'] {
  if (other.id === me.id) return undefined;
  if (me.name !== '' && other.name === me.name) return 'same-name';
  if (!isOnline(other, now) && now - other.last_seen_at > REMOVABLE_AFTER_MS) return 'idle';
  return undefined;
}

/** RA25: every computer on the relay, oldest pairing first, as `me` sees them. */
export async function listDevices(relay: Relay, me: DeviceRow, now: number): Promise<DeviceView[]> {
  const devices = await relay.store.db.selectFrom('devices').selectAll().orderBy('created_at').orderBy('id').execute();
  return devices.map((device) => {
    const reason = removableReason(me, device, now);
    return {
      id: device.id,
      name: device.name,
      online: isOnline(device, now),
      lastSeenAt: iso(device.last_seen_at),
      createdAt: iso(device.created_at),
      thisDevice: device.id === me.id,
      removable: reason !== undefined,
      ...(reason !== undefined && { removableReason: reason }),
    };
  });
}

/** RA25: `me` removes another computer, if the rules allow it. */
export async function removeOtherDevice(relay: Relay, me: DeviceRow, otherId: string, now: number): Promise<void> {
  if (otherId === me.id) throw invalidRequest('this is the computer making the request: unpair it with DELETE /v1/device');
  const other = relay.credentials.verifyDeviceId(otherId) ? await findDevice(relay.store.db, otherId) : undefined;
  if (!other) throw notFound('no such computer on this relay');
  if (removableReason(me, other, now) === undefined) throw notRemovable();
  await removeDevice(relay, otherId);
}

/** RA25: what `POST /v1/device/prune` removes: the idle and unsigned ones, and the others of the same name. */
export async function pruneForDevice(relay: Relay, me: DeviceRow, now: number): Promise<string[]> {
  const removed = await pruneIdleDevices(relay, now);
  if (me.name === '') return removed;
  const sameName = await relay.store.db.selectFrom('devices').select('id').where('name', '=', me.name).where('id', '!=', me.id).execute();
  for (const { id } of sameName) if (await removeDevice(relay, id)) removed.push(id);
  return removed;
}
