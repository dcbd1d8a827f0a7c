// Agent routes (docs/relay-api.md#ra40 to #ra49): an agent key in the Authorization header. Each request is one
// locked transaction of the key's computer that first counts it against the daily budget (RA51).

import { Router, type Response } from 'express';
import { methodNotAllowed } from '../../../protocol/relay/errors.js';
import { maxNotifyRequestBytes } from '../../../protocol/relay/notify.js';
import { authenticateAgent, type AgentCaller } from '../../core/auth.js';
import { readReceipt, readStatus, sendNotification } from '../../core/agent.js';
import type { Relay } from '../../core/relay.js';
import { readWaitSeconds, waitForReply } from '../../core/replies.js';
import { requireCaller } from '../auth.js';
import { readBody } from '../body.js';
import { requestOrigin } from '../origin.js';
import { sendJSON } from '../respond.js';

const agentOf = (res: Response): AgentCaller => res.locals.agent as AgentCaller;

/** RA2: an agent key or a connector's access token (docs/relay-api.md#ra100 onwards); the device token gets 403 wrong_credential. */
const requireAgent = (relay: Relay) => requireCaller('agent', (authorization) => authenticateAgent(relay, authorization));

export function agentRoutes(relay: Relay): Router {
  const router = Router();
  const onlyWith = (methods: string[]) => () => {
    throw methodNotAllowed(methods);
  };

  // RA40-RA45: send a notification. 202 when queued, 200 with `duplicate: true` for a repeated notificationId.
  router.post('/v1/notify', requireAgent(relay), async (req, res) => {
    const body = await readBody(req, maxNotifyRequestBytes(relay.limits.maxBodyBytes));
    const sent = await sendNotification(relay, agentOf(res), body, requestOrigin(req));
    sendJSON(res, sent.status, sent.body);
  });
  router.all('/v1/notify', onlyWith(['POST']));

  // RA46: the receipt of one of this key's notifications.
  router.get('/v1/receipts/:id', requireAgent(relay), async (req, res) => {
    sendJSON(res, 200, await readReceipt(relay, agentOf(res), String(req.params.id), requestOrigin(req)));
  });
  router.all('/v1/receipts/:id', onlyWith(['GET']));

  // RA47: the reply, waiting up to `wait` seconds for it.
  router.get('/v1/replies/:id', requireAgent(relay), async (req, res) => {
    const wait = readWaitSeconds(req.query.wait);
    sendJSON(res, 200, await waitForReply(relay, agentOf(res), String(req.params.id), wait, requestOrigin(req)));
  });
  router.all('/v1/replies/:id', onlyWith(['GET']));

  // RA49: whether the computer is online, and its quiet hours.
  router.get('/v1/status', requireAgent(relay), async (_req, res) => {
    sendJSON(res, 200, await readStatus(relay, agentOf(res)));
  });
  router.all('/v1/status', onlyWith(['GET']));

  return router;
}
