// Pairing routes (docs/relay-api.md#ra10, #ra11): no credential; the relay-wide limits protect them.

import { Router } from 'express';
import { methodNotAllowed } from '../../../protocol/relay/errors.js';
import { completePairing, startPairing } from '../../core/pairing.js';
import type { Relay } from '../../core/relay.js';
import { readJSON } from '../body.js';
import { clientAddressHash } from '../origin.js';
import { sendJSON } from '../respond.js';
import { JSON_BODY_MAX_BYTES } from '../../limits.js';

export function pairingRoutes(relay: Relay): Router {
  const router = Router();

  router.post('/v1/pair/start', async (req, res) => {
    const body = await readJSON(req, JSON_BODY_MAX_BYTES);
    const started = await startPairing(relay, { addressHash: clientAddressHash(req), body, secretHeader: req.get('x-pairing-secret') });
    sendJSON(res, 201, started);
  });

  router.post('/v1/pair', async (req, res) => {
    const body = await readJSON(req, JSON_BODY_MAX_BYTES);
    sendJSON(res, 200, await completePairing(relay, { addressHash: clientAddressHash(req), body }));
  });

  router.all(['/v1/pair/start', '/v1/pair'], () => {
    throw methodNotAllowed(['POST']);
  });
  return router;
}
