// The credential check in front of a group of routes: whoever the route takes (the computer or an agent), the
// caller is authenticated before its body is read, and kept for the route on `res.locals`.

import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { repeatedAuthorization } from '../../protocol/relay/errors.js';

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

/** A middleware that authenticates the request with `authenticate` and keeps the caller under `name`. */
export function requireCaller<T>(name: string, authenticate: (authorization: string | undefined) => Promise<T>) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    res.locals[name] = await authenticate(authorizationOf(req));
    next();
  };
}
