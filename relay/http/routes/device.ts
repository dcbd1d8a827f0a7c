// Device routes (docs/relay-api.md#ra20 to #ra28): the paired computer, with its device token (an agent credential
// gets 403 wrong_credential). Every request under /v1/device is authenticated first, whether a route takes it or
// not. Each request is one locked transaction of that computer: counted against its daily budget (but never
// refused for it), a sign of life, then the route's own step.

import { answerJson } from '../../../common/json-answer.js';
import { SUBSCRIPTION_ID_PATTERN } from '../../../protocol/relay/device-api.js';
import { notFound, upgradeRequired } from '../../../protocol/relay/errors.js';
import { readDeviceStatus } from '../../../protocol/relay/frames.js';
import { readReceipt, type ReceiptKind } from '../../../protocol/relay/receipts.js';
import type { DeviceCaller } from '../../core/auth.js';
import { deviceInfo, devicesOnRelay, deviceUsage, pruneDevices, removeAnother } from '../../core/computer.js';
import { saveStatus, wipeDevice } from '../../core/devices.js';
import { createKey, listKeys, revokeKey } from '../../core/keys.js';
import { applyReceipt } from '../../core/notes.js';
import type { Relay } from '../../core/relay.js';
import { deviceStep } from '../../core/requests.js';
import { endSubscription, subscriptionsView } from '../../core/subscriptions.js';
import { JSON_BODY_MAX_BYTES } from '../../limits.js';
import type { DeviceTx } from '../../store/backend.js';
import { parseJSON, readBody } from '../body.js';
import { route, type RouteGroup } from '../route.js';

/** A counted step of the computer (RA51). */
const step = <T>(relay: Relay, caller: DeviceCaller, work: (tx: DeviceTx, now: number) => Promise<T>): Promise<T> =>
  deviceStep(relay, caller, { counted: true }, work);

export function deviceRoutes(relay: Relay): RouteGroup {
  /** RA20: a receipt, or a reply (a `replied` receipt). */
  const receiptRoute = (path: string, kind?: ReceiptKind) =>
    route({
      method: 'POST',
      path,
      caller: 'device',
      handle: async ({ req, res, caller }) => {
        const body = await readBody(req, JSON_BODY_MAX_BYTES);
        await step(relay, caller, (tx, now) =>
          applyReceipt(tx, caller.deviceId, readReceipt(parseJSON(body, JSON_BODY_MAX_BYTES), { kind }), now),
        );
        answerJson(res, 200, { ok: true });
      },
    });

  return {
    guard: { prefix: '/v1/device', caller: 'device' },
    routes: [
      // RA30: the stream is a WebSocket (relay/http/stream-upgrade.ts); a plain GET gets 426 once the token checked out.
      route({
        method: 'GET',
        path: '/v1/device/stream',
        caller: 'device',
        handle: () => {
          throw upgradeRequired();
        },
      }),

      receiptRoute('/v1/device/receipt'),
      receiptRoute('/v1/device/reply', 'replied'),

      // RA24: quiet hours and mute.
      route({
        method: 'POST',
        path: '/v1/device/status',
        caller: 'device',
        handle: async ({ req, res, caller }) => {
          const body = await readBody(req, JSON_BODY_MAX_BYTES);
          await step(relay, caller, (tx) => saveStatus(tx.db, caller.deviceId, readDeviceStatus(parseJSON(body, JSON_BODY_MAX_BYTES))));
          answerJson(res, 200, { ok: true });
        },
      }),
      route({
        method: 'GET',
        path: '/v1/device/info',
        caller: 'device',
        handle: async ({ res, caller }) => answerJson(res, 200, await deviceInfo(relay, caller)),
      }),

      // RA26: not counted against the budget it reports.
      route({
        method: 'GET',
        path: '/v1/device/usage',
        caller: 'device',
        handle: async ({ res, caller }) => answerJson(res, 200, await deviceUsage(relay, caller)),
      }),

      // RA22: agent keys.
      route({
        method: 'GET',
        path: '/v1/device/keys',
        caller: 'device',
        handle: async ({ res, caller }) =>
          answerJson(res, 200, { keys: await step(relay, caller, (tx) => listKeys(tx.db, caller.deviceId)) }),
      }),
      route({
        method: 'POST',
        path: '/v1/device/keys',
        caller: 'device',
        handle: async ({ req, res, caller }) => {
          const body = await readBody(req, JSON_BODY_MAX_BYTES);
          const created = await step(relay, caller, (tx, now) => createKey(tx, caller.deviceId, parseJSON(body, JSON_BODY_MAX_BYTES), now));
          answerJson(res, 201, created);
        },
      }),
      // RA22, RA109, RA212: its tokens and its subscriptions end with it.
      route({
        method: 'DELETE',
        path: '/v1/device/keys/:keyId',
        caller: 'device',
        handle: async ({ req, res, caller }) => {
          const purge = req.query.purge === '1' || req.query.purge === 'true';
          const keyId = String(req.params.keyId);
          answerJson(res, 200, await step(relay, caller, (tx, now) => revokeKey(tx, caller.deviceId, keyId, purge, now)));
        },
      }),

      // RA211: the agents' reply-event subscriptions; removing one that is absent succeeds.
      route({
        method: 'GET',
        path: '/v1/device/events',
        caller: 'device',
        handle: async ({ res, caller }) =>
          answerJson(res, 200, await step(relay, caller, (tx) => subscriptionsView(relay, tx.db, caller.deviceId))),
      }),
      route({
        method: 'DELETE',
        path: '/v1/device/events/subscriptions/:id',
        caller: 'device',
        handle: async ({ req, res, caller }) => {
          const id = String(req.params.id);
          if (!SUBSCRIPTION_ID_PATTERN.test(id)) throw notFound('no such subscription');
          await step(relay, caller, (tx) => endSubscription(tx, caller.deviceId, id));
          answerJson(res, 200, { removed: true, id });
        },
      }),

      // RA25: the computers on this relay.
      route({
        method: 'GET',
        path: '/v1/device/devices',
        caller: 'device',
        handle: async ({ res, caller }) => answerJson(res, 200, await devicesOnRelay(relay, caller)),
      }),
      route({
        method: 'POST',
        path: '/v1/device/prune',
        caller: 'device',
        handle: async ({ res, caller }) => answerJson(res, 200, await pruneDevices(relay, caller)),
      }),
      route({
        method: 'DELETE',
        path: '/v1/device/devices/:deviceId',
        caller: 'device',
        handle: async ({ req, res, caller }) => answerJson(res, 200, await removeAnother(relay, caller, String(req.params.deviceId))),
      }),

      // RA28: unpair: everything of this computer goes, its socket closes with 4001.
      route({
        method: 'DELETE',
        path: '/v1/device',
        caller: 'device',
        handle: async ({ res, caller }) => {
          await step(relay, caller, (tx) => wipeDevice(tx, caller.deviceId));
          answerJson(res, 200, { unpaired: true });
        },
      }),
    ],
  };
}
