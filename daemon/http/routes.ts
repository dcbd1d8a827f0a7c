import type { Request, RequestHandler, Response } from 'express';
import { ApiError } from '../errors.js';

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

/**
 * Every route of the service, found by one map lookup on the path (a trailing slash is ignored). A known path
 * with a method it does not take answers 405 with `Allow`; an unknown path answers 404.
 */
export function routeTable(routes: Route[]): RequestHandler {
  const byPath = new Map<string, Map<string, Route>>();
  for (const route of routes) {
    if (!byPath.has(route.path)) byPath.set(route.path, new Map());
    byPath.get(route.path)!.set(route.method, route);
  }
  const allowed = new Map([...byPath].map(([path, methods]) => [path, [...methods.keys()].join(', ')]));
  return async (req, res) => {
    const path = req.path.length > 1 && req.path.endsWith('/') ? req.path.slice(0, -1) : req.path;
    const methods = byPath.get(path);
    if (!methods) throw new ApiError(404, `not found: ${req.method} ${req.path}`);
    const route = methods.get(req.method);
    if (!route) {
      res.setHeader('Allow', allowed.get(path)!);
      throw new ApiError(405, `method not allowed: ${path} takes ${allowed.get(path)}`);
    }
    const reply = await route.handle(req, res);
    if (!res.headersSent) sendJSON(res, 200, reply);
  };
}
