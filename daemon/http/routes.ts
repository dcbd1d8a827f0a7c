import type { Express, Request, Response } from 'express';
import { ApiError } from '../errors.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One route: its handler returns the JSON reply (or writes the response itself). */
export interface Route {
  method: Method;
  path: string;
  handle: (req: Request, res: Response) => unknown;
}

/**
 * Mounts every route of the service. A known path with a method it does not take answers 405 with `Allow`; an
 * unknown path answers 404.
 */
export function mountRoutes(app: Express, routes: Route[]): void {
  const byPath = new Map<string, Map<string, Route>>();
  for (const route of routes) {
    if (!byPath.has(route.path)) byPath.set(route.path, new Map());
    byPath.get(route.path)!.set(route.method, route);
  }
  for (const [path, methods] of byPath) {
    const allowed = [...methods.keys()].join(', ');
    app.all(path, async (req, res) => {
      const route = methods.get(req.method);
      if (!route) {
        res.setHeader('Allow', allowed);
        throw new ApiError(405, `method not allowed: ${path} takes ${allowed}`);
      }
      const reply = await route.handle(req, res);
      if (!res.headersSent) res.json(reply);
    });
  }
  app.use((req) => {
    throw new ApiError(404, `not found: ${req.method} ${req.path}`);
  });
}
