// The cloud relay as this computer uses it (daemon/http/routes/relay.ts, docs/mcp.md#relay-tools). No tool
// approves a connector, shows its 6-digit code or reads the device token: only the person approves, on the
// banner or in the tray, and no route exists for it.

import { INSTRUCTION_CLIENTS, RELAY_CLIENTS } from '../../../protocol/schemas/relay.js';
import { type Tool, annotate, call, flag, inputs, jsonResult, need, route, text } from './common.js';

export const relayStatus = route({
  name: 'relay_status',
  title: 'Relay status',
  description:
    'Whether this computer is paired with a cloud relay, whether its socket is up, and the MCP address agents use (GET /v1/relay/status).',
  method: 'GET',
  path: '/v1/relay/status',
  inputSchema: inputs({}),
  kind: 'read',
});

export const relayPair = route({
  name: 'relay_pair',
  title: 'Pair with a relay',
  description: 'Pair this computer with a cloud relay; the device token stays on this computer (POST /v1/relay/pair).',
  method: 'POST',
  path: '/v1/relay/pair',
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

export const relayUnpair = route({
  name: 'relay_unpair',
  title: 'Unpair from the relay',
  description: 'Tell the relay to forget this computer and forget the pairing here (POST /v1/relay/unpair).',
  method: 'POST',
  path: '/v1/relay/unpair',
  inputSchema: inputs({ force: flag('Forget the pairing even when the relay cannot be told.') }),
  kind: 'replace',
  openWorld: true,
});

export const relayUsage = route({
  name: 'relay_usage',
  title: 'Relay usage',
  description: "Today's requests, notifications and queue of this computer at the relay (GET /v1/relay/usage).",
  method: 'GET',
  path: '/v1/relay/usage',
  inputSchema: inputs({}),
  kind: 'read',
  openWorld: true,
});

export const listAgentKeys = route({
  name: 'list_agent_keys',
  title: 'List agent keys',
  description: "The relay's agent keys of this computer, revoked ones included; never the keys themselves (GET /v1/relay/keys).",
  method: 'GET',
  path: '/v1/relay/keys',
  inputSchema: inputs({}),
  kind: 'read',
  openWorld: true,
});

export const createAgentKey = route({
  name: 'create_agent_key',
  title: 'Make an agent key',
  description: 'A new agent key with scope notify, shown this once, with an MCP configuration that carries it (POST /v1/relay/keys).',
  method: 'POST',
  path: '/v1/relay/keys',
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

export const revokeAgentKey: Tool = {
  name: 'revoke_agent_key',
  title: 'Revoke an agent key',
  description: 'The key stops working at once (DELETE /v1/relay/keys/{id}).',
  routes: ['DELETE /v1/relay/keys/{id}'],
  inputSchema: inputs({ id: text("The key's id: 8 hex digits.") }, ['id']),
  annotations: annotate('Revoke an agent key', 'replace', true),
  run: async (args, context) => {
    const id = need(args, 'id');
    return jsonResult((await call(context, { method: 'DELETE', path: `/v1/relay/keys/${encodeURIComponent(id)}` })).json);
  },
};

export const listConnectors = route({
  name: 'list_connectors',
  title: 'List connectors',
  description:
    'Connectors the person approved, and requests waiting for the person (GET /v1/relay/connectors). Only the person approves, on the banner or in the tray.',
  method: 'GET',
  path: '/v1/relay/connectors',
  inputSchema: inputs({}),
  kind: 'read',
  openWorld: true,
});

export const relayEvents = route({
  name: 'relay_events',
  title: 'Reply-event subscriptions',
  description: "Connectors' subscriptions to reply events, with the host their webhooks go to (GET /v1/relay/events).",
  method: 'GET',
  path: '/v1/relay/events',
  inputSchema: inputs({}),
  kind: 'read',
  openWorld: true,
});

export const relayRemoveEventSubscription: Tool = {
  name: 'relay_remove_event_subscription',
  title: 'End a reply-event subscription',
  description: 'The connector is no longer told of replies (DELETE /v1/relay/events/subscriptions/{id}).',
  routes: ['DELETE /v1/relay/events/subscriptions/{id}'],
  inputSchema: inputs({ id: text('sub_ and 20 hex digits.') }, ['id']),
  annotations: annotate('End a reply-event subscription', 'replace', true),
  run: async (args, context) => {
    const id = need(args, 'id');
    const path = `/v1/relay/events/subscriptions/${encodeURIComponent(id)}`;
    return jsonResult((await call(context, { method: 'DELETE', path })).json);
  },
};

export const relayInstructions = route({
  name: 'relay_instructions',
  title: 'How to connect an agent',
  description:
    'Instructions for connecting ChatGPT, Claude Code, Codex or an agent without a browser to this computer through the relay (GET /v1/relay/instructions).',
  method: 'GET',
  path: '/v1/relay/instructions',
  inputSchema: inputs({ client: { type: 'string', enum: [...INSTRUCTION_CLIENTS], description: 'The agent.' } }, ['client']),
  kind: 'read',
});
