// docs/api/mcp.md: GET /v1/mcp (where the agent server is installed) and POST /v1/mcp/install.

import { McpInstaller, readInstallRequest } from '../../integrations/mcp-install.js';
import type { NotifierCore } from '../../core/notifier.js';
import { bodyObject } from '../params.js';
import type { Route } from '../routes.js';

export function mcpRoutes(core: NotifierCore): Route[] {
  const installer = new McpInstaller(core.store.root, (registration) => core.register(registration));
  return [
    { method: 'GET', path: '/v1/mcp', handle: () => installer.status() },
    { method: 'POST', path: '/v1/mcp/install', handle: (req) => installer.install(readInstallRequest(bodyObject(req))) },
  ];
}
