// Agent routes (docs/relay-api.md#ra40 to #ra49): an agent key or a connector's access token (RA100 onwards) in the
// Authorization header; the device token gets 403 wrong_credential. Each request is one locked transaction of the
// key's computer that first counts it against the daily budget (RA51).

import { answerJson } from '../../../common/json-answer.js';
import { methodNotAllowed } from '../../../protocol/relay/errors.js';
import { maxNotifyRequestBytes } from '../../../protocol/relay/notify.js';
import { readReceipt, readStatus, sendNotification } from '../../core/agent.js';
import type { Relay } from '../../core/relay.js';
import { readWaitSeconds, waitForReply } from '../../core/replies.js';
import { readBody } from '../body.js';
import { requestOrigin } from '../origin.js';
import { otherMethods, route, type Call, type RouteGroup } from '../route.js';

export function agentRoutes(relay: Relay): RouteGroup {
  /** RA40-RA45: 202 when queued, 200 with `duplicate: true` for a repeated notificationId. */
  const notify = async ({ req, res, caller }: Call<'agent'>) => {
    const body = await readBody(req, maxNotifyRequestBytes(relay.limits.maxBodyBytes));
    const sent = await sendNotification(relay, caller, body, requestOrigin(req));
    answerJson(res, sent.status, sent.body);
  };

  /** RA46: the receipt of one of this key's notifications. */
  const receipt = async ({ req, res, caller }: Call<'agent'>) =>
    answerJson(res, 200, await readReceipt(relay, caller, String(req.params.id), requestOrigin(req)));

  /** RA47: the reply, waiting up to `wait` seconds for it. */
  const reply = async ({ req, res, caller }: Call<'agent'>) => {
    const wait = readWaitSeconds(req.query.wait);
    answerJson(res, 200, await waitForReply(relay, caller, String(req.params.id), wait, requestOrigin(req)));
  };

  /** RA49: whether the computer is online, and its quiet hours. */
  const status = async ({ res, caller }: Call<'agent'>) => answerJson(res, 200, await readStatus(relay, caller));

  return {
    routes: [
      route({ method: 'POST', path: '/v1/notify', caller: 'agent', handle: notify }),
      otherMethods('/v1/notify', () => methodNotAllowed(['POST'])),
      route({ method: 'GET', path: '/v1/receipts/:id', caller: 'agent', handle: receipt }),
      otherMethods('/v1/receipts/:id', () => methodNotAllowed(['GET'])),
      route({ method: 'GET', path: '/v1/replies/:id', caller: 'agent', handle: reply }),
      otherMethods('/v1/replies/:id', () => methodNotAllowed(['GET'])),
      route({ method: 'GET', path: '/v1/status', caller: 'agent', handle: status }),
      otherMethods('/v1/status', () => methodNotAllowed(['GET'])),
    ],
  };
}
