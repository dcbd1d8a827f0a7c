// docs/api/mcp.md: GET /v1/mcp (where the agent server is installed) and POST /v1/mcp/install.

import { mcpInstallReplySchema, mcpInstallSchema, mcpStatusSchema } from '../../../protocol/schemas/mcp.js';
import type { Core } from '../../core/core.js';
import { McpInstaller, readInstallRequest } from '../../integrations/mcp-install.js';
import type { Route } from '../route.js';

type Services = Pick<Core, 'store' | 'appAdmin'>;

/** The installer registers the agent as an app, as POST /v1/register would. */
const installerOf = ({ store, appAdmin }: Services): McpInstaller =>
  new McpInstaller(store.root, (registration) => appAdmin.register(registration));

export function mcpRoutes(): Route<Services>[] {
  return [
    {
      method: 'GET',
      path: '/v1/mcp',
      door: 'token',
      summary: 'Where the agent server is installed',
      description: 'The notifier-mcp program, each agent client and whether its configuration names it, and the notifier launcher.',
      tag: 'MCP',
      reply: mcpStatusSchema,
      errors: {},
      examples: [{ summary: 'Every client' }],
      handle: ({ services }) => installerOf(services).status(),
    },
    {
      method: 'POST',
      path: '/v1/mcp/install',
      door: 'token',
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
      handle: ({ services, body }) => installerOf(services).install(readInstallRequest(body)),
    },
  ];
}
