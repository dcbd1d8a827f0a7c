import { healthSchema } from '../../../protocol/schemas/health.js';
import { VERSION } from '../../version.js';
import type { Route } from '../route.js';

/** docs/api/README.md#get-v1-health: the one route that needs no token. */
export function healthRoutes(): Route<unknown>[] {
  return [
    {
      method: 'GET',
      path: '/v1/health',
      door: 'open',
      summary: 'Whether the service runs, its version and process id',
      tag: 'Health',
      reply: healthSchema,
      errors: {},
      examples: [{ summary: 'Is it up' }],
      handle: () => ({ ok: true, version: VERSION, pid: process.pid }),
    },
  ];
}
