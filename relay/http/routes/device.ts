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
import { route, type Call, type RouteGroup } from '../route.js';

export function deviceRoutes(relay: Relay): RouteGroup {
  /** A counted step of the computer (RA51). */
  const step = <T>(caller: DeviceCaller, work: (tx: DeviceTx, now: number) => Promise<T>): Promise<T> =>
    deviceStep(relay, caller, { counted: true }, work);

  /** A step with the route's JSON body (RA2: at most 64 KiB), read before it and parsed inside it: a refused body still counts. */
  const bodyStep = async <T>(
    { req, caller }: Call<'device'>,
    work: (tx: DeviceTx, body: unknown, now: number) => Promise<T>,
  ): Promise<T> => {
    const body = await readBody(req, JSON_BODY_MAX_BYTES);
    return step(caller, (tx, now) => work(tx, parseJSON(body, JSON_BODY_MAX_BYTES), now));
  };

  /** A route that answers 200 with what `read` gives for the computer. */
  const answer =
    (read: (caller: DeviceCaller) => Promise<unknown>) =>
    async ({ res, caller }: Call<'device'>) =>
      answerJson(res, 200, await read(caller));

  /** RA30: the stream is a WebSocket (relay/http/stream-upgrade.ts); a plain GET gets 426 once the token checked out. */
  const stream = () => {
    throw upgradeRequired();
  };

  /** RA20: a receipt, or a reply (a `replied` receipt). */
  const receipt = (kind?: ReceiptKind) => async (call: Call<'device'>) => {
    await bodyStep(call, (tx, body, now) => applyReceipt(tx, call.caller.deviceId, readReceipt(body, { kind }), now));
    answerJson(call.res, 200, { ok: true });
  };

  /** RA24: quiet hours and mute. */
  const status = async (call: Call<'device'>) => {
    await bodyStep(call, (tx, body) => saveStatus(tx.db, call.caller.deviceId, readDeviceStatus(body)));
    answerJson(call.res, 200, { ok: true });
  };

  /** RA22: the computer's agent keys. */
  const keys = answer(async (caller) => ({ keys: await step(caller, (tx) => listKeys(tx.db, caller.deviceId)) }));

  /** RA22: a new agent key, shown once. */
  const newKey = async (call: Call<'device'>) =>
    answerJson(call.res, 201, await bodyStep(call, (tx, body, now) => createKey(tx, call.caller.deviceId, body, now)));

  /** RA22, RA109, RA212: a key revoked (or purged); its tokens and its subscriptions end with it. */
  const revoke = async ({ req, res, caller }: Call<'device'>) => {
    const purge = req.query.purge === '1' || req.query.purge === 'true';
    const keyId = String(req.params.keyId);
    answerJson(res, 200, await step(caller, (tx, now) => revokeKey(tx, caller.deviceId, keyId, purge, now)));
  };

  /** RA211: the agents' reply-event subscriptions. */
  const events = answer((caller) => step(caller, (tx) => subscriptionsView(relay, tx.db, caller.deviceId)));

  /** RA211: an agent's reply-event subscription ends; removing one that is absent succeeds. */
  const endEvents = async ({ req, res, caller }: Call<'device'>) => {
    const id = String(req.params.id);
    if (!SUBSCRIPTION_ID_PATTERN.test(id)) throw notFound('no such subscription');
    await step(caller, (tx) => endSubscription(tx, caller.deviceId, id));
    answerJson(res, 200, { removed: true, id });
  };

  /** RA25: another computer removed, if the rules allow it. */
  const removeOther = async ({ req, res, caller }: Call<'device'>) =>
    answerJson(res, 200, await removeAnother(relay, caller, String(req.params.deviceId)));

  /** RA28: unpair: everything of this computer goes, its socket closes with 4001. */
  const unpair = async ({ res, caller }: Call<'device'>) => {
    await step(caller, (tx) => wipeDevice(tx, caller.deviceId));
    answerJson(res, 200, { unpaired: true });
  };

  return {
    guard: { prefix: '/v1/device', caller: 'device' },
    routes: [
      route({ method: 'GET', path: '/v1/device/stream', caller: 'device', handle: stream }),
      route({ method: 'POST', path: '/v1/device/receipt', caller: 'device', handle: receipt() }),
      route({ method: 'POST', path: '/v1/device/reply', caller: 'device', handle: receipt('replied') }),
      route({ method: 'POST', path: '/v1/device/status', caller: 'device', handle: status }),
      // RA24 to RA26 (core/computer.ts): this computer as the relay sees it, its usage, the computers on the relay.
      route({ method: 'GET', path: '/v1/device/info', caller: 'device', handle: answer((caller) => deviceInfo(relay, caller)) }),
      route({ method: 'GET', path: '/v1/device/usage', caller: 'device', handle: answer((caller) => deviceUsage(relay, caller)) }),
      route({ method: 'GET', path: '/v1/device/keys', caller: 'device', handle: keys }),
      route({ method: 'POST', path: '/v1/device/keys', caller: 'device', handle: newKey }),
      route({ method: 'DELETE', path: '/v1/device/keys/:keyId', caller: 'device', handle: revoke }),
      route({ method: 'GET', path: '/v1/device/events', caller: 'device', handle: events }),
      route({ method: 'DELETE', path: '/v1/device/events/subscriptions/:id', caller: 'device', handle: endEvents }),
      route({ method: 'GET', path: '/v1/device/devices', caller: 'device', handle: answer((caller) => devicesOnRelay(relay, caller)) }),
      route({ method: 'POST', path: '/v1/device/prune', caller: 'device', handle: answer((caller) => pruneDevices(relay, caller)) }),
      route({ method: 'DELETE', path: '/v1/device/devices/:deviceId', caller: 'device', handle: removeOther }),
      route({ method: 'DELETE', path: '/v1/device', caller: 'device', handle: unpair }),
    ],
  };
}
