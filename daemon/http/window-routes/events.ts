// `GET /app/api/events` (docs/app.md#live-events): the window's live stream of server-sent events, fed by the same
// core events the tray watches (daemon/http/window/events.ts).

import { APP_API } from '../../../protocol/app-api.js';
import type { Route } from '../route.js';
import type { Services as AllServices } from '../services.js';
import { windowRoute } from './window-route.js';

type Services = Pick<AllServices, 'events'>;

export function eventRoutes(): Route<Services>[] {
  return [
    windowRoute({
      method: 'GET',
      path: APP_API.events,
      summary: 'The live events: rows, removals, the unread count, approvals',
      reply: { file: 'server-sent events, one per change', contentType: 'text/event-stream' },
      handle: ({ services, req, res, session }) => services.events.subscribe(req, res, session!),
    }),
  ];
}
