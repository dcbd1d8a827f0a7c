// Voice-reply recordings (docs/relay-api.md#ra21, #ra48): the computer uploads one with its device token; agents
// download it through the signed link in the receipt, without a credential.

import { Router } from 'express';
import { MAX_AUDIO_BYTES } from '../../../protocol/relay/limits.js';
import { precheckUpload, readDownload, storeUpload } from '../../core/audio.js';
import type { Relay } from '../../core/relay.js';
import { deviceStep } from '../../core/requests.js';
import { declaredLength, readBody } from '../body.js';
import { sendJSON } from '../respond.js';
import { deviceOf, requireDevice } from './device.js';

export function audioRoutes(relay: Relay): Router {
  const router = Router();

  // RA21: checks before the body is read (a refused upload is never read), then with it.
  router.put('/v1/device/reply/:rid/audio', requireDevice(relay), async (req, res) => {
    const caller = deviceOf(res);
    const rid = String(req.params.rid);
    await deviceStep(relay, caller, { counted: true }, (tx, now) =>
      precheckUpload(relay, tx, caller.deviceId, rid, declaredLength(req), now),
    );
    const body = await readBody(req, MAX_AUDIO_BYTES);
    const bytes = await deviceStep(relay, caller, { counted: false }, (tx, now) =>
      storeUpload(relay, tx, caller.deviceId, rid, body, req.get('content-type'), now),
    );
    sendJSON(res, 200, { ok: true, bytes });
  });

  // RA48: a signed, expiring link.
  router.get('/v1/audio/:deviceId/:file', async (req, res) => {
    const audio = await readDownload(
      relay,
      String(req.params.deviceId),
      String(req.params.file),
      req.query.exp,
      req.query.sig,
      relay.clock(),
    );
    res.status(200);
    res.setHeader('Content-Type', 'audio/mp4');
    res.setHeader('Cache-Control', 'private, no-store');
    res.setHeader('Content-Length', audio.length);
    res.end(audio);
  });

  return router;
}
