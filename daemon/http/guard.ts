import { timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { secretOfAuthorization, senderSecret } from '../../protocol/dialects/credentials.js';
import { errors } from '../../protocol/errors.js';
import type { SendKeys, SendKeyView } from '../core/keys/send-keys.js';

/** Who called a `token` or `sender` route: the holder of the API token, or of one app's sending key. */
export type Caller = { kind: 'token' } | { kind: 'key'; key: SendKeyView };

// The guard in front of every route (docs/api/README.md#g7, #g8, #g9). It runs on the request head alone, before
// any body is read: a refused request costs nothing and its body is never looked at.

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** `Host` is a loopback name with an optional port, any case (DNS rebinding sends the attacker's name). */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const value = host.trim().toLowerCase();
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d{1,5}))?$/.exec(value);
  return match !== null && LOOPBACK_NAMES.has(match[1]!);
}

/**
 * Compares in constant time. Only a value of the token's length is compared at all: that length (64) is no
 * secret, every token has it.
 */
function tokenMatches(given: string | undefined, expected: Buffer): boolean {
  if (given === undefined || Buffer.byteLength(given) !== expected.length) return false;
  return timingSafeEqual(Buffer.from(given), expected);
}

/**
 * How many headers of a name (lower case) the request carries. For `Host` and `Authorization` Node keeps the first
 * in `req.headers` and drops the others, so a check of `req.headers` alone would not see a second one.
 */
function headerCount(rawHeaders: readonly string[], name: string): number {
  let count = 0;
  for (let at = 0; at < rawHeaders.length; at += 2) if (rawHeaders[at]!.toLowerCase() === name) count++;
  return count;
}

/** A request with two `Host` headers is 400 (docs/api/README.md#g8): the loopback check reads only the first. */
export function refuseDuplicateHost(req: Request): void {
  if (headerCount(req.rawHeaders, 'host') > 1) throw errors.duplicateHost();
}

/** Two `Authorization` headers are 400 (docs/api/README.md#g7), as two `Host` are: the token check would read one. */
function refuseDuplicateAuthorization(req: Request): void {
  if (headerCount(req.rawHeaders, 'authorization') > 1) throw errors.duplicateAuthorization();
}

/**
 * A request target in absolute form (`GET http://host:port/path HTTP/1.1`, what a client sends to a proxy) is ours
 * only when it names this very server: http, a loopback name and the port the request came in on. Anything else
 * asks us to forward the request elsewhere, which a service on 127.0.0.1 must never look like it does.
 */
function targetIsElsewhere(target: string, localPort: number | undefined): boolean {
  if (target.startsWith('/') || target === '*') return false;
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return true;
  }
  return url.protocol !== 'http:' || !isLoopbackHost(url.host) || Number(url.port || 80) !== localPort;
}

/** What the doors of programs check a sending key with. */
export type KeyCheck = Pick<SendKeys, 'verify' | 'isKey'>;

/**
 * The doors of programs (docs/api/README.md#g7, #g8; docs/api/keys.md#k4): one loopback `Host`, a request line
 * naming this daemon, no `Origin`, one `Authorization`; then, by the route's door, nothing (`open`), the API token
 * as a bearer (`token`), or the API token or a sending key in any form a sender's client sends it (`sender`). They
 * read the request head only: a refused request's body is never read. A sending key at a `token` route is 403, not
 * 401: the key is good, the route is not one it opens.
 */
export function programDoor(token: string, keys: KeyCheck): (req: Request, door: 'open' | 'token' | 'sender') => Caller | undefined {
  const expected = Buffer.from(token);
  return (req, door) => {
    refuseDuplicateHost(req);
    if (targetIsElsewhere(req.originalUrl, req.socket.localPort)) throw errors.forbiddenTarget();
    if (!isLoopbackHost(req.headers.host)) throw errors.forbiddenHost();
    if (req.headers.origin !== undefined) throw errors.forbiddenOrigin();
    refuseDuplicateAuthorization(req);
    if (door === 'open') return undefined;
    if (door === 'token') {
      const given = secretOfAuthorization(req.headers.authorization);
      if (tokenMatches(/^\s*bearer\s/i.test(req.headers.authorization ?? '') ? given : undefined, expected)) return TOKEN_CALLER;
      if (given !== undefined && keys.isKey(given)) throw errors.sendKeyNotHere();
      throw errors.unauthorized();
    }
    const secret = senderSecret(req.headers, req.url);
    if (tokenMatches(secret, expected)) return TOKEN_CALLER;
    const key = secret === undefined ? null : keys.verify(secret);
    if (key === null) throw errors.unauthorized();
    return { kind: 'key', key };
  };
}

const TOKEN_CALLER: Caller = { kind: 'token' };

/**
 * The app a sender sends as (docs/api/keys.md#k3): the one it names, which a sending key must be of; a key's own
 * when it names none. With the API token, any app as given.
 */
export function senderApp(caller: Caller | undefined, app: string | undefined): string | undefined {
  if (caller?.kind !== 'key') return app;
  if (app === undefined || app === '') return caller.key.app;
  if (app !== caller.key.app) throw errors.sendKeyOtherApp(caller.key.app, app);
  return app;
}

/** A `/v1/notify` body as its sender may send it: `app` checked against a sending key, or filled in from it. */
export function asSender(caller: Caller | undefined, body: Record<string, unknown>): Record<string, unknown> {
  if (caller?.kind !== 'key' || (body.app !== undefined && typeof body.app !== 'string')) return body; // the body's check names a bad app
  return { ...body, app: senderApp(caller, body.app as string | undefined) };
}
