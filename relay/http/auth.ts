// The credential check in front of a group of routes: whoever the route takes (the computer or an agent), the
// caller is authenticated before its body is read, and kept for the route on `res.locals`.

import type { NextFunction, Request, Response } from 'express';

/** A middleware that authenticates the request with `authenticate` and keeps the caller under `name`. */
export function requireCaller<T>(name: string, authenticate: (authorization: string | undefined) => Promise<T>) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    res.locals[name] = await authenticate(req.headers.authorization);
    next();
  };
}
