// docs/api/mcp.md: GET /v1/mcp (where the agent server is installed) and POST /v1/mcp/install.

import { McpInstaller, readInstallRequest } from '../../integrations/mcp-install.js';
import type { NotifierCore } from '../../core/notifier.js';
import { bodyObject } from '../params.js';
import type { ApiRoute } from '../api-route.js';
import { mcpInstallReplySchema, mcpInstallSchema, mcpStatusSchema } from '../../../protocol/schemas/mcp.js';

const installerOf = (core: NotifierCore): McpInstaller => new McpInstaller(core.store.root, (registration) => core.register(registration));

export function mcpRoutes(): ApiRoute[] {
  return [
    {
      method: 'GET',
      path: '/v1/mcp',
      summary: 'Where the agent server is installed',
      description: 'The notifier-mcp program, each agent client and whether its configuration names it, and the notifier launcher.',
      tag: 'MCP',
      reply: mcpStatusSchema,
      errors: {},
      examples: [{ summary: 'Every client' }],
      handler: (core) => () => installerOf(core).status(),
    },
    {
      method: 'POST',
      path: '/v1/mcp/install',
      summary: "Add the agent server to an agent client's configuration",
      description:
        "The file's previous content is kept as <file>.bak. The agent is registered as an app (agent.<slug>), so its banners show who sent them; generic writes nothing and answers what to write.",
      tag: 'MCP',
      body: mcpInstallSchema,
      reply: mcpInstallReplySchema,
      errors: {
        400: 'client is missing or unknown, reinstall is not true or false, or generic without a name or with an icon file that does not exist',
        409: 'the client already has a notifier entry and reinstall is not true, or its configuration file is not valid JSON',
        429: 'the agent app is new and 200 apps are registered already',
        500: 'notifier-mcp was not found in the package the service runs from',
      },
      examples: [
        { summary: 'Claude Code', body: { client: 'claudeCode' } },
        { summary: 'Any other client', body: { client: 'generic', name: 'Build agent' } },
      ],
      handler: (core) => (req) => installerOf(core).install(readInstallRequest(bodyObject(req))),
    },
  ];
}
