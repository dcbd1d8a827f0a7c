// Pairing routes (docs/relay-api.md#ra10, #ra11): no credential; the relay-wide limits protect them.

import { answerJson } from '../../../common/json-answer.js';
import { methodNotAllowed } from '../../../protocol/relay/errors.js';
import { completePairing, startPairing } from '../../core/pairing.js';
import type { Relay } from '../../core/relay.js';
import { JSON_BODY_MAX_BYTES } from '../../limits.js';
import { readJSON } from '../body.js';
import { clientAddressHash } from '../origin.js';
import { otherMethods, route, type Call, type RouteGroup } from '../route.js';

export function pairingRoutes(relay: Relay): RouteGroup {
  /** RA11: a one-time code, from this address (hashed) and with the pairing secret when the relay has one. */
  const start = async ({ req, res }: Call<'none'>) => {
    const body = await readJSON(req, JSON_BODY_MAX_BYTES);
    answerJson(
      res,
      201,
      await startPairing(relay, { addressHash: clientAddressHash(req), body, secretHeader: req.get('x-pairing-secret') }),
    );
  };

  /** RA11: the code traded for the computer's device token, shown once. */
  const complete = async ({ req, res }: Call<'none'>) => {
    const body = await readJSON(req, JSON_BODY_MAX_BYTES);
    answerJson(res, 200, await completePairing(relay, { addressHash: clientAddressHash(req), body }));
  };

  return {
    routes: [
      route({ method: 'POST', path: '/v1/pair/start', caller: 'none', handle: start }),
      route({ method: 'POST', path: '/v1/pair', caller: 'none', handle: complete }),
      otherMethods(['/v1/pair/start', '/v1/pair'], () => methodNotAllowed(['POST'])),
    ],
  };
}
