// Device routes (docs/relay-api.md#ra20 to #ra28): the paired computer, with its device token. Each request is
// one locked transaction of that computer: counted against its daily budget (but never refused for it), a
// sign of life, then the route's own step.

import { Router, type Request, type Response } from 'express';
import { SUBSCRIPTION_ID_PATTERN } from '../../../protocol/relay/device-api.js';
import { notFound, upgradeRequired } from '../../../protocol/relay/errors.js';
import { readDeviceStatus } from '../../../protocol/relay/frames.js';
import { readReceipt, type ReceiptKind } from '../../../protocol/relay/receipts.js';
import { authenticateDevice, type DeviceCaller } from '../../core/auth.js';
import {
  findDevice,
  isOnline,
  listDevices,
  pruneForDevice,
  pruneIdleDevices,
  quietHours,
  removeOtherDevice,
  saveStatus,
  wipeDevice,
} from '../../core/devices.js';
import { activeKeyCount, createKey, listKeys, revokeKey } from '../../core/keys.js';
import { applyReceipt, waitingCount } from '../../core/notes.js';
import type { Relay } from '../../core/relay.js';
import { deviceStep } from '../../core/requests.js';
import { endSubscription, subscriptionsView } from '../../core/subscriptions.js';
import { iso } from '../../core/time.js';
import { usageView } from '../../core/usage.js';
import { JSON_BODY_MAX_BYTES } from '../../limits.js';
import { requireCaller } from '../auth.js';
import { parseJSON, readBody } from '../body.js';
import { sendJSON } from '../respond.js';

/** The caller a device route was authenticated as (requireDevice put it there). */
export const deviceOf = (res: Response): DeviceCaller => res.locals.device as DeviceCaller;

/** RA2: device token only; an agent credential gets 403 wrong_credential. */
export const requireDevice = (relay: Relay) => requireCaller('device', (authorization) => authenticateDevice(relay, authorization));

export function deviceRoutes(relay: Relay): Router {
  const router = Router();
  router.use('/v1/device', requireDevice(relay));
  const step = <T>(res: Response, work: Parameters<typeof deviceStep<T>>[3], counted = true): Promise<T> =>
    deviceStep(relay, deviceOf(res), { counted }, work);

  // RA30: the stream is a WebSocket; a plain GET (no Upgrade) gets 426 once the token checked out.
  router.get('/v1/device/stream', () => {
    throw upgradeRequired();
  });

  // RA20: receipts and replies (a reply is a `replied` receipt).
  const receiptRoute = (kind?: ReceiptKind) => async (req: Request, res: Response) => {
    const body = await readBody(req, JSON_BODY_MAX_BYTES);
    await step(res, (tx, now) =>
      applyReceipt(tx, deviceOf(res).deviceId, readReceipt(parseJSON(body, JSON_BODY_MAX_BYTES), { kind }), now),
    );
    sendJSON(res, 200, { ok: true });
  };
  router.post('/v1/device/receipt', receiptRoute());
  router.post('/v1/device/reply', receiptRoute('replied'));

  // RA24: quiet hours and mute.
  router.post('/v1/device/status', async (req, res) => {
    const body = await readBody(req, JSON_BODY_MAX_BYTES);
    await step(res, (tx) => saveStatus(tx.db, deviceOf(res).deviceId, readDeviceStatus(parseJSON(body, JSON_BODY_MAX_BYTES))));
    sendJSON(res, 200, { ok: true });
  });

  router.get('/v1/device/info', async (_req, res) => {
    const info = await step(res, async (tx, now) => {
      const device = (await findDevice(tx.db, deviceOf(res).deviceId))!;
      return {
        online: isOnline(device, now),
        lastSeenAt: iso(device.last_seen_at),
        pending: await waitingCount(tx.db, device.id),
        quietHours: quietHours(device),
        keys: await activeKeyCount(tx.db, device.id),
      };
    });
    sendJSON(res, 200, info);
  });

  // RA26: not counted against the budget it reports.
  router.get('/v1/device/usage', async (_req, res) => {
    const usage = await step(
      res,
      async (tx, now) => usageView(relay, tx.db, deviceOf(res).deviceId, await waitingCount(tx.db, deviceOf(res).deviceId), now),
      false,
    );
    sendJSON(res, 200, usage);
  });

  // RA22: agent keys.
  router.get('/v1/device/keys', async (_req, res) => {
    sendJSON(res, 200, { keys: await step(res, (tx) => listKeys(tx.db, deviceOf(res).deviceId)) });
  });
  router.post('/v1/device/keys', async (req, res) => {
    const body = await readBody(req, JSON_BODY_MAX_BYTES);
    sendJSON(res, 201, await step(res, (tx, now) => createKey(tx, deviceOf(res).deviceId, parseJSON(body, JSON_BODY_MAX_BYTES), now)));
  });
  router.delete('/v1/device/keys/:keyId', async (req, res) => {
    const purge = req.query.purge === '1' || req.query.purge === 'true';
    const keyId = String(req.params.keyId);
    // RA22, RA109, RA212: its tokens and its subscriptions end with it.
    sendJSON(res, 200, await step(res, (tx, now) => revokeKey(tx, deviceOf(res).deviceId, keyId, purge, now)));
  });

  // RA211: the agents' reply-event subscriptions; removing one that is absent succeeds.
  router.get('/v1/device/events', async (_req, res) => {
    sendJSON(res, 200, await step(res, (tx) => subscriptionsView(relay, tx.db, deviceOf(res).deviceId)));
  });
  router.delete('/v1/device/events/subscriptions/:id', async (req, res) => {
    const id = String(req.params.id);
    if (!SUBSCRIPTION_ID_PATTERN.test(id)) throw notFound('no such subscription');
    await step(res, (tx) => endSubscription(tx, deviceOf(res).deviceId, id));
    sendJSON(res, 200, { removed: true, id });
  });

  // RA25: the computers on this relay.
  router.get('/v1/device/devices', async (_req, res) => {
    const now = relay.clock();
    await step(res, async () => undefined);
    const removed = await pruneIdleDevices(relay, now);
    sendJSON(res, 200, { removed, devices: await listDevices(relay, deviceOf(res).device, now) });
  });
  router.post('/v1/device/prune', async (_req, res) => {
    const now = relay.clock();
    await step(res, async () => undefined);
    const removed = await pruneForDevice(relay, deviceOf(res).device, now);
    sendJSON(res, 200, { removed, devices: await listDevices(relay, deviceOf(res).device, now) });
  });
  router.delete('/v1/device/devices/:deviceId', async (req, res) => {
    const now = relay.clock();
    await step(res, async () => undefined);
    const other = String(req.params.deviceId);
    await removeOtherDevice(relay, deviceOf(res).device, other, now);
    sendJSON(res, 200, { removed: [other] });
  });

  // RA28: unpair: everything of this computer goes, its socket closes with 4001.
  router.delete('/v1/device', async (_req, res) => {
    await step(res, (tx) => wipeDevice(tx, deviceOf(res).deviceId));
    sendJSON(res, 200, { unpaired: true });
  });

  return router;
}
