// ntfy's publishing dialect at the daemon's root (docs/senders.md, docs/api/ntfy.md): the tools that publish to an
// ntfy server (Uptime Kuma, Home Assistant, Apprise, shoutrrr, curl in a cron job) publish here. A topic is an app.
// The request is read into a `/v1/notify` body (protocol/dialects/ntfy.ts) and goes the way every notification
// goes; the answer is ntfy's message JSON, a refusal ntfy's error JSON.

import {
  type EmojiLookup,
  emojiLookup,
  ntfyEvent,
  ntfyMessage,
  readNtfyPublish,
  readSequenceTarget,
} from '../../../protocol/dialects/ntfy.js';
import { ntfyRequest } from '../../../protocol/dialects/ntfy-http.js';
import { object } from '../../../protocol/schemas/json-schema.js';
import { withdraw } from '../../core/scheduled/withdraw.js';
import { senderApp } from '../guard.js';
import type { Method, Route } from '../route.js';
import { readNotification } from '../routes/notifications.js';
import type { Services as AllServices } from '../services.js';

type Services = Pick<AllServices, 'notifications' | 'scheduled' | 'screen' | 'records' | 'history' | 'readState'>;

/** ntfy's emoji short codes (`warning` → ⚠️), loaded the first time a message is published: most never have tags. */
let emoji: Promise<EmojiLookup> | undefined;
const emojiOf = (): Promise<EmojiLookup> => (emoji ??= import('gemoji').then((module) => emojiLookup(module.nameToEmoji)));

/** What every route of ntfy's dialect is: a sender's, answered and refused in ntfy's shapes, its body read as bytes. */
const NTFY_ROUTE = {
  door: 'sender',
  dialect: 'ntfy',
  rawBody: true,
  tag: 'Notifications',
  // ntfy's message JSON (docs/api/ntfy.md#nt7): not described field by field, it is ntfy's.
  reply: object({}, [], "ntfy's message JSON: id, time, expires, event, topic and the fields given"),
  examples: [],
} as const;

const TOPIC = { description: 'the topic: the app it shows as' };

/** One publish route: read, checked as `/v1/notify` is, the topic against a sending key, notified, answered. */
function publish(method: Method, path: string, summary: string): Route<Services> {
  return {
    ...NTFY_ROUTE,
    method,
    path,
    summary,
    ...(path.includes('{topic}') ? { params: { topic: TOPIC } } : {}),
    errors: {
      400: 'a parameter ntfy would refuse, or a feature a desktop cannot honour (e-mail, calls)',
      403: 'a sending key of another topic',
    },
    handle: async ({ services, params, caller, raw, req }) => {
      const translation = readNtfyPublish(ntfyRequest(req, req.url, params.topic, raw), await emojiOf());
      senderApp(caller, translation.topic);
      const notification = readNotification(translation.notify);
      const { deliverAt } = translation;
      if (deliverAt) {
        // docs/api/ntfy.md#nt9: kept to show at its time; ntfy's answer says when.
        const waiting = await services.scheduled.schedule(notification, deliverAt);
        return ntfyMessage(translation, waiting.id, Math.floor(deliverAt.getTime() / 1000));
      }
      const id = await services.notifications.notify(notification);
      return ntfyMessage(translation, id, Math.floor(Date.now() / 1000));
    },
  };
}

/**
 * ntfy's clear (`PUT /<topic>/<sequence id>/clear`: the banner closes, the notification is read) and delete
 * (`DELETE /<topic>/<sequence id>`: it goes from History, or, waiting for its time, is cancelled), docs/api/ntfy.md#nt10.
 */
function sequenceRoute(method: Method, path: string, event: 'message_clear' | 'message_delete'): Route<Services> {
  return {
    ...NTFY_ROUTE,
    method,
    path,
    summary: event === 'message_clear' ? 'Clear the notification of a sequence id' : 'Delete the notification of a sequence id',
    params: { topic: TOPIC, sequenceId: { description: 'the sequence id it was sent with' } },
    errors: { 400: 'a topic or sequence id ntfy would refuse', 403: 'a sending key of another topic' },
    handle: async ({ services, params, caller }) => {
      const target = readSequenceTarget(params.topic!, params.sequenceId!);
      const app = senderApp(caller, target.topic)!;
      await withdraw(services, app, target.sequenceId, event === 'message_clear' ? 'clear' : 'delete');
      return ntfyEvent(target, event, Math.floor(Date.now() / 1000));
    },
  };
}

export function ntfyRoutes(): Route<Services>[] {
  return [
    sequenceRoute('PUT', '/{topic}/{sequenceId}/clear', 'message_clear'),
    sequenceRoute('POST', '/{topic}/{sequenceId}/clear', 'message_clear'),
    sequenceRoute('DELETE', '/{topic}/{sequenceId}', 'message_delete'),
    publish('POST', '/', "ntfy's JSON publishing: the topic in the body"),
    publish('PUT', '/{topic}', 'Publish the body to a topic'),
    publish('POST', '/{topic}', 'Publish the body to a topic'),
    ...(['publish', 'send', 'trigger'] as const).flatMap((verb) =>
      (['GET', 'PUT', 'POST'] as const).map((method) =>
        publish(method, `/{topic}/${verb}`, `Publish with the message in the query (${verb})`),
      ),
    ),
  ];
}
