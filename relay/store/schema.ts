// The relay's tables, as Kysely sees them (created by migrations/). The same schema on SQLite and PostgreSQL:
// times are Unix milliseconds (bigint), flags are integers 0/1, JSON is text, audio is a blob (bytea).
// Every per-computer row carries `device_id`, the shard key every credential names.

import type { Generated, Insertable, Selectable } from 'kysely';

export interface DevicesTable {
  /** 48 hex: 32 random + 16 of the HMAC that proves the relay made it (core/credentials.ts). */
  id: string;
  name: string;
  /** SHA-256 (hex) of the device token's secret part. */
  token_hash: string;
  created_at: number;
  /** The last sign of life: connect, disconnect, a frame, a ping (written at most once a minute), an HTTP call. */
  last_seen_at: number;
  /** JSON of the computer's status: quietActive, quietUntil, muted. */
  status: string;
  /** Raised by every socket connect: the highest generation is the socket in force (RA33). */
  stream_gen: number;
  /** The generation of the socket open now, or null when none is. */
  stream_open: number | null;
  /** The number of the computer's latest reply event (migration 003); the next one gets one more. */
  event_seq: Generated<number>;
}

export interface PairCodesTable {
  /** SHA-256 of the normalised code (upper case, letters and digits only). */
  code_hash: string;
  device_name: string | null;
  addr_hash: string;
  created_at: number;
  expires_at: number;
}

export interface PairEventsTable {
  /** `start` (a code was handed out) or `fail` (a wrong code). */
  kind: 'start' | 'fail';
  addr_hash: string;
  at: number;
}

export interface AgentKeysTable {
  device_id: string;
  /** 8 hex. */
  id: string;
  name: string;
  client: string;
  scope: string;
  /** `static` (made with the device token) or `oauth` (a connector: docs/relay-api.md#ra100 onwards). */
  kind: string;
  /** SHA-256 of the key's secret part; null for kinds that have none. */
  secret_hash: string | null;
  display_name: string | null;
  oauth_client: string | null;
  created_at: number;
  revoked_at: number | null;
  last_used_at: number | null;
}

export interface KeyHitsTable {
  device_id: string;
  key_id: string;
  kind: 'notify' | 'read';
  /** Numbers the key's hits of one kind: one more than its newest (core/key-limits.ts). */
  seq: number;
  at: number;
}

export interface NotesTable {
  device_id: string;
  /** `r_` + 24 hex. */
  rid: string;
  key_id: string;
  /** The sender's notificationId (or `n_` + 24 hex). */
  nid: string;
  /** The cleaned payload, JSON. */
  payload: string;
  expect_reply: number;
  created_at: number;
  acked_at: number | null;
  displayed_at: number | null;
  spoken_at: number | null;
  replied_at: number | null;
  reply_text: string | null;
  transcript: string | null;
  duration_seconds: number | null;
  /** Bytes of the voice recording uploaded for the reply, or null when there is none. */
  audio_size: number | null;
  suppressed_at: number | null;
  suppressed_reason: string | null;
  suppressed_scope: string | null;
}

export interface UsageDaysTable {
  device_id: string;
  /** YYYY-MM-DD, UTC. */
  day: string;
  requests: number;
  ws_messages: number;
  notifications: number;
  poll_seconds: number;
  audio_uploads: number;
  audio_bytes: number;
}

export interface ReplyAudioTable {
  device_id: string;
  rid: string;
  content_type: string;
  size: number;
  bytes: Buffer;
  created_at: number;
}

export interface TasksTable {
  /** One row per background task; a node claims a due row, runs the task, and moves due_at on. */
  name: string;
  due_at: number;
}

export interface OAuthClientsTable {
  /** `hc_` + 32 hex (docs/relay-api.md#ra101). */
  id: string;
  /** The cleaned client_name. */
  name: string;
  /** JSON array of the registered redirect addresses. */
  redirect_uris: string;
  /** `none`, `client_secret_post` or `client_secret_basic`. */
  auth_method: string;
  /** SHA-256 (hex) of the client secret; null for a public client. */
  secret_hash: string | null;
  created_at: number;
}

export interface OAuthRegistrationsTable {
  /** One row per registration, for the hourly limit (REGISTER_PER_HOUR). */
  at: number;
}

export interface OAuthClientDocumentsTable {
  /** A client id that is an https URL: its fetched client metadata document (docs/relay-api.md#ra103). */
  url: string;
  name: string;
  redirect_uris: string;
  fetched_at: number;
  expires_at: number;
}

