// docs/api/relay-connection.md: the cloud relay as this computer uses it — pairing, its status, agent keys, connectors,
// usage, reply-event subscriptions and instructions. Deliberately no route approves a connector, shows its 6-digit
// code, or returns the device token (docs/api/relay-connection.md#rl43): only the person approves, on the banner or in the tray.

import { errors } from '../../../protocol/errors.js';
import {
  INSTRUCTION_CLIENTS,
  relayConnectorsSchema,
  relayEventsSchema,
  relayInstructionsSchema,
  relayKeyCreatedSchema,
  relayKeyCreateSchema,
  relayKeyRevokedSchema,
  relayKeysSchema,
  relayPairReplySchema,
  relayPairSchema,
  relayStatusSchema,
  relaySubscriptionEndedSchema,
  relayUnpairReplySchema,
  relayUnpairSchema,
  relayUsageSchema,
} from '../../../protocol/schemas/relay.js';
import type { RelayKeyRequest, RelayPairRequest, RelayUnpairRequest } from '../../../protocol/app-api-relay.js';
import { oneOfText } from '../../../protocol/schemas/json-schema.js';
import type { Core } from '../../core/core.js';
import { query, type Example, type Route } from '../route.js';
import { validator } from '../validate.js';

export const readPair = validator<RelayPairRequest>(relayPairSchema);
export const readUnpair = validator<RelayUnpairRequest>(relayUnpairSchema);
export const readKey = validator<RelayKeyRequest>(relayKeyCreateSchema);

/** Why the examples of routes that need a paired relay are not sent by the OpenAPI test. */
const NEEDS_RELAY = 'it needs a computer paired with a running relay: test/daemon/relay-desktop.test.ts sends it to one';
const onRelay = (example: Example): Example => ({ ...example, notSent: NEEDS_RELAY });

const RELAY_ERRORS = {
  409: 'this computer is not paired with a relay',
  429: 'the relay limits this computer (its daily budget, or its rate limits)',
  502: "the relay cannot be reached, answered something unreadable, or rejected this computer's token (pair again)",
  503: 'the device token cannot be read now: the keyring that holds it is locked or not running',
} as const;

type Services = Pick<Core, 'relay'>;

