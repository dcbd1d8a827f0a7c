// What the paired computer asks about itself and the others (docs/relay-api.md#ra24 to #ra26), each in its own
// step (requests.ts, deviceStep): the device routes call these.

import type { DeviceCaller } from './auth.js';
import {
  findDevice,
  isOnline,
  listDevices,
  pruneForDevice,
  pruneIdleDevices,
  quietHours,
  removeOtherDevice,
  type DeviceView,
} from './devices.js';
import { activeKeyCount } from './keys.js';
import { waitingCount } from './notes.js';
import type { Relay } from './relay.js';
import { deviceStep } from './requests.js';
import { iso } from './time.js';
import { usageView } from './usage.js';

/** RA24: this computer as the relay sees it. */
export function deviceInfo(relay: Relay, caller: DeviceCaller) {
  return deviceStep(relay, caller, { counted: true }, async (tx, now) => {
    const device = (await findDevice(tx.db, caller.deviceId))!;
    return {
      online: isOnline(device, now),
      lastSeenAt: iso(device.last_seen_at),
      pending: await waitingCount(tx.db, device.id),
      quietHours: quietHours(device),
      keys: await activeKeyCount(tx.db, device.id),
    };
  });
}

/** RA26: today's counters against the limits; not counted against the budget it reports. */
export function deviceUsage(relay: Relay, caller: DeviceCaller) {
  return deviceStep(relay, caller, { counted: false }, async (tx, now) =>
    usageView(relay, tx.db, caller.deviceId, await waitingCount(tx.db, caller.deviceId), now),
  );
}

/** What the routes of RA25 answer: the computers removed, and the list as it is now. */
export interface DevicesAfter {
  removed: string[];
  devices: DeviceView[];
}

/** RA25 `GET /v1/device/devices`: the computers on this relay, once those the relay drops by itself are gone. */
export async function devicesOnRelay(relay: Relay, caller: DeviceCaller): Promise<DevicesAfter> {
  const now = relay.clock();
  await deviceStep(relay, caller, { counted: true }, async () => undefined);
  const removed = await pruneIdleDevices(relay, now);
  return { removed, devices: await listDevices(relay, caller.device, now) };
}

/** RA25 `POST /v1/device/prune`: the idle and unsigned computers go, and the others of this one's name. */
export async function pruneDevices(relay: Relay, caller: DeviceCaller): Promise<DevicesAfter> {
  const now = relay.clock();
  await deviceStep(relay, caller, { counted: true }, async () => undefined);
  const removed = await pruneForDevice(relay, caller.device, now);
  return { removed, devices: await listDevices(relay, caller.device, now) };
}

/** RA25 `DELETE /v1/device/devices/{id}`: another computer, if the rules allow it. */
export async function removeAnother(relay: Relay, caller: DeviceCaller, otherId: string): Promise<{ removed: string[] }> {
  const now = relay.clock();
  await deviceStep(relay, caller, { counted: true }, async () => undefined);
  await removeOtherDevice(relay, caller.device, otherId, now);
  return { removed: [otherId] };
}
