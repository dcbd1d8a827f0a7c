// Voice-reply recordings (docs/relay-api.md#ra21, #ra48): the computer uploads one with its device token; agents
// download it through the signed link in the receipt, without a credential.

import { announcedLength } from '../../../common/bounded-body.js';
import { answerJson } from '../../../common/json-answer.js';
import { MAX_AUDIO_BYTES } from '../../../protocol/relay/limits.js';
import { precheckUpload, readDownload, storeUpload } from '../../core/audio.js';
import type { Relay } from '../../core/relay.js';
import { deviceStep } from '../../core/requests.js';
import { readBody } from '../body.js';
import { route, type Call, type RouteGroup } from '../route.js';

export function audioRoutes(relay: Relay): RouteGroup {
  /** RA21: checks before the body is read (a refused upload is never read), then with it. */
  const upload = async ({ req, res, caller }: Call<'device'>) => {
    const rid = String(req.params.rid);
    await deviceStep(relay, caller, { counted: true }, (tx, now) =>
      precheckUpload(relay, tx, caller.deviceId, rid, announcedLength(req), now),
    );
    const body = await readBody(req, MAX_AUDIO_BYTES);
    const bytes = await deviceStep(relay, caller, { counted: false }, (tx, now) =>
      storeUpload(relay, tx, caller.deviceId, rid, body, req.get('content-type'), now),
    );
    answerJson(res, 200, { ok: true, bytes });
  };

  /** RA48: a signed, expiring link. */
  const download = async ({ req, res }: Call<'none'>) => {
    const { deviceId, file } = req.params;
    const audio = await readDownload(relay, String(deviceId), String(file), req.query.exp, req.query.sig, relay.clock());
    res.status(200);
    res.setHeader('Content-Type', 'audio/mp4');
    res.setHeader('Cache-Control', 'private, no-store');
    res.setHeader('Content-Length', audio.length);
    res.end(audio);
  };

  return {
    routes: [
      route({ method: 'PUT', path: '/v1/device/reply/:rid/audio', caller: 'device', handle: upload }),
      route({ method: 'GET', path: '/v1/audio/:deviceId/:file', caller: 'none', handle: download }),
    ],
  };
}
