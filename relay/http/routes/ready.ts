// /ready (docs/relay.md, "Health, readiness and draining"): whether this node should be sent traffic (ready.ts).

import { answerJson } from '../../../common/json-answer.js';
import { unavailable } from '../../../protocol/relay/errors.js';
import { UNAVAILABLE_RETRY_AFTER_S } from '../../limits.js';
import type { Readiness } from '../ready.js';
import { route, type Call, type RouteGroup } from '../route.js';

export function readyRoutes(readiness: Readiness): RouteGroup {
  /** Any method, no credential (a probe has none): 200 `{"status":"ready"}` or 503 `unavailable` with Retry-After. */
  const ready = async ({ res }: Call<'none'>) => {
    const problem = await readiness.problem();
    if (problem !== undefined) throw unavailable(problem, UNAVAILABLE_RETRY_AFTER_S);
    answerJson(res, 200, { status: 'ready' });
  };
  return { routes: [route({ method: 'ALL', path: ['/ready', '/readyz'], caller: 'none', handle: ready })] };
}
