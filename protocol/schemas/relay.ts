// The cloud relay as this computer uses it: the local routes under /v1/relay/ (docs/api/relay-connection.md). No schema here
// has a place for the device token or a connector's 6-digit code: no route returns them.

import { closedObject, filledText, flag, integer, list, map, number, object, oneOfText, text, timestamp } from './json-schema.js';

export const RELAY_CLIENTS = ['claude', 'codex', 'other'] as const;
export const INSTRUCTION_CLIENTS = ['chatgpt', 'claude', 'codex', 'device'] as const;

const relayURL = text('the relay, for example https://relay.example.org (http only on a loopback host)');

export const relayPairSchema = closedObject(
  {
    relayURL: filledText('https, or http on a loopback host such as 127.0.0.1'),
    pairingSecret: text("the relay's PAIRING_SECRET, when it has one"),
  },
  ['relayURL'],
);

export const relayPairReplySchema = object({ paired: { const: true }, deviceId: text("this computer's id on the relay") }, [
  'paired',
  'deviceId',
]);

export const relayUnpairSchema = closedObject({ force: flag('forget the pairing even when the relay cannot be told (default false)') });

export const relayUnpairReplySchema = object({ unpaired: { const: true } }, ['unpaired']);

export const relayStatusSchema = object(
  {
    paired: flag(),
    state: oneOfText(
      ['unpaired', 'starting', 'connecting', 'online', 'offline', 'limited', 'rejected', 'stopped'],
      'the socket, in a word',
    ),
    online: flag('the socket is up and the relay has spoken on it'),
    relayURL,
    mcpURL: text("the relay's MCP endpoint, for agents and connectors"),
    deviceId: text(),
    pairedAt: timestamp(),
    lastSeenAt: timestamp('when the socket last came up'),
    tokenStore: oneOfText(['secret-service', 'file'], 'where the device token is kept (never the token)'),
    problem: text('why it is not online'),
    nextAttemptAt: timestamp('when the socket is tried again'),
    waitingReceipts: integer('receipts kept until the relay takes them'),
    pendingApprovals: integer('connector requests waiting for the person'),
  },
  ['paired', 'state', 'online', 'waitingReceipts', 'pendingApprovals'],
);

const relayKeySchema = object(
  {
    id: text('8 hex digits'),
    name: text(),
    client: text(),
    scope: text(),
    kind: oneOfText(['static', 'oauth'], 'a key made here, or a connector the person approved'),
    displayName: text("a connector's name"),
    createdAt: timestamp(),
    lastUsedAt: timestamp(),
    revokedAt: timestamp(),
  },
  ['id', 'name', 'client', 'scope', 'createdAt'],
);

export const relayKeysSchema = object({ keys: list(relayKeySchema, 'oldest first, revoked ones included') }, ['keys']);

export const relayKeyCreateSchema = closedObject(
  {
    name: filledText('1 to 32 of a-z, 0-9 and -, not starting with -'),
    client: oneOfText(RELAY_CLIENTS, 'claude, codex or other (default)'),
  },
  ['name'],
);

export const relayKeyCreatedSchema = object(
  {
    id: text(),
    name: text(),
    client: text(),
    scope: text(),
    key: text('the agent key: shown this once, never again'),
    mcpURL: text(),
    connectorConfig: object({ mcpServers: map(object({})) }, ['mcpServers'], "an MCP client's configuration with the key"),
  },
  ['id', 'name', 'client', 'scope', 'key', 'mcpURL', 'connectorConfig'],
);

export const relayKeyRevokedSchema = object({ revoked: { const: true }, id: text() }, ['revoked', 'id']);

export const relayConnectorsSchema = object(
  {
    connectors: list(relayKeySchema, 'the connectors the person approved (their keys, kind oauth)'),
    pending: list(
      object(
        {
          id: text(),
          clientName: text(),
          redirectHost: text('where the browser returns; empty in the device flow'),
          flow: oneOfText(['code', 'device']),
          userCode: text('device flow: the code the agent shows'),
          expiresAt: timestamp(),
        },
        ['id', 'clientName', 'redirectHost', 'flow', 'expiresAt'],
      ),
      "requests waiting for the person (the 6-digit code is shown only on the banner, in the tray and in the person's window)",
    ),
  },
  ['connectors', 'pending'],
);

export const relayUsageSchema = object(
  {
    day: text('the UTC day'),
    requests: integer(),
    wsMessages: integer(),
    notifications: integer(),
    pollSeconds: number(),
    audioUploads: integer(),
    audioBytes: integer(),
    queued: integer(),
    storageBytes: integer(),
    requestsPercent: number('of the daily request budget'),
    budgetExhausted: flag(),
  },
  ['day', 'requests', 'notifications', 'queued'],
);

export const relayEventsSchema = object(
  {
    restrictedTo: list(text(), 'the hosts webhooks may go to, when the relay restricts them'),
    subscriptions: list(
      object(
        {
          id: text(),
          event: text(),
          host: text('where the webhooks go (the host only)'),
          key: object({ id: text(), name: text(), displayName: text() }, ['id', 'name']),
          createdAt: timestamp(),
          pending: integer('events waiting to be delivered'),
        },
        ['id', 'event', 'host', 'key'],
      ),
    ),
  },
  ['restrictedTo', 'subscriptions'],
);

export const relaySubscriptionEndedSchema = object({ removed: { const: true }, id: text() }, ['removed', 'id']);

export const relayInstructionsSchema = object({ client: oneOfText(INSTRUCTION_CLIENTS), text: text() }, ['client', 'text']);
