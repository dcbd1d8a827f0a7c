// How a relay route is declared (docs/architecture.md, "The relay's routes and errors"): its method, its path, who
// may call it, and a handler that reads as named steps calling a core function. Each file of routes/ declares
// one group; routerOf makes the group's Express routes: the caller is authenticated before anything of the body
// is read, and whatever a handler throws goes to the group's own error writer, if it has one (OAuth's JSON, MCP's
// challenge), then to the one error handler (errors.ts), which answers a RelayError with its status and body.

import { Router, type ErrorRequestHandler, type NextFunction, type Request, type Response } from 'express';
import type { AgentCaller, DeviceCaller } from '../core/auth.js';
import type { OAuthClient } from '../oauth/client-rules.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS' | 'ALL';

/**
 * Who may call a route (docs/relay-api.md#ra2): anyone; the paired computer, with its device token; an agent,
 * with an agent key or a connector's access token; an agent that speaks ntfy's or Gotify's dialect, with the same
 * credential in any form their clients send it (RA70); a scraper, with RELAY_METRICS_TOKEN; an OAuth client, with
 * its credentials (RA106: in the Authorization header or in the form, so its form is read first).
 */
export type Caller = 'none' | 'device' | 'agent' | 'sender' | 'metrics' | 'client';

/** An OAuth client that checked out, and the form it sent (RA100). */
export interface ClientCall {
  client: OAuthClient;
  form: URLSearchParams;
}

/** What each kind of caller is, once authenticated. */
export interface Callers {
  none: undefined;
  device: DeviceCaller;
  agent: AgentCaller;
  sender: AgentCaller;
  metrics: undefined;
  client: ClientCall;
}

/** What a handler gets: the request, its answer, and who called. */
export interface Call<C extends Caller> {
  req: Request;
  res: Response;
  caller: Callers[C];
}

export interface RelayRoute<C extends Caller = Caller> {
  method: Method;
  /** An Express path, or several spellings of one route (its log line and metrics name them joined by `|`). */
  path: string | readonly string[];
  caller: C;
  /** Leaves a request it matches but does not serve to what comes after (a path that is the relay's own): 404. */
  leaves?: (req: Request) => boolean;
  handle(call: Call<C>): Promise<void> | void;
}

/** Declares a route, its handler typed by its caller. */
export const route = <C extends Caller>(declared: RelayRoute<C>): RelayRoute => declared as unknown as RelayRoute;

/** A route that refuses every method of `path` its earlier routes did not take (405, in the group's own shape). */
export const otherMethods = (path: string | readonly string[], refusal: () => Error): RelayRoute =>
  route({
    method: 'ALL',
    path,
    caller: 'none',
    handle: () => {
      throw refusal();
    },
  });

export interface RouteGroup {
  routes: readonly RelayRoute[];
  /**
   * Every request under `prefix` is authenticated as `caller` first, whether one of the routes takes it or not
   * (RA2: a device path nobody serves is 401 without the device token, 404 with it).
   */
  guard?: { prefix: string; caller: Caller };
  /** Headers every answer to these paths carries, whatever its method (RA100: the OAuth routes' CORS). */
  headers?: { paths: readonly string[]; set(res: Response): void };
  /** Writes the group's refusals in its own shape; what it passes on goes to the one error handler. */
  errors?: ErrorRequestHandler;
}

/** How each kind of caller is authenticated (auth.ts makes them for a relay). */
export type Authenticators = { [C in Caller]: (req: Request, res: Response) => Promise<Callers[C]> };

/** The Express router of a group of routes. */
export function routerOf(group: RouteGroup, authenticate: Authenticators): Router {
  const router = Router();
  if (group.headers) {
    const { paths, set } = group.headers;
    router.all([...paths], (_req, res, next) => {
      set(res);
      next();
    });
  }
  if (group.guard) {
    const { prefix, caller } = group.guard;
    router.use(prefix, async (req, res, next) => {
      await authenticate[caller](req, res);
      next();
    });
  }
  for (const declared of group.routes) {
    const path = typeof declared.path === 'string' ? declared.path : [...declared.path];
    router[expressMethod(declared.method)](path, async (req: Request, res: Response, next: NextFunction) => {
      if (declared.leaves?.(req)) return next();
      const caller = await authenticate[declared.caller](req, res);
      await declared.handle({ req, res, caller });
    });
  }
  if (group.errors) router.use(group.errors);
  return router;
}

const expressMethod = (method: Method) => (method === 'ALL' ? 'all' : (method.toLowerCase() as Lowercase<Exclude<Method, 'ALL'>>));
