// Who is calling (docs/relay-api.md#ra1, #ra2), for each kind of caller a route may declare (route.ts): checked
// before the body is read, and kept on `res.locals` (`device` or `agent`) for the request's log line.

import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Request, Response } from 'express';
import { senderSecret } from '../../protocol/dialects/credentials.js';
import { repeatedAuthorization, unauthorized } from '../../protocol/relay/errors.js';
import { authenticateAgent, authenticateDevice, type DeviceCaller } from '../core/auth.js';
import type { Relay } from '../core/relay.js';
import { authenticateClient, readClientCredentials } from '../oauth/clients.js';
import { readForm } from './form.js';
import type { Authenticators } from './route.js';

/**
 * The request's one `Authorization` header, or undefined. Two are refused (RA2): Node keeps only the first in
 * `req.headers`, so which credential counted would depend on who reads the request.
 */
export function authorizationOf(req: IncomingMessage): string | undefined {
  let count = 0;
  for (let at = 0; at < req.rawHeaders.length; at += 2) if (req.rawHeaders[at]!.toLowerCase() === 'authorization') count++;
  if (count > 1) throw repeatedAuthorization();
  return req.headers.authorization;
}

/** Equal-length digests, so the comparison takes the same time whatever the token given. */
const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** docs/relay.md, "Metrics": `Authorization: Bearer <RELAY_METRICS_TOKEN>`, compared in constant time. */
function bearerMatches(req: Request, token: string): boolean {
  const given = /^Bearer (.+)$/i.exec(authorizationOf(req) ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(given), digest(token));
}

/** The authenticators of one relay; `metricsToken`: RELAY_METRICS_TOKEN (without it no route takes the scraper). */
export function authenticators(relay: Relay, metricsToken: string | undefined): Authenticators {
  return {
    none: async () => undefined,
    // Once per request: a guard of the device paths (routes/device.ts) and the route both ask.
    device: async (req: Request, res: Response) =>
      ((res.locals.device as DeviceCaller | undefined) ??= await authenticateDevice(relay, authorizationOf(req))),
    agent: async (req: Request, res: Response) => (res.locals.agent = await authenticateAgent(relay, authorizationOf(req))),
    // RA70: the dialects' clients send the credential as Basic's password, in the query, or as Gotify's header.
    sender: async (req: Request, res: Response) => {
      const secret = senderSecret({ ...req.headers, authorization: authorizationOf(req) }, req.originalUrl);
      return (res.locals.agent = await authenticateAgent(relay, secret === undefined ? undefined : `Bearer ${secret}`));
    },
    metrics: async (req: Request) => {
      if (metricsToken === undefined || !bearerMatches(req, metricsToken))
        throw unauthorized('GET /metrics needs RELAY_METRICS_TOKEN: Authorization: Bearer <token>');
      return undefined;
    },
    client: async (req: Request) => {
      const form = await readForm(req);
      return { client: await authenticateClient(relay, readClientCredentials(authorizationOf(req), form)), form };
    },
  };
}
