// The one router of the daemon's API (docs/architecture.md, "One route model"): a request passes its door (the
// API token for `/v1`, the person's session for `/app/api`), its route is found (404, or 405 with `Allow`), its
// JSON body is read (bounded), its path and query parameters are read by the route's contract, and the handler's
// answer is written as JSON. Every refusal, of any door or route, goes to the one error writer.

import type { Request, RequestHandler, Response } from 'express';
import { APP_API_BASE, isWithin } from '../../protocol/app-api.js';
import { errors } from '../../protocol/errors.js';
import { jsonBody, readRawBody } from './body.js';
import { sendError } from './error-handler.js';
import type { Session } from './window/sessions.js';
import { readQuery } from './query.js';
import type { Caller, Dialect, Method, Route } from './route.js';
import { answerJson } from '../../common/json-answer.js';

/** The checks of each door, run on the request head before any body is read. */
export interface Doors {
  /** Programs: Host, Origin, request target, one `Authorization`; then the route's credential; who called. */
  program(req: Request, door: 'open' | 'token' | 'sender'): Caller | undefined;
  /** `/app/api`: the window's own checks; the session they admit. */
  session(req: Request, res: Response): Session;
}

/** The door of a path: the window's API has its own; every other path is for programs. */
export const doorOfPath = (path: string): 'program' | 'session' => (isWithin(path, APP_API_BASE) ? 'session' : 'program');

/**
 * The error shape of a path before its route is known: Notifier's own under `/v1` and `/app`; Gotify's at its two
 * paths; ntfy's at every other path at the root, where ntfy's topics are (docs/senders.md).
 */
function dialectOfPath(given: readonly string[]): Dialect | undefined {
  const first = given[1] ?? '';
  if (first === 'v1' || first === 'app') return undefined;
  return first === 'message' || first === 'version' ? 'gotify' : 'ntfy';
}

interface Compiled<S> {
  route: Route<S>;
  /** The path's parts; a parameter part is `{name}`. */
  parts: string[];
  /** The last parameter takes the rest of the path. */
  rest: boolean;
}

/** Splits a route's path into parts, and checks once, at start, that its door is the one its path stands behind. */
function compile<S>(route: Route<S>): Compiled<S> {
  if (doorOfPath(route.path) !== (route.door === 'session' ? 'session' : 'program'))
    throw new Error(`${route.method} ${route.path}: a ${route.door} route cannot stand at this path`);
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

const NO_BYTES: Buffer = Buffer.alloc(0);

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
  // Most paths have no parameter: their routes are found by one look-up of the path, on every request; only the few
  // with parameters are matched part by part, after. So a path written out wins over a parameter that would take it
  // (`GET /v1/things/all` before `GET /v1/things/{id}`), whatever the order of the list.
  const hasParameters = (each: Compiled<S>): boolean => each.parts.some((part) => part.startsWith('{'));
  const withParameters = compiled.filter(hasParameters);
  const byPath = new Map<string, Compiled<S>[]>();
  for (const each of compiled.filter((other) => !hasParameters(other))) {
    byPath.set(each.route.path, [...(byPath.get(each.route.path) ?? []), each]);
  }
  /** The route of a method and path, or the methods the path has (none: it is unknown). */
  const lookUp = (
    method: string,
    pathname: string,
    given: string[],
  ): { route: Route<S>; raw: Record<string, string> } | { methods: Method[]; known: string | undefined } => {
    const methods: Method[] = [];
    let known: string | undefined;
    for (const each of byPath.get(pathname) ?? []) {
      if (each.route.method === method) return { route: each.route, raw: {} };
      methods.push(each.route.method);
      known ??= each.route.path;
    }
    const atRoot = dialectOfPath(given) !== undefined;
    for (const each of withParameters) {
      // A dialect's topic routes stand at the root: a path under /v1 or /app is never a topic.
      if (each.route.dialect !== undefined && !atRoot) continue;
      const raw = match(each, given);
      if (!raw) continue;
      if (each.route.method === method) return { route: each.route, raw };
      methods.push(each.route.method);
      known ??= each.route.path;
    }
    return { methods, known };
  };

  /** 404 for a path no route has; 405 with `Allow` for a method it does not take. */
  const refuseUnknown = (req: Request, res: Response, { methods, known }: { methods: Method[]; known: string | undefined }): never => {
    if (methods.length === 0) throw errors.routeNotFound(req.method, req.path);
    res.setHeader('Allow', methods.join(', '));
    throw errors.methodNotAllowed(known!, methods.join(', '));
  };

  return (req, res) => {
    const pathname = req.path.length > 1 && req.path.endsWith('/') ? req.path.slice(0, -1) : req.path;
    const given = pathname.split('/');
    let dialect = dialectOfPath(given);
    void (async () => {
      const window = doorOfPath(pathname) === 'session';
      const session = window ? doors.session(req, res) : undefined;
      const found = lookUp(req.method, pathname, given);
      // A program's request passes its door before the route's answer, even a 404: a path under /v1 nobody may
      // call without the token; at the root, where anything may be a topic, the door is a sender's.
      const door = 'route' in found ? found.route.door : dialect === undefined ? 'token' : 'sender';
      const caller = window || door === 'session' ? undefined : doors.program(req, door);
      if (!('route' in found)) return refuseUnknown(req, res, found);
      const { route, raw } = found;
      dialect = route.dialect;
      let bytes = NO_BYTES;
      if (route.rawBody) bytes = await readRawBody(req);
      else await readBody(req, res);
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
        caller,
        raw: bytes,
        req,
        res,
      });
      if (res.headersSent) return;
      answerJson(res, route.created ? 201 : 200, answer); // never cached: every answer is fresh, and the person's data is theirs
    })().catch((error: unknown) => sendError(req, res, error, dialect));
  };
}
