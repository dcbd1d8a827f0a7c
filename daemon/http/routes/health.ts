import { VERSION } from '../../version.js';
import type { Route } from '../routes.js';

/** docs/api/README.md#get-v1-health: no token needed. */
export const healthRoutes: Route[] = [
  { method: 'GET', path: '/v1/health', handle: () => ({ ok: true, version: VERSION, pid: process.pid }) },
];
