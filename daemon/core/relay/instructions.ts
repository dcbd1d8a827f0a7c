// RL9: how to connect an agent to this computer through its relay, as text the person can paste into the agent's
// settings or a terminal. No secret is in it: a connector gets its access through the person's approval, and a
// key is made with `notifier relay keys create` (shown once, to the person who asked for it).

import type { INSTRUCTION_CLIENTS } from '../../../protocol/schemas/relay.js';
import { mcpAddress } from './relay-calls.js';

export type InstructionsClient = (typeof INSTRUCTION_CLIENTS)[number];

/**
 * Where the code is (docs/relay-desktop.md#approving-a-connector): on the banner that asks, in the tray menu, and on
 * the Approvals page of Notifier's window.
 */
const APPROVE =
  'Notifier then shows a banner on your computer asking to let it send you notifications: choose Approve. ' +
  'Or type its 6-digit code, which that banner, Notifier’s tray menu and the Approvals page of its window show, on the relay’s page.';

export function instructionsFor(client: InstructionsClient, relayURL: string): string {
  const mcpURL = mcpAddress(relayURL);
  switch (client) {
    case 'chatgpt':
      return [
        'ChatGPT: Settings → Apps & Connectors → Create (developer mode).',
        `Name: Notifier. MCP server URL: ${mcpURL}. Authentication: OAuth.`,
        'ChatGPT opens the relay’s page to connect.',
        APPROVE,
      ].join('\n');
    case 'claude':
      return [
        'Claude Code, with the connector’s sign-in:',
        `  claude mcp add --transport http notifier ${mcpURL}`,
        'then run /mcp in Claude Code and choose Authenticate.',
        APPROVE,
        'Or with an agent key instead of signing in:',
        '  notifier relay keys create claude-code --client claude',
        `  claude mcp add --transport http notifier ${mcpURL} --header "Authorization: Bearer <the key>"`,
      ].join('\n');
    case 'codex':
      return [
        'Codex: make a key for it,',
        '  notifier relay keys create codex --client codex',
        'put it in the environment Codex starts in (export NOTIFIER_RELAY_KEY=<the key>), and add to ~/.codex/config.toml:',
        '  [mcp_servers.notifier]',
        `  url = "${mcpURL}"`,
        '  bearer_token_env_var = "NOTIFIER_RELAY_KEY"',
      ].join('\n');
    case 'device':
      return [
        'An agent without a browser (a CI job, a sandbox) signs in with the device flow of the relay’s OAuth server:',
        `it asks ${relayURL}/device_authorization for a code and shows you a user code such as BDFG-HJKM.`,
        'Your computer shows a banner “Approve <agent> to send you notifications? Code BDFG-HJKM”: check that the codes match, then choose Approve.',
        `Or give it a key (notifier relay keys create <name>) and let it POST to ${relayURL}/v1/notify with Authorization: Bearer <the key>.`,
      ].join('\n');
  }
}
