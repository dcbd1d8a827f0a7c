// The Relay page's part of the person-only API (docs/app.md#relay): its paths under `/app/api/relay` and the shapes
// of their answers. Most are `/v1/relay` routes answered by their own handler (docs/api/relay-connection.md), so a
// refusal here is the API's, word for word; usage adds the relay's limits, which `/v1/relay/usage` leaves out.

import { pathOf } from './app-api.js';
import type { ConnectorRequest } from './app-api-approvals.js';
import type { AgentKeyView } from './relay/device-api.js';

/** The patterns of the relay page's routes that name a key or a subscription. */
export const RELAY_KEY_PATTERN = '/app/api/relay/keys/{id}';
export const RELAY_SUBSCRIPTION_PATTERN = '/app/api/relay/subscriptions/{id}';

export const relayPaths = {
  /** `GET`: paired or not, online or not (RL4). */
  status: '/app/api/relay/status',
  /** `POST {relayURL, pairingSecret?}` (RL1, RL2). */
  pair: '/app/api/relay/pair',
  /** `POST {force?}` (RL5). */
  unpair: '/app/api/relay/unpair',
  /** `GET` the keys; `POST {name, client?}` makes one, shown once (RL6). */
  keys: '/app/api/relay/keys',
  /** `DELETE`: revokes a key or a connector (RL6). */
  key: (id: string): string => pathOf(RELAY_KEY_PATTERN, { id }),
  /** `GET`: the approved connectors and the requests waiting, without their codes (RL7). */
  connectors: '/app/api/relay/connectors',
  /** `GET`: today's use, with the relay's limits (RL8, docs/relay-api.md#ra26). */
  usage: '/app/api/relay/usage',
  /** `GET`: the reply-event subscriptions (RL9). */
  events: '/app/api/relay/events',
  /** `DELETE`: ends one subscription (RL9). */
  subscription: (id: string): string => pathOf(RELAY_SUBSCRIPTION_PATTERN, { id }),
} as const;

/** The agent clients a key can be made for (`client` of `POST /v1/relay/keys`). */
export const RELAY_KEY_CLIENTS = ['claude', 'codex', 'other'] as const;
export type RelayKeyClient = (typeof RELAY_KEY_CLIENTS)[number];

/** The state of this computer's socket to the relay (RL4). */
export type RelaySocketState = 'connecting' | 'online' | 'offline' | 'limited' | 'rejected' | 'stopped';
/** The relay's state, in a word: `unpaired`, `starting` (reading the token; waiting for the keyring that holds it), or the socket's state. */
type RelayState = 'unpaired' | 'starting' | RelaySocketState;
/** Where the device token is kept: the desktop's Secret Service or the support folder's file. */
export type RelayTokenPlace = 'secret-service' | 'file';

/** RL4: `GET /v1/relay/status`, and the Relay page's `GET /app/api/relay/status`. */

export interface RelayStatusAnswer {
  paired: boolean;
  state: RelayState;
  online: boolean;
  relayURL?: string;
  mcpURL?: string;
  deviceId?: string;
  pairedAt?: string;
  /** When the socket last came up. */
  lastSeenAt?: string;
  tokenStore?: RelayTokenPlace;
  problem?: string;
  nextAttemptAt?: string;
  waitingReceipts: number;
  pendingApprovals: number;
}

export interface RelayPairRequest {
  relayURL: string;
  pairingSecret?: string;
}

/** `POST …/unpair`: `force` forgets the pairing here even when the relay cannot be told. */
export interface RelayUnpairRequest {
  force?: boolean;
}

/** `POST …/pair`: paired, as this device (the status then says how the connection goes). */
export interface RelayPairAnswer {
  paired: true;
  deviceId: string;
}

/** A key or an approved connector, as the relay lists it (RA22). */
export type RelayKeyRow = AgentKeyView;

export interface RelayKeysAnswer {
  keys: RelayKeyRow[];
}

export interface RelayKeyRequest {
  name: string;
  client?: RelayKeyClient;
}

/** `POST /app/api/relay/keys` (201): the key itself is in this answer only. */
export interface RelayKeyCreated {
  id: string;
  name: string;
  client: string;
  scope: string;
  key: string;
  mcpURL: string;
  connectorConfig: { mcpServers: Record<string, unknown> };
}

/** A connector's open request as `GET /v1/relay/connectors` lists it: never the code (RL43). */
export type ListedConnector = Omit<ConnectorRequest, 'code' | 'problem'>;

export interface RelayConnectorsAnswer {
  connectors: RelayKeyRow[];
  pending: ListedConnector[];
}

/** The relay's daily limits (docs/relay-api.md#ra26); a relay may leave any out. */
export interface RelayLimits {
  requestsPerDay?: number;
  notificationsPerDay?: number;
  pollSecondsPerDay?: number;
  audioUploadsPerDay?: number;
  audioBytesPerDay?: number;
  queueMax?: number;
  freePlanRequestsPerDay?: number;
}

export interface RelayUsageAnswer {
  day: string;
  requests: number;
  wsMessages?: number;
  notifications: number;
  pollSeconds?: number;
  audioUploads?: number;
  audioBytes?: number;
  queued: number;
  storageBytes?: number;
  requestsPercent?: number;
  budgetExhausted?: boolean;
  limits?: RelayLimits;
}

export interface RelaySubscription {
  id: string;
  event: string;
  host: string;
  key: { id: string; name: string; displayName?: string };
  createdAt?: string;
  pending?: number;
}

export interface RelayEventsAnswer {
  restrictedTo: string[];
  subscriptions: RelaySubscription[];
}
