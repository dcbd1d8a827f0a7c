// `/app/api/relay…` (docs/app.md#relay): the Relay page. Each route but usage is a `/v1/relay` route answered by its
// own handler (fromV1), so the window pairs, makes and revokes keys and ends subscriptions with exactly the API's
// checks and refusals. A connector's request is answered through the Approvals page's own route
// (`/app/api/approvals/connectors/:id`): one answer, wherever the person gives it.

import type { AppRoute } from './api-route.js';
import { fromV1 } from './v1-routes.js';

/**
 * The answer that carries a new agent key is never kept by anything between the daemon and the window: the key is
 * shown once, in the view that asked for it.
 */
function neverStored(route: AppRoute): AppRoute {
  return {
    ...route,
    handle: (call) => {
      call.res.setHeader('Cache-Control', 'no-store');
      return route.handle(call);
    },
  };
}

export function relayRoutes(): AppRoute[] {
  return [
    fromV1('GET', '/v1/relay/status', '/app/api/relay/status'),
    fromV1('POST', '/v1/relay/pair', '/app/api/relay/pair'),
    fromV1('POST', '/v1/relay/unpair', '/app/api/relay/unpair'),
    fromV1('GET', '/v1/relay/keys', '/app/api/relay/keys'),
    neverStored(fromV1('POST', '/v1/relay/keys', '/app/api/relay/keys')),
    fromV1('DELETE', '/v1/relay/keys/{id}', '/app/api/relay/keys/:id'),
    fromV1('GET', '/v1/relay/connectors', '/app/api/relay/connectors'),
    // `/v1/relay/usage` leaves the relay's limits out (RL8); the person's page shows the use against them.
    { method: 'GET', path: '/app/api/relay/usage', handle: ({ context }) => context.core.relay.usageWithLimits() },
    fromV1('GET', '/v1/relay/events', '/app/api/relay/events'),
    fromV1('DELETE', '/v1/relay/events/subscriptions/{id}', '/app/api/relay/subscriptions/:id'),
  ];
}
