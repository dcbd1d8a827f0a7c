// Connector approvals on the computer's side (docs/relay-api.md#ra111): the list, and the person's decision. Both
// take the device token and count against the computer's budget like every device route.

import { answerJson } from '../../../common/json-answer.js';
import { invalidField, notAnObject } from '../../../protocol/relay/errors.js';
import type { Relay } from '../../core/relay.js';
import { deviceStep } from '../../core/requests.js';
import { JSON_BODY_MAX_BYTES } from '../../limits.js';
import { decideOnComputer, listConsents } from '../../oauth/requests.js';
import { parseJSON, readBody } from '../body.js';
import { route, type Call, type RouteGroup } from '../route.js';

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

export function consentRoutes(relay: Relay): RouteGroup {
  /** RA111: the last day's requests, newest first. */
  const list = async ({ res, caller }: Call<'device'>) => {
    const consents = await deviceStep(relay, caller, { counted: true }, (tx, now) => listConsents(relay, tx, caller.deviceId, now));
    answerJson(res, 200, { consents });
  };

  /** RA111: approve (makes the connector's key, RA109) or deny; only the computer the request belongs to decides. */
  const decide = async ({ req, res, caller }: Call<'device'>) => {
    const body = await readBody(req, JSON_BODY_MAX_BYTES);
    // Counted even when the body is refused (the refusal commits with the count).
    const { id, decision } = await deviceStep(relay, caller, { counted: true }, async () =>
      readDecision(parseJSON(body, JSON_BODY_MAX_BYTES)),
    );
    answerJson(res, 200, await decideOnComputer(relay, caller.deviceId, id, decision));
  };

  return {
    routes: [
      route({ method: 'GET', path: '/v1/device/consents', caller: 'device', handle: list }),
      route({ method: 'POST', path: '/v1/device/consent', caller: 'device', handle: decide }),
    ],
  };
}
