// A route of the person's window (`/app/api`): the `session` door, the `Window` tag. The window's tests call each
// route as the window does, and check every answer against the route's declared reply (test/helpers/app.ts), so
// these routes carry no examples of their own.

import type { Route } from '../route.js';

type WindowRouteFields<S> = Omit<Route<S>, 'door' | 'tag' | 'errors' | 'examples'> & Partial<Pick<Route<S>, 'errors'>>;

export const windowRoute = <S>(route: WindowRouteFields<S>): Route<S> => ({
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
export const asWindowRoute = <S>(v1: Route<S>, path: string, handle: Route<S>['handle']): Route<S> => ({
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
