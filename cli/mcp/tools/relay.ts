// The cloud relay as this computer uses it (daemon/http/routes/relay.ts, docs/mcp.md#relay-tools). No tool
// approves a connector, shows its 6-digit code or reads the device token: only the person approves, on the
// banner or in the tray, and no route exists for it.

import { INSTRUCTION_CLIENTS, RELAY_CLIENTS } from '../../../protocol/schemas/relay.js';
import { flag, inputs, route, text } from './common.js';

export const relayStatus = route('relay_status', 'Relay status', 'GET /v1/relay/status', {
  description:
    'Whether this computer is paired with a cloud relay, whether its socket is up, and the MCP address agents use (GET /v1/relay/status).',
  kind: 'read',
});

export const relayPair = route('relay_pair', 'Pair with a relay', 'POST /v1/relay/pair', {
  description: 'Pair this computer with a cloud relay; the device token stays on this computer (POST /v1/relay/pair).',
  inputSchema: inputs(
    {
      relayURL: text('The relay: https://..., or http on a loopback host.'),
      pairingSecret: text("The relay's pairing secret, when it has one."),
    },
    ['relayURL'],
  ),
  kind: 'set',
  openWorld: true,
});

export const relayUnpair = route('relay_unpair', 'Unpair from the relay', 'POST /v1/relay/unpair', {
  description: 'Tell the relay to forget this computer and forget the pairing here (POST /v1/relay/unpair).',
  inputSchema: inputs({ force: flag('Forget the pairing even when the relay cannot be told.') }),
  kind: 'replace',
  openWorld: true,
});

export const relayUsage = route('relay_usage', 'Relay usage', 'GET /v1/relay/usage', {
  description: "Today's requests, notifications and queue of this computer at the relay (GET /v1/relay/usage).",
  kind: 'read',
  openWorld: true,
});

export const listAgentKeys = route('list_agent_keys', 'List agent keys', 'GET /v1/relay/keys', {
  description: "The relay's agent keys of this computer, revoked ones included; never the keys themselves (GET /v1/relay/keys).",
  kind: 'read',
  openWorld: true,
});

export const createAgentKey = route('create_agent_key', 'Make an agent key', 'POST /v1/relay/keys', {
  description: 'A new agent key with scope notify, shown this once, with an MCP configuration that carries it (POST /v1/relay/keys).',
  inputSchema: inputs(
    {
      name: text('1 to 32 of a-z, 0-9 and -.'),
      client: { type: 'string', enum: [...RELAY_CLIENTS], description: 'The agent; default other.' },
    },
    ['name'],
  ),
  kind: 'add',
  openWorld: true,
});

export const revokeAgentKey = route('revoke_agent_key', 'Revoke an agent key', 'DELETE /v1/relay/keys/{id}', {
  description: 'The key stops working at once (DELETE /v1/relay/keys/{id}).',
  inputSchema: inputs({ id: text("The key's id: 8 hex digits.") }, ['id']),
  kind: 'replace',
  openWorld: true,
});

export const listConnectors = route('list_connectors', 'List connectors', 'GET /v1/relay/connectors', {
  description:
    'Connectors the person approved, and requests waiting for the person (GET /v1/relay/connectors). Only the person approves, on the banner or in the tray.',
  kind: 'read',
  openWorld: true,
});

export const relayEvents = route('relay_events', 'Reply-event subscriptions', 'GET /v1/relay/events', {
  description: "Connectors' subscriptions to reply events, with the host their webhooks go to (GET /v1/relay/events).",
  kind: 'read',
  openWorld: true,
});

export const relayRemoveEventSubscription = route(
  'relay_remove_event_subscription',
  'End a reply-event subscription',
  'DELETE /v1/relay/events/subscriptions/{id}',
  {
    description: 'The connector is no longer told of replies (DELETE /v1/relay/events/subscriptions/{id}).',
    inputSchema: inputs({ id: text('sub_ and 20 hex digits.') }, ['id']),
    kind: 'replace',
    openWorld: true,
  },
);

export const relayInstructions = route('relay_instructions', 'How to connect an agent', 'GET /v1/relay/instructions', {
  description:
    'Instructions for connecting ChatGPT, Claude Code, Codex or an agent without a browser to this computer through the relay (GET /v1/relay/instructions).',
  inputSchema: inputs({ client: { type: 'string', enum: [...INSTRUCTION_CLIENTS], description: 'The agent.' } }, ['client']),
  kind: 'read',
});
