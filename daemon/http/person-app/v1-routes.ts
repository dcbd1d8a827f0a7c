// The person's pages that change what an app could change through `/v1` (settings, apps, templates, the relay)
// answer through the very same handler, at a path of `/app/api`: one set of checks, one set of errors naming their
// fields, so a value the API refuses is refused in the window with the same words. Only the routes named here are
// reachable this way; the door (session, same origin, CSRF) is `/app/api`'s, never the API token.

import { API_ROUTES } from '../api.js';
import type { ApiRoute } from '../api-route.js';
import type { Route } from '../routes.js';
import type { NotifierCore } from '../../core/notifier.js';
import type { AppRoute } from './api-route.js';

/** Handlers are made once per core, as the `/v1` route table makes them. */
const made = new WeakMap<NotifierCore, Map<ApiRoute, Route['handle']>>();

function handlerOf(route: ApiRoute, core: NotifierCore): Route['handle'] {
  let byRoute = made.get(core);
  if (!byRoute) made.set(core, (byRoute = new Map()));
  let handle = byRoute.get(route);
  if (!handle) byRoute.set(route, (handle = route.handler(core)));
  return handle;
}

/**
 * `/v1`'s route `method v1Path` answered at `appPath`. A `/v1` path ending in `/{id}` needs an `appPath` ending in
 * `/:id`: the handler reads it as `/v1` gives it, still percent-encoded.
 */
export function fromV1(method: ApiRoute['method'], v1Path: string, appPath: string): AppRoute {
  const route = API_ROUTES.find((candidate) => candidate.method === method && candidate.path === v1Path);
  if (!route) throw new Error(`no /v1 route ${method} ${v1Path}`); // a mistake in this file, found at start
  const takesId = v1Path.endsWith('/{id}');
  if (takesId !== appPath.endsWith('/:id')) throw new Error(`${appPath} must end in /:id exactly when ${v1Path} ends in /{id}`);
  return {
    method,
    path: appPath,
    handle: ({ req, res, params, context }) => {
      if (takesId) res.locals.pathParameter = encodeURIComponent(params.id!);
      return handlerOf(route, context.core)(req, res);
    },
  };
}
