// The one router of the daemon's API (docs/architecture.md, "One route model"): a request passes its door (the
// API token for `/v1`, the person's session for `/app/api`), its route is found (404, or 405 with `Allow`), its
// JSON body is read (bounded), its path and query parameters are read by the route's contract, and the handler's
// answer is written as JSON. Every refusal, of any door or route, goes to the one error writer.

import type { Request, RequestHandler, Response } from 'express';
import { APP_API_BASE, isWithin } from '../../protocol/app-api.js';
import { errors } from '../../protocol/errors.js';
import { jsonBody } from './body.js';
import { sendError } from './error-handler.js';
import type { Session } from './window/sessions.js';
import { readQuery } from './query.js';
import type { Door, Method, Route } from './route.js';
import { answerJson } from '../../common/json-answer.js';

/** The checks of each door, run on the request head before any route is looked for or any body read. */
export interface Doors {
  /** `/v1`: Host, Origin, request target, one token (`tokenRequired`: every route but an open one). */
  token(req: Request, tokenRequired: boolean): void;
  /** `/app/api`: the window's own checks; the session they admit. */
  session(req: Request, res: Response): Session;
}

/** The door of a path: the window's API has its own; every other path is `/v1`'s. */
export const doorOfPath = (path: string): 'token' | 'session' => (isWithin(path, APP_API_BASE) ? 'session' : 'token');

interface Compiled<S> {
  route: Route<S>;
  /** The path's parts; a parameter part is `{name}`. */
  parts: string[];
  /** The last parameter takes the rest of the path. */
  rest: boolean;
}

/** Splits a route's path into parts, and checks once, at start, that its door is the one its path stands behind. */
function compile<S>(route: Route<S>): Compiled<S> {
  const door: Door = route.door === 'open' ? 'token' : route.door;
  if (doorOfPath(route.path) !== door) throw new Error(`${route.method} ${route.path}: a ${route.door} route cannot stand at this path`);
  const parts = route.path.split('/');
  const last = parts.at(-1)!;
  const rest = last.startsWith('{') && route.params?.[last.slice(1, -1)]?.rest === true;
  for (const part of parts.filter((each) => each.startsWith('{'))) {
    if (!route.params?.[part.slice(1, -1)]) throw new Error(`${route.method} ${route.path}: ${part} is not described in params`);
  }
  return { route, parts, rest };
}

/** A path parameter percent-decoded; a broken escape is the caller's mistake, naming the parameter. */
function decodeParameter(name: string, raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw errors.invalidField(name, 'bad percent-encoding in the path');
  }
}

/** The route's parameters when the path is one of its, else null. */
function match<S>(compiled: Compiled<S>, given: string[]): Record<string, string> | null {
  const { parts, rest } = compiled;
  if (rest ? given.length < parts.length : given.length !== parts.length) return null;
  const raw: Record<string, string> = {};
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index]!;
    if (!part.startsWith('{')) {
      if (part !== given[index]) return null;
      continue;
    }
    const value = rest && index === parts.length - 1 ? given.slice(index).join('/') : given[index]!;
    if (value === '') return null;
    raw[part.slice(1, -1)] = value;
  }
  return raw;
}

/** Reads the JSON body (bounded, `req.body`), as a promise. */
const readBody = (req: Request, res: Response): Promise<void> =>
  new Promise((resolve, reject) => jsonBody(req, res, (error?: unknown) => (error ? reject(error) : resolve())));

/** The body as an object; none at all is `{}`. */
function bodyObject(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  if (body === undefined) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw errors.bodyNotObject();
  return body as Record<string, unknown>;
}

/** The middleware that answers every route; `services` is what every handler is given (each family types its part). */
export function router<S>(routes: readonly Route<S>[], services: S, doors: Doors): RequestHandler {
  const compiled = routes.map(compile);
  const isOpen = (method: string, given: string[]): boolean =>
    compiled.some((each) => each.route.door === 'open' && each.route.method === method && match(each, given) !== null);

  const find = (req: Request, res: Response, given: string[]): { route: Route<S>; raw: Record<string, string> } => {
    const methods: Method[] = [];
    let known: string | undefined;
    for (const each of compiled) {
      const raw = match(each, given);
      if (!raw) continue;
      if (each.route.method === req.method) return { route: each.route, raw };
      methods.push(each.route.method);
      known ??= each.route.path;
    }
    if (methods.length === 0) throw errors.routeNotFound(req.method, req.path);
    res.setHeader('Allow', methods.join(', '));
    throw errors.methodNotAllowed(known!, methods.join(', '));
  };

  return (req, res) => {
    void (async () => {
      const pathname = req.path.length > 1 && req.path.endsWith('/') ? req.path.slice(0, -1) : req.path;
      const given = pathname.split('/');
      const session =
        doorOfPath(pathname) === 'session' ? doors.session(req, res) : (doors.token(req, !isOpen(req.method, given)), undefined);
      const { route, raw } = find(req, res, given);
      await readBody(req, res);
      const params = Object.fromEntries(Object.entries(raw).map(([name, value]) => [name, decodeParameter(name, value)]));
      const query = readQuery(req, route.query ?? []);
      let body: Record<string, unknown> | undefined;
      const answer = await route.handle({
        services,
        params,
        query,
        get body() {
          return (body ??= bodyObject(req));
        },
        session,
        req,
        res,
      });
      if (res.headersSent) return;
      answerJson(res, route.created ? 201 : 200, answer); // never cached: every answer is fresh, and the person's data is theirs
    })().catch((error: unknown) => sendError(req, res, error));
  };
}
