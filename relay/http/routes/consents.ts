// Connector approvals on the computer's side (docs/relay-api.md#ra111): the list, and the person's decision. Both
// take the device token and count against the computer's budget like every device route.

import { Router } from 'express';
import { alreadyDecided, expired, invalidField, notAnObject, notFound } from '../../../protocol/relay/errors.js';
import type { Relay } from '../../core/relay.js';
import { deviceStep } from '../../core/requests.js';
import { JSON_BODY_MAX_BYTES } from '../../limits.js';
import { listConsents, redirectFor, requestDevice, settleRequest } from '../../oauth/requests.js';
import { parseJSON, readBody } from '../body.js';
import { sendJSON } from '../respond.js';
import { deviceOf, requireDevice } from './device.js';

const DECISIONS = ['approve', 'deny'] as const;

/** RA111: `{id, decision}`: the checks of the body, naming the field. */
function readDecision(body: unknown): { id: string; decision: (typeof DECISIONS)[number] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw notAnObject();
  const { id, decision } = body as Record<string, unknown>;
  if (typeof id !== 'string' || id === '') throw invalidField('id', "the connector request's id");
  if (typeof decision !== 'string' || !(DECISIONS as readonly string[]).includes(decision))
    throw invalidField('decision', 'approve or deny');
  return { id, decision: decision as (typeof DECISIONS)[number] };
}

export function consentRoutes(relay: Relay): Router {
  const router = Router();

  router.get('/v1/device/consents', requireDevice(relay), async (_req, res) => {
    const caller = deviceOf(res);
    sendJSON(res, 200, {
      consents: await deviceStep(relay, caller, { counted: true }, (tx, now) => listConsents(relay, tx, caller.deviceId, now)),
    });
  });

  // RA111: approve (makes the connector's key, RA109) or deny; only the computer the request belongs to decides.
  router.post('/v1/device/consent', requireDevice(relay), async (req, res) => {
    const caller = deviceOf(res);
    const body = await readBody(req, JSON_BODY_MAX_BYTES);
    const { id, decision } = await deviceStep(relay, caller, { counted: true }, async () =>
      readDecision(parseJSON(body, JSON_BODY_MAX_BYTES)),
    );
    if (requestDevice(relay, id) !== caller.deviceId) throw notFound('no such connector request');
    const settled = await settleRequest(relay, caller.deviceId, id, decision);
    if (settled.kind === 'unknown') throw notFound('no such connector request');
    if (settled.kind === 'closed') {
      if (settled.row.status === 'approved' || settled.row.status === 'denied') throw alreadyDecided(settled.row.status);
      throw expired(`this connector request is ${settled.row.status}: the app must ask again`);
    }
    if (settled.kind !== 'decided') throw notFound('no such connector request'); // a decision carries no code: never `wrong`
    const location = redirectFor(relay, settled.row, relay.clock());
    sendJSON(res, 200, { status: settled.row.status, ...(location !== undefined && { redirect: location }) });
  });

  return router;
}