export function relayRoutes(): Route<Services>[] {
  return [
    {
      method: 'GET',
      door: 'token',
      path: '/v1/relay/status',
      summary: 'Whether this computer is paired with a relay, and its socket',
      description: 'Never fails, paired or not. It never shows the device token or a connector code.',
      tag: 'Relay',
      reply: relayStatusSchema,
      errors: {},
      examples: [{ summary: 'The relay' }],
      handle: ({ services }) => services.relay.status(),
    },
    {
      method: 'POST',
      door: 'token',
      path: '/v1/relay/pair',
      summary: 'Pair this computer with a relay',
      description:
        'Starts a pairing at the relay and completes it with the code at once; the device token is kept in the desktop’s Secret Service (else a 0600 file of the support folder), and the socket opens. Pairing again replaces the earlier pairing.',
      tag: 'Relay',
      body: relayPairSchema,
      reply: relayPairReplySchema,
      errors: {
        400: 'relayURL is missing, or not https (http only on a loopback host)',
        403: 'the relay wants its pairing secret, or it has as many computers as it takes',
        429: 'the relay limits pairings from here',
        502: 'the relay cannot be reached or answered something unreadable',
      },
      examples: [
        onRelay({
          summary: 'A relay with a pairing secret',
          body: { relayURL: 'https://relay.example.org', pairingSecret: 'correct horse' },
        }),
      ],
      handle: ({ services, body }) => services.relay.pair(readPair(body)),
    },
    {
      method: 'POST',
      door: 'token',
      path: '/v1/relay/unpair',
      summary: 'Unpair this computer from its relay',
      description:
        'Tells the relay to forget this computer, then forgets the device token and the pairing. With force, a relay that cannot be told does not stop it.',
      tag: 'Relay',
      body: relayUnpairSchema,
      reply: relayUnpairReplySchema,
      errors: { 400: 'force is not true or false', ...RELAY_ERRORS },
      examples: [onRelay({ summary: 'Unpair', body: {} })],
      handle: ({ services, body }) => services.relay.unpair(readUnpair(body).force === true),
    },
    {
      method: 'GET',
      door: 'token',
      path: '/v1/relay/keys',
      summary: "The relay's agent keys of this computer",
      tag: 'Relay',
      reply: relayKeysSchema,
      errors: RELAY_ERRORS,
      examples: [onRelay({ summary: 'Every key' })],
      handle: ({ services }) => services.relay.listKeys(),
    },
    {
      method: 'POST',
      door: 'token',
      path: '/v1/relay/keys',
      summary: 'Make an agent key',
      description: 'Answers 201 with the key, shown this once, and an MCP client configuration that carries it.',
      tag: 'Relay',
      created: true,
      body: relayKeyCreateSchema,
      reply: relayKeyCreatedSchema,
      errors: {
        400: 'name is missing or breaks its rule, or client is not claude, codex or other',
        409: 'an active key has this name (or the computer is not paired)',
        429: 'the computer has 20 active keys, or the relay limits it',
        502: RELAY_ERRORS[502],
        503: RELAY_ERRORS[503],
      },
      examples: [onRelay({ summary: 'A key for Claude Code', body: { name: 'claude-code', client: 'claude' } })],
      handle: ({ services, body }) => {
        const { name, client } = readKey(body);
        return services.relay.createKey(name, client);
      },
    },
    {
      method: 'DELETE',
      door: 'token',
      path: '/v1/relay/keys/{id}',
      summary: 'Revoke an agent key',
      description: 'The key stops working at once; its app and History stay (remove them with DELETE /v1/apps/{id}).',
      tag: 'Relay',
      params: { id: { description: "the key's id: 8 hex digits", rest: true } },
      reply: relayKeyRevokedSchema,
      errors: { 400: 'the id is not 8 hex digits', 404: 'the relay has no such key', ...RELAY_ERRORS },
      examples: [onRelay({ summary: 'One key', params: { id: '0a1b2c3d' } })],
      handle: ({ services, params }) => services.relay.revokeKey(params.id!),
    },
    {
      method: 'GET',
      door: 'token',
      path: '/v1/relay/connectors',
      summary: 'Connectors approved, and requests waiting for the person',
      description:
        "Only the person approves, on the banner, in the tray or in the Approvals page of the person's window; the 6-digit code of a request is shown only there.",
      tag: 'Relay',
      reply: relayConnectorsSchema,
      errors: RELAY_ERRORS,
      examples: [onRelay({ summary: 'Connectors' })],
      handle: ({ services }) => services.relay.listConnectors(),
    },
    {
      method: 'GET',
      door: 'token',
      path: '/v1/relay/usage',
      summary: "Today's use of the relay by this computer",
      tag: 'Relay',
      reply: relayUsageSchema,
      errors: RELAY_ERRORS,
      examples: [onRelay({ summary: 'Today' })],
      handle: ({ services }) => services.relay.usage(),
    },
    {
      method: 'GET',
      door: 'token',
      path: '/v1/relay/events',
      summary: "Connectors' reply-event subscriptions",
      description: 'Each with the host its webhooks go to; never the address’s path or the signing secret.',
      tag: 'Relay',
      reply: relayEventsSchema,
      errors: RELAY_ERRORS,
      examples: [onRelay({ summary: 'Subscriptions' })],
      handle: ({ services }) => services.relay.events(),
    },
    {
      method: 'DELETE',
      door: 'token',
      path: '/v1/relay/events/subscriptions/{id}',
      summary: 'End a reply-event subscription',
      tag: 'Relay',
      params: { id: { description: "the subscription's id: sub_ and 20 hex digits", rest: true } },
      reply: relaySubscriptionEndedSchema,
      errors: { 400: 'the id is not sub_ and 20 hex digits', ...RELAY_ERRORS },
      examples: [onRelay({ summary: 'One subscription', params: { id: 'sub_0123456789abcdef0123' } })],
      handle: ({ services, params }) => services.relay.endSubscription(params.id!),
    },
    {
      method: 'GET',
      door: 'token',
      path: '/v1/relay/instructions',
      summary: 'How to connect an agent to this computer through the relay',
      tag: 'Relay',
      query: [query.text('client', 'chatgpt, claude, codex or device', { required: true, schema: oneOfText(INSTRUCTION_CLIENTS) })],
      reply: relayInstructionsSchema,
      errors: { 400: 'client is missing or not one of chatgpt, claude, codex, device', 409: RELAY_ERRORS[409] },
      examples: [onRelay({ summary: 'Claude Code', query: { client: 'claude' } })],
      handle: ({ services, query }) => {
        const client = query.client as string;
        if (!(INSTRUCTION_CLIENTS as readonly string[]).includes(client)) throw errors.invalidChoice('client', INSTRUCTION_CLIENTS);
        return services.relay.instructions(client as (typeof INSTRUCTION_CLIENTS)[number]);
      },
    },
  ];
}
