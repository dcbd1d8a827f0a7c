// A route of the person's window (`/app/api`): the `session` door, the `Window` tag. The window's tests call each
// route as the window does, and check every answer against the route's declared reply (test/helpers/app.ts), so
// these routes carry no examples of their own.

import type { Call, Route } from '../route.js';

/** A request body as sent: the fields a protocol request type names, each still to be read and checked. */
export type SentBody<Body> = { readonly [Field in keyof Body]?: unknown };

/** What a window's handler is given: the call, its body as the protocol's request type names it (`Body`). */
export type WindowCall<S, Body> = Omit<Call<S>, 'body'> & { readonly body: SentBody<Body> };

type WindowRouteFields<S, Answer, Body> = Omit<Route<S>, 'door' | 'tag' | 'errors' | 'examples' | 'handle'> &
  Partial<Pick<Route<S>, 'errors'>> & {
    /** Reads the body the protocol's request type names (`Body`) and answers with its answer type (`Answer`). */
    handle(call: WindowCall<S, Body>): Answer | Promise<Answer>;
  };

/**
 * A window's route. `Answer` and `Body` are the protocol's types of the route (protocol/app-api.ts), the ones the
 * app sends and reads: a handler that answers something else, or reads a field its request does not name, does
 * not compile.
 */
export const windowRoute = <S, Answer = unknown, Body = Record<string, unknown>>(route: WindowRouteFields<S, Answer, Body>): Route<S> => ({
  door: 'session',
  tag: 'Window',
  errors: {},
  examples: [],
  ...route,
});

/**
 * A window's route that does what a `/v1` route does: the same contract (its query, body, reply and refusals) at a
 * path of the window, behind the window's door, with a handler of its own that calls the same service function.
 */
export const asWindowRoute = <S, Answer = unknown, Body = Record<string, unknown>>(
  v1: Route<S>,
  path: string,
  handle: WindowRouteFields<S, Answer, Body>['handle'],
): Route<S> => ({
  ...v1,
  path,
  door: 'session',
  tag: 'Window',
  examples: [],
  handle,
});

/** The `/v1` route of a family with this method and path; a mistake in a window's route list fails at start. */
export function v1Route<S>(routes: readonly Route<S>[], method: Route<S>['method'], path: string): Route<S> {
  const found = routes.find((route) => route.method === method && route.path === path);
  if (!found) throw new Error(`no /v1 route ${method} ${path}`);
  return found;
}
