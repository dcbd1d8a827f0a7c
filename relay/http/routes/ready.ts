// /ready (docs/relay.md, "Health, readiness and draining"): whether this node should be sent traffic (ready.ts).

import { answerJson } from '../../../common/json-answer.js';
import { unavailable } from '../../../protocol/relay/errors.js';
import { UNAVAILABLE_RETRY_AFTER_S } from '../../limits.js';
import type { Readiness } from '../ready.js';
import { route, type RouteGroup } from '../route.js';

export function readyRoutes(readiness: Readiness): RouteGroup {
  return {
    routes: [
      // Any method, no credential (a probe has none): 200 `{"status":"ready"}` or 503 `unavailable` with Retry-After.
      route({
        method: 'ALL',
        path: ['/ready', '/readyz'],
        caller: 'none',
        handle: async ({ res }) => {
          const problem = await readiness.problem();
          if (problem !== undefined) throw unavailable(problem, UNAVAILABLE_RETRY_AFTER_S);
          answerJson(res, 200, { status: 'ready' });
        },
      }),
    ],
  };
}
