// Agent routes (docs/relay-api.md#ra40 to #ra49): an agent key in the Authorization header. Each request is one
// locked transaction of the key's computer that first counts it against the daily budget (RA51).

import { Router, type NextFunction, type Request, type Response } from 'express';
import { methodNotAllowed } from '../../../protocol/relay/errors.js';
import { maxNotifyRequestBytes } from '../../../protocol/relay/notify.js';
import { authenticateAgent, type AgentCaller } from '../../core/auth.js';
import { findDevice, statusView } from '../../core/devices.js';
import { notify, readableNote } from '../../core/notes.js';
import type { Relay } from '../../core/relay.js';
import { readWaitSeconds, waitForReply } from '../../core/replies.js';
import { agentStep } from '../../core/requests.js';
import { receiptView } from '../../core/views.js';
import { readBody } from '../body.js';
import { requestOrigin } from '../origin.js';
import { sendJSON } from '../respond.js';

const agentOf = (res: Response): AgentCaller => res.locals.agent as AgentCaller;

/** RA2: an agent key (or, with issue 13, an access token); the device token gets 403 wrong_credential. */
export function requireAgent(relay: Relay) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    res.locals.agent = await authenticateAgent(relay, req.headers.authorization);
    next();
  };
}

export function agentRoutes(relay: Relay): Router {
  const router = Router();
  const onlyWith = (methods: string[]) => () => {
    throw methodNotAllowed(methods);
  };

  // RA40-RA45: send a notification. 202 when queued, 200 with `duplicate: true` for a repeated notificationId.
  router.post('/v1/notify', requireAgent(relay), async (req, res) => {
    const agent = agentOf(res);
    const body = await readBody(req, maxNotifyRequestBytes(relay.limits.maxBodyBytes));
    const outcome = await agentStep(relay, agent, { readLimited: false }, (tx, now) => notify(relay, tx, agent, body, now));
    const receipt = receiptView(outcome.note, { relay, origin: requestOrigin(req), now: relay.clock() });
    sendJSON(res, outcome.duplicate ? 200 : 202, { duplicate: outcome.duplicate, ...receipt });
  });
  router.all('/v1/notify', onlyWith(['POST']));

  // RA46: the receipt of one of this key's notifications.
  router.get('/v1/receipts/:id', requireAgent(relay), async (req, res) => {
    const agent = agentOf(res);
    const note = await agentStep(relay, agent, { readLimited: true }, (tx, now) => readableNote(tx.db, agent, String(req.params.id), now));
    sendJSON(res, 200, receiptView(note, { relay, origin: requestOrigin(req), now: relay.clock() }));
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
    const agent = agentOf(res);
    sendJSON(res, 200, await agentStep(relay, agent, { readLimited: false }, async (tx, now) => statusView((await findDevice(tx.db, agent.deviceId))!, now)));
  });
  router.all('/v1/status', onlyWith(['GET']));

  return router;
}
