// The ready-made set-ups of a new agent key, for the agents `notifier mcp install` knows (docs/api/mcp.md#m1):
// Claude Code, Codex, any other MCP client, and a plain HTTP call. The same commands and files as
// `notifier relay instructions` gives (daemon/core/relay/instructions.ts), with the key filled in.

import type { RelayKeyCreated, RelayKeyClient } from '../../../protocol/app-api-relay.js';

export interface Setup {
  id: 'claude' | 'codex' | 'mcp' | 'curl';
  /** The agent, as its heading says it. */
  title: string;
  /** Where it goes, in a sentence. */
  where: string;
  text: string;
}

/** The environment variable Codex reads the key from (as `notifier relay instructions codex` says). */
const CODEX_KEY_VARIABLE = 'NOTIFIER_RELAY_KEY';

/** Every set-up of a new key; the one for the agent the key was made for first. */
export function setupsFor(made: RelayKeyCreated, relayURL: string): Setup[] {
  const { key, mcpURL } = made;
  const setups: Setup[] = [
    {
      id: 'claude',
      title: 'Claude Code',
      where: 'Run this in a terminal:',
      text: `claude mcp add --transport http notifier ${mcpURL} --header "Authorization: Bearer ${key}"`,
    },
    {
      id: 'codex',
      title: 'Codex',
      where: `Put the key in the environment Codex starts in, and add the server to ~/.codex/config.toml:`,
      text: [
        `export ${CODEX_KEY_VARIABLE}=${key}`,
        '',
        '# ~/.codex/config.toml',
        '[mcp_servers.notifier]',
        `url = "${mcpURL}"`,
        `bearer_token_env_var = "${CODEX_KEY_VARIABLE}"`,
      ].join('\n'),
    },
    {
      id: 'mcp',
      title: 'Another MCP client',
      where: 'Add this to the client’s MCP servers (its JSON settings):',
      text: JSON.stringify(made.connectorConfig, null, 2),
    },
    {
      id: 'curl',
      title: 'A script (curl)',
      where: 'Send a notification from any script or program:',
      text:
        `curl -s ${relayURL}/v1/notify -H "Authorization: Bearer ${key}" ` +
        `-H "Content-Type: application/json" -d '{"title": "Hello from my agent"}'`,
    },
  ];
  const first: Partial<Record<RelayKeyClient | string, Setup['id']>> = { claude: 'claude', codex: 'codex' };
  const chosen = first[made.client];
  return chosen ? [...setups.filter((setup) => setup.id === chosen), ...setups.filter((setup) => setup.id !== chosen)] : setups;
}
