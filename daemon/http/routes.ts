import type { Request, RequestHandler, Response } from 'express';
import { errors } from '../../protocol/errors.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One route: its handler returns the JSON reply (or writes the response itself). */
export interface Route {
  method: Method;
  path: string;
  handle: (req: Request, res: Response) => unknown;
}

/** The one way a JSON reply is written (no ETag or freshness work: every reply is fresh). */
export function sendJSON(res: Response, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** A route whose path ends in `/{id}` takes the rest of the path as its parameter (e.g. `DELETE /v1/apps/{id}`). */
const PARAMETER = '/{id}';

/** The raw (still percent-encoded) `{id}` part of the path of a parameter route. */
export const pathParameter = (res: Response): string => res.locals.pathParameter as string;

/**
 * Every route of the service, found by one map lookup on the path (a trailing slash is ignored), then by the
 * prefix of a parameter route. A known path with a method it does not take answers 405 with `Allow`; an unknown
 * path answers 404.
 */
export function routeTable(routes: Route[]): RequestHandler {
  const byPath = new Map<string, Map<string, Route>>();
  for (const route of routes) {
    if (!byPath.has(route.path)) byPath.set(route.path, new Map());
    byPath.get(route.path)!.set(route.method, route);
  }
  const allowed = new Map([...byPath].map(([path, methods]) => [path, [...methods.keys()].join(', ')]));
  const prefixes = [...byPath.keys()].filter((path) => path.endsWith(PARAMETER)).map((path) => path.slice(0, -PARAMETER.length + 1));
  return async (req, res) => {
    const path = req.path.length > 1 && req.path.endsWith('/') ? req.path.slice(0, -1) : req.path;
    const prefix = prefixes.find((start) => path.startsWith(start) && path.length > start.length);
    const exact = byPath.get(path);
    const withParameter = prefix === undefined ? undefined : byPath.get(`${prefix.slice(0, -1)}${PARAMETER}`);
    const route = exact?.get(req.method) ?? withParameter?.get(req.method);
    if (!route) {
      const known = exact ? path : prefix === undefined ? undefined : `${prefix.slice(0, -1)}${PARAMETER}`;
      if (known === undefined) throw errors.routeNotFound(req.method, req.path);
      res.setHeader('Allow', allowed.get(known)!);
      throw errors.methodNotAllowed(known, allowed.get(known)!);
    }
    if (route.path.endsWith(PARAMETER)) res.locals.pathParameter = path.slice(prefix!.length);
    const reply = await route.handle(req, res);
    if (!res.headersSent) sendJSON(res, 200, reply);
  };
}
