// ntfy's and Gotify's publishing dialects at the relay's root (docs/senders.md, "Through the relay"; docs/relay-api.md
// RA70): a tool that runs on another machine (a CI step, a server) publishes as it would to ntfy or Gotify, with an
// agent key as its token, and the relay hands the notification to the key's computer. Each publish is translated
// (protocol/dialects/) into the relay's agent notification and sent as an agent's notify is (RA40): the same limits,
// receipts, metrics and log line. A topic names nothing on the relay: the key alone chooses the computer.
// Refusals are in the dialect's shape. This group comes last: the relay's own paths are matched before a topic.

import type { ErrorRequestHandler, Request } from 'express';
import { answerJson } from '../../../common/json-answer.js';
import { TOO_LARGE } from '../../../common/bounded-body.js';
import { GotifyError, GOTIFY_VERSION, gotifyErrorBody, gotifyMessage, readGotifyMessage } from '../../../protocol/dialects/gotify.js';
import {
  type EmojiLookup,
  emojiLookup,
  NtfyError,
  ntfyErrorBody,
  ntfyErrorOf,
  ntfyErrors,
  ntfyEvent,
  ntfyMessage,
  readNtfyPublish,
  readSequenceTarget,
} from '../../../protocol/dialects/ntfy.js';
import { ntfyRequest } from '../../../protocol/dialects/ntfy-http.js';
import { relayedNotification, relayedWithdrawal, type RelayedFields, type RelayedWithdrawal } from '../../../protocol/dialects/relayed.js';
import { maxNotifyRequestBytes } from '../../../protocol/relay/notify.js';
import { RelayError } from '../../../protocol/relay/errors.js';
import type { AgentCaller } from '../../core/auth.js';
import { sendNotification } from '../../core/agent.js';
import type { Relay } from '../../core/relay.js';
import { readBody } from '../body.js';
import { requestOrigin } from '../origin.js';
import { route, type Call, type RouteGroup } from '../route.js';

/** The title of a Gotify message that has none: Gotify shows its application's name, which here is the key's. */
const GOTIFY_UNTITLED = 'Gotify';

/** ntfy's emoji short codes (`warning` → ⚠️), loaded the first time a message is published: most never have tags. */
let emoji: Promise<EmojiLookup> | undefined;
const emojiOf = (): Promise<EmojiLookup> => (emoji ??= import('gemoji').then((module) => emojiLookup(module.nameToEmoji)));

export function dialectRoutes(relay: Relay): RouteGroup {
  /** The body, bounded as an agent's notify is (RA40). */
  const bodyOf = async (req: Request): Promise<Buffer> => {
    const body = await readBody(req, maxNotifyRequestBytes(relay.limits.maxBodyBytes));
    if (body === TOO_LARGE) throw ntfyErrors.tooLarge();
    return body;
  };
  /** Sent as an agent's notify: its receipt's id. */
  const send = async (req: Request, caller: AgentCaller, fields: RelayedFields | RelayedWithdrawal): Promise<string> => {
    const sent = await sendNotification(relay, caller, Buffer.from(JSON.stringify(fields)), requestOrigin(req));
    return sent.body.notificationId;
  };

  const publish = async ({ req, res, caller }: Call<'sender'>) => {
    const request = ntfyRequest(req, req.originalUrl, req.params.topic as string | undefined, await bodyOf(req));
    const translation = readNtfyPublish(request, await emojiOf(), new Date(relay.clock()));
    const { deliverAt } = translation; // the computer keeps it until then (RA44b)
    const id = await send(req, caller, relayedNotification(translation.notify, translation.topic, deliverAt));
    answerJson(res, 200, ntfyMessage(translation, id, Math.floor((deliverAt?.getTime() ?? relay.clock()) / 1000)));
  };

  const message = async ({ req, res, caller }: Call<'sender'>) => {
    const translation = await readGotifyMessage({ contentType: req.headers['content-type'], body: await bodyOf(req) }, GOTIFY_UNTITLED);
    const taken = relay.clock();
    await send(req, caller, relayedNotification(translation.notify));
    answerJson(res, 200, gotifyMessage(translation, taken, 0, new Date(taken).toISOString()));
  };

  /** ntfy's clear and delete of a sequence id: the computer takes the notification back (RA44c). */
  const withdraw =
    (event: 'message_clear' | 'message_delete') =>
    async ({ req, res, caller }: Call<'sender'>): Promise<void> => {
      const target = readSequenceTarget(req.params.topic as string, req.params.sequenceId as string);
      await send(req, caller, relayedWithdrawal(target.sequenceId, event));
      answerJson(res, 200, ntfyEvent(target, event, Math.floor(relay.clock() / 1000)));
    };
  const sequenceRoute = (method: 'PUT' | 'POST' | 'DELETE', path: string, event: 'message_clear' | 'message_delete') =>
    route({ method, path, caller: 'sender', leaves: isRelayPath, handle: withdraw(event) });

  const topicPaths = ['/:topic/publish', '/:topic/send', '/:topic/trigger'];
  return {
    routes: [
      route({ method: 'GET', path: '/version', caller: 'none', handle: ({ res }) => answerJson(res, 200, GOTIFY_VERSION) }),
      route({ method: 'POST', path: '/message', caller: 'sender', handle: message }),
      sequenceRoute('PUT', '/:topic/:sequenceId/clear', 'message_clear'),
      sequenceRoute('POST', '/:topic/:sequenceId/clear', 'message_clear'),
      sequenceRoute('DELETE', '/:topic/:sequenceId', 'message_delete'),
      route({ method: 'POST', path: '/', caller: 'sender', handle: publish }),
      route({ method: 'PUT', path: '/:topic', caller: 'sender', handle: publish }),
      route({ method: 'POST', path: '/:topic', caller: 'sender', handle: publish }),
      ...(['GET', 'PUT', 'POST'] as const).map((method) => route({ method, path: topicPaths, caller: 'sender', handle: publish })),
    ],
    errors: dialectRefusals,
  };
}

/** `/v1/...`: the relay's own API, never a topic's sequence id (an unknown one is 404, as the relay answers it). */
const isRelayPath = (req: Request): boolean => req.params.topic === 'v1';

/** Gotify's two paths; every other path of this group is ntfy's. */
const isGotifyPath = (path: string): boolean => path === '/message' || path === '/version';

/**
 * A refusal in the dialect's shape: the dialect's own errors as they are; the relay's (a credential, a limit, a
 * field of the notification) with their words and status, and `Retry-After` where the relay sets one (RA3).
 */
const dialectRefusals: ErrorRequestHandler = (error, req, res, next) => {
  if (!(error instanceof NtfyError || error instanceof GotifyError || error instanceof RelayError)) return next(error);
  if (error instanceof RelayError && error.details.retryAfterHeader && error.details.retryAfterSeconds !== undefined) {
    res.setHeader('Retry-After', String(error.details.retryAfterSeconds));
  }
  if (!req.complete) res.setHeader('Connection', 'close');
  const status = error instanceof NtfyError ? error.http : error.status;
  const message = error instanceof RelayError ? `${error.code}: ${error.message}` : error.message;
  if (isGotifyPath(req.path)) return answerJson(res, status, gotifyErrorBody(status, message));
  answerJson(res, status, ntfyErrorBody(error instanceof NtfyError ? error : ntfyErrorOf(status, message)));
};
