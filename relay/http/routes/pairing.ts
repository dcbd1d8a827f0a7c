// Pairing routes (docs/relay-api.md#ra10, #ra11): no credential; the relay-wide limits protect them.

import { answerJson } from '../../../common/json-answer.js';
import { methodNotAllowed } from '../../../protocol/relay/errors.js';
import { completePairing, startPairing } from '../../core/pairing.js';
import type { Relay } from '../../core/relay.js';
import { JSON_BODY_MAX_BYTES } from '../../limits.js';
import { readJSON } from '../body.js';
import { clientAddressHash } from '../origin.js';
import { otherMethods, route, type RouteGroup } from '../route.js';

export function pairingRoutes(relay: Relay): RouteGroup {
  return {
    routes: [
      route({
        method: 'POST',
        path: '/v1/pair/start',
        caller: 'none',
        handle: async ({ req, res }) => {
          const body = await readJSON(req, JSON_BODY_MAX_BYTES);
          const started = await startPairing(relay, {
            addressHash: clientAddressHash(req),
            body,
            secretHeader: req.get('x-pairing-secret'),
          });
          answerJson(res, 201, started);
        },
      }),
      route({
        method: 'POST',
        path: '/v1/pair',
        caller: 'none',
        handle: async ({ req, res }) => {
          const body = await readJSON(req, JSON_BODY_MAX_BYTES);
          answerJson(res, 200, await completePairing(relay, { addressHash: clientAddressHash(req), body }));
        },
      }),
      otherMethods(['/v1/pair/start', '/v1/pair'], () => methodNotAllowed(['POST'])),
    ],
  };
}