export interface OAuthRequestsTable {
  device_id: string;
  /** 72 hex: the computer's id, then 24 random hex (docs/relay-api.md#ra104). */
  id: string;
  /** `code` (browser flow) or `device` (device flow). */
  flow: 'code' | 'device';
  client_id: string;
  client_name: string;
  /** The relay's origin as the client reached it: the issuer named in the redirect, and the base of `resource`. */
  origin: string;
  redirect_uri: string | null;
  code_challenge: string | null;
  state: string | null;
  /** The `resource` the request named, or null. */
  resource: string | null;
  /**
   * Random, new whenever the request is (re)begun. The 6-digit approval code and the authorization code are made
   * from it and RELAY_SECRET each time they are needed (relay/oauth/codes.ts): neither is ever stored (migration 004).
   */
  code_nonce: string;
  /** `pending`, `approved`, `denied`, `superseded` or `expired`. */
  status: string;
  /** Wrong approval codes typed on the relay's pages. */
  attempts: number;
  /** SHA-256 (hex) of the whole authorization code, once approved (browser flow). */
  code_hash: string | null;
  /** The connector's key, once approved. */
  key_id: string | null;
  created_at: number;
  expires_at: number;
  decided_at: number | null;
  /** When the code (or the device code) was exchanged for tokens: a second exchange is refused (and revokes them). */
  redeemed_at: number | null;
  /** Device flow: SHA-256 (hex) of the whole device code. */
  device_code_hash: string | null;
  /**
   * Device flow: the user code, without its dash. Kept as it is: it is no secret (the agent has it and shows it; it
   * approves nothing alone), the relay looks requests up by it, and sends it again to the computer's banner.
   */
  user_code: string | null;
  last_poll_at: number | null;
  interval_seconds: number;
  /** When a `consent` frame first went out for it (a later connect re-sends it as `redelivered`). */
  announced_at: number | null;
}

export interface OAuthTokensTable {
  device_id: string;
  /** SHA-256 (hex) of the token's secret part. */
  hash: string;
  /** `refresh`: the grant's refresh token in force; `rotated`: one it replaced, kept to tell a reuse (RA106). */
  kind: 'access' | 'refresh' | 'rotated';
  /** The connector (an agent key of kind `oauth`). */
  key_id: string;
  client_id: string;
  resource: string | null;
  /**
   * The grant the token belongs to: the id of the approval request whose code (or device code) was exchanged.
   * Revoking the grant ends every token of the family. (Tokens issued before migration 004: their first refresh
   * token's hash.)
   */
  family: string;
  /** Numbers a connector's tokens in the order they were issued (the newest 50 of each kind are kept). */
  seq: number;
  created_at: number;
}

/** A reply event (migration 003, docs/relay-api.md#ra208): the first answer to a notification. */
export interface ReplyEventsTable {
  device_id: string;
  /** Numbers the computer's events, from 1; the event's cursor. */
  seq: number;
  /** The connector (key) that sent the notification: the event goes only to its subscriptions. */
  key_id: string;
  rid: string;
  nid: string;
  /** `text` (typed) or `voice` (recorded only). */
  kind: 'text' | 'voice';
  /** When the person answered. */
  at: number;
}

/** A connector's webhook for an event (docs/relay-api.md#ra205). */
export interface EventSubsTable {
  /** `sub_` + 20 hex. */
  id: string;
  device_id: string;
  key_id: string;
  event: string;
  /** The callback URL, normalised. */
  url: string;
  /** The signing secret in force (`whsec_...`): kept as is, since every delivery is signed with it. */
  secret: string;
  created_at: number;
}

/** One event still to deliver to one subscription (docs/relay-api.md#ra210). */
export interface EventOutboxTable {
  /** `evt_<seq>_<subscription id without sub_>`: also the webhook-id of every attempt. */
  id: string;
  device_id: string;
  sub_id: string;
  seq: number;
  /** The request body, JSON, exactly as sent on every attempt. */
  payload: string;
  attempts: number;
  /** Not sent before this time. */
  next_at: number;
  /** While a relay process delivers it: until when that claim holds (then another may take it). */
  claimed_until: number | null;
  /** When it was queued: it is given up 24 hours later. */
  created_at: number;
}

export interface RelayDatabase {
  devices: DevicesTable;
  pair_codes: PairCodesTable;
  pair_events: PairEventsTable;
  agent_keys: AgentKeysTable;
  key_hits: KeyHitsTable;
  notes: NotesTable;
  usage_days: UsageDaysTable;
  reply_audio: ReplyAudioTable;
  tasks: TasksTable;
  oauth_clients: OAuthClientsTable;
  oauth_registrations: OAuthRegistrationsTable;
  oauth_client_documents: OAuthClientDocumentsTable;
  oauth_requests: OAuthRequestsTable;
  oauth_tokens: OAuthTokensTable;
  reply_events: ReplyEventsTable;
  event_subs: EventSubsTable;
  event_outbox: EventOutboxTable;
}

export type DeviceRow = Selectable<DevicesTable>;
export type KeyRow = Selectable<AgentKeysTable>;
export type NoteRow = Selectable<NotesTable>;
export type NewNote = Insertable<NotesTable>;
export type UsageRow = Selectable<UsageDaysTable>;
export type OAuthRequestRow = Selectable<OAuthRequestsTable>;
export type OAuthClientRow = Selectable<OAuthClientsTable>;

/** Every table that holds rows of one computer, in the order a wipe deletes them. */
export const PER_DEVICE_TABLES = [
  'reply_audio',
  'notes',
  'key_hits',
  'usage_days',
  'oauth_tokens',
  'oauth_requests',
  'event_outbox',
  'event_subs',
  'reply_events',
  'agent_keys',
] as const;
