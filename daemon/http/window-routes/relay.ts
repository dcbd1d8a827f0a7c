// `/app/api/relay…` (docs/app.md#relay): the Relay page. Each route but usage is a `/v1/relay` route at the window's
// path, calling the same relay service, so the window pairs, makes and revokes keys and ends subscriptions with
// exactly the API's checks and refusals. A connector's request is answered through the Approvals page's own route
// (`/app/api/approvals/connectors/{id}`): one answer, wherever the person gives it.

import {
  RELAY_KEY_PATTERN,
  RELAY_SUBSCRIPTION_PATTERN,
  relayPaths,
  type RelayConnectorsAnswer,
  type RelayEventsAnswer,
  type RelayKeyCreated,
  type RelayKeyRequest,
  type RelayKeysAnswer,
  type RelayPairAnswer,
  type RelayPairRequest,
  type RelayStatusAnswer,
  type RelayUsageAnswer,
} from '../../../protocol/app-api-relay.js';
import { relayUsageWithLimitsSchema } from '../../../protocol/schemas/app-api.js';
import type { Route } from '../route.js';
import { readKey, readPair, readUnpair, relayRoutes as v1RelayRoutes } from '../routes/relay.js';
import type { Services as AllServices } from '../services.js';
import { asWindowRoute, v1Route, windowRoute } from './window-route.js';

type Services = Pick<AllServices, 'relay'>;

export function relayRoutes(): Route<Services>[] {
  const v1 = v1RelayRoutes();
  const at = (method: Route<Services>['method'], path: string) => v1Route(v1, method, path);
  return [
    asWindowRoute<Services, RelayStatusAnswer>(at('GET', '/v1/relay/status'), relayPaths.status, ({ services }) => services.relay.status()),
    asWindowRoute<Services, RelayPairAnswer, RelayPairRequest>(at('POST', '/v1/relay/pair'), relayPaths.pair, ({ services, body }) =>
      services.relay.pair(readPair(body)),
    ),
    asWindowRoute(at('POST', '/v1/relay/unpair'), relayPaths.unpair, ({ services, body }) =>
      services.relay.unpair(readUnpair(body).force === true),
    ),
    asWindowRoute<Services, RelayKeysAnswer>(at('GET', '/v1/relay/keys'), relayPaths.keys, ({ services }) => services.relay.listKeys()),
    // The answer that carries a new agent key is never kept by anything between the daemon and the window: the key
    // is shown once, in the view that asked for it (every answer of the window is no-store).
    asWindowRoute<Services, RelayKeyCreated, RelayKeyRequest>(at('POST', '/v1/relay/keys'), relayPaths.keys, ({ services, body }) => {
      const { name, client } = readKey(body);
      return services.relay.createKey(name, client);
    }),
    asWindowRoute(at('DELETE', '/v1/relay/keys/{id}'), RELAY_KEY_PATTERN, ({ services, params }) => services.relay.revokeKey(params.id!)),
    asWindowRoute<Services, RelayConnectorsAnswer>(at('GET', '/v1/relay/connectors'), relayPaths.connectors, ({ services }) =>
      services.relay.listConnectors(),
    ),
    windowRoute<Services, RelayUsageAnswer>({
      method: 'GET',
      path: relayPaths.usage,
      // `/v1/relay/usage` leaves the relay's limits out (RL8); the person's page shows the use against them.
      summary: "Today's use of the relay, with the relay's daily limits",
      reply: relayUsageWithLimitsSchema,
      handle: ({ services }) => services.relay.usageWithLimits(),
    }),
    asWindowRoute<Services, RelayEventsAnswer>(at('GET', '/v1/relay/events'), relayPaths.events, ({ services }) => services.relay.events()),
    asWindowRoute(at('DELETE', '/v1/relay/events/subscriptions/{id}'), RELAY_SUBSCRIPTION_PATTERN, ({ services, params }) =>
      services.relay.endSubscription(params.id!),
    ),
  ];
}
