import { timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { errors } from '../../protocol/errors.js';

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
function tokenMatches(authorization: string | undefined, expected: Buffer): boolean {
  const given = /^\s*bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
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

/**
 * The door of `/v1` (docs/api/README.md#g7, #g8): one loopback `Host`, a request line naming this daemon, no
 * `Origin`, one `Authorization` holding the token — unless the route is open (the health check). It reads the
 * request head only: a refused request's body is never read.
 */
export function tokenDoor(token: string): (req: Request, tokenRequired: boolean) => void {
  const expected = Buffer.from(token);
  return (req, tokenRequired) => {
    refuseDuplicateHost(req);
    if (targetIsElsewhere(req.originalUrl, req.socket.localPort)) throw errors.forbiddenTarget();
    if (!isLoopbackHost(req.headers.host)) throw errors.forbiddenHost();
    if (req.headers.origin !== undefined) throw errors.forbiddenOrigin();
    refuseDuplicateAuthorization(req);
    if (tokenRequired && !tokenMatches(req.headers.authorization, expected)) throw errors.unauthorized();
  };
}
