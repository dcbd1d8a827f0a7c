import { healthSchema } from '../../../protocol/schemas/health.js';
import { VERSION } from '../../version.js';
import type { ApiRoute } from '../api-route.js';

/** docs/api/README.md#get-v1-health: no token needed. */
export function healthRoutes(): ApiRoute[] {
  return [
    {
      method: 'GET',
      path: '/v1/health',
      summary: 'Whether the service runs, its version and process id',
      tag: 'Health',
      open: true,
      reply: healthSchema,
      errors: {},
      examples: [{ summary: 'Is it up' }],
      handler: () => () => ({ ok: true, version: VERSION, pid: process.pid }),
    },
  ];
}
