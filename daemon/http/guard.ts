import { timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
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

export function guard(token: string) {
  const expected = Buffer.from(token);
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (!isLoopbackHost(req.headers.host)) {
      throw errors.forbiddenHost();
    }
    if (req.headers.origin !== undefined) {
      throw errors.forbiddenOrigin();
    }
    const open = req.method === 'GET' && req.path === '/v1/health';
    if (!open && !tokenMatches(req.headers.authorization, expected)) {
      throw errors.unauthorized();
    }
    next();
  };
}
