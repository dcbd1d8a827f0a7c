// Who is calling (docs/relay-api.md#ra1, #ra2): the computer with its device token, or an agent with a key.
// The order is fixed: a bearer token of a known shape, an id this relay signed (checked before any query),
// the right kind for the route, then the stored hash — for an agent, inside the request's own transaction,
// so a request costs one transaction and concurrent ones can share a commit.

import { deviceUnpaired, scopeMissing, unauthorized, wrongCredential, type RelayError } from '../../protocol/relay/errors.js';
import type { RelayDb } from '../store/backend.js';
import { rowsIn } from '../store/queries.js';
import { prepared } from '../store/prepared.js';
import type { Compilable, SelectQueryBuilder } from 'kysely';
import type { DeviceRow, KeyRow, RelayDatabase, UsageRow } from '../store/schema.js';
import type { HitWindow } from './key-limits.js';
import { sendingColumns, sendingWindowColumns, type SendingQuery, type SendingState } from './sending.js';
import { utcDay } from './time.js';
import { bearerToken, parseCredential, sameSecret, sha256Hex } from './credentials.js';
import type { Relay } from './relay.js';

export interface DeviceCaller {
  deviceId: string;
  device: DeviceRow;
}

/**
 * An agent credential that passed the checks needing no database (shape, signed device id, kind). Its key row
 * and hash are checked inside the request's locked transaction (requests.ts), where the request is counted.
 */
export interface AgentCaller {
  deviceId: string;
  /** An agent key's id (`hrk_`); an access token (`hra_`) names its key only in the database. */
  keyId: string | undefined;
  /** SHA-256 of the credential's secret, compared with the key's stored hash (or, for an access token, looked up). */
  secretHash: string;
  /** An access token's key, once verifyAgentKey found it: only for the request's log line (relay/http/request-log.ts). */
  verifiedKeyId?: string;
}

/** The scope every agent credential needs (the only one there is). */
export const NOTIFY_SCOPE = 'notify';

async function verifiedCredential(relay: Relay, authorization: string | undefined) {
  const token = bearerToken(authorization);
  if (token === undefined) throw unauthorized();
  const credential = parseCredential(token);
  if (!credential) throw unauthorized('this is not a Notifier relay credential');
  if (!relay.credentials.verifyDeviceId(credential.deviceId)) {
    throw unauthorized('this credential was not issued by this relay, or the relay changed its secret: pair again');
  }
  return credential;
}

/** Device routes: the device token only (an agent credential gets 403 wrong_credential). */
export async function authenticateDevice(relay: Relay, authorization: string | undefined): Promise<DeviceCaller> {
  const credential = await verifiedCredential(relay, authorization);
  if (credential.kind !== 'device') throw wrongCredential('device');
  const device = await relay.store.db.selectFrom('devices').selectAll().where('id', '=', credential.deviceId).executeTakeFirst();
  if (!device || !sameSecret(device.token_hash, sha256Hex(credential.secret)))
    throw unauthorized('unknown or revoked device token: pair again');
  return { deviceId: device.id, device };
}

/**
 * Agent routes and /mcp, without the database: an agent key or an OAuth access token (docs/relay-api.md#ra109);
 * the device token gets 403 wrong_credential. verifyAgentKey finishes the check.
 */
export async function authenticateAgent(relay: Relay, authorization: string | undefined): Promise<AgentCaller> {
  const credential = await verifiedCredential(relay, authorization);
  if (credential.kind === 'device') throw wrongCredential('agent');
  return { deviceId: credential.deviceId, keyId: credential.keyId, secretHash: sha256Hex(credential.secret) };
}

/** Today's counters of the key's computer, read with the key: null when it has none yet. */
type TodayColumns = { [C in Exclude<keyof UsageRow, 'device_id' | 'day'> as `today_${C}`]: number | null };
type KeyWithToday = KeyRow & TodayColumns;

/** `query` (of agent_keys) with the counters of the key's computer on `day` beside each key, in one query. */
const withToday = (query: SelectQueryBuilder<RelayDatabase, 'agent_keys', KeyRow>, day: string): Compilable<KeyWithToday> =>
  query
    .leftJoin('usage_days', (join) => join.onRef('usage_days.device_id', '=', 'agent_keys.device_id').on('usage_days.day', '=', day))
    .select([
      'usage_days.requests as today_requests',
      'usage_days.ws_messages as today_ws_messages',
      'usage_days.notifications as today_notifications',
      'usage_days.poll_seconds as today_poll_seconds',
      'usage_days.audio_uploads as today_audio_uploads',
      'usage_days.audio_bytes as today_audio_bytes',
    ]);

const keyById = (db: RelayDb, deviceId: string, keyId: string) =>
  db.selectFrom('agent_keys').selectAll('agent_keys').where('agent_keys.device_id', '=', deviceId).where('agent_keys.id', '=', keyId);

/** RA109: the connector key an access token belongs to (its token row is found by the secret's hash). */
const keyByAccessToken = (db: RelayDb, deviceId: string, tokenHash: string) =>
  db
    .selectFrom('oauth_tokens')
    .innerJoin('agent_keys', (join) =>
      join.onRef('agent_keys.device_id', '=', 'oauth_tokens.device_id').onRef('agent_keys.id', '=', 'oauth_tokens.key_id'),
    )
    .selectAll('agent_keys')
    .where('oauth_tokens.device_id', '=', deviceId)
    .where('oauth_tokens.hash', '=', tokenHash)
    .where('oauth_tokens.kind', '=', 'access') as unknown as SelectQueryBuilder<RelayDatabase, 'agent_keys', KeyRow>;

/** A notify's checks beside the key (sending.ts, sendingColumns), as the key's query reads them. */
type SendingColumns = {
  sending_hit_at: number | null;
  sending_waiting: number;
  sending_overdue: number;
  sending_stream: number | null;
  sending_window?: HitWindow | null;
};

/** `query` (of keys) with notify's checks beside each key (RA45, RA50). */
const withSending = (db: RelayDb, query: SelectQueryBuilder<RelayDatabase, 'agent_keys', KeyRow>, back: number, overdueAt: number) =>
  query.select(sendingColumns(db, back, overdueAt)) as unknown as SelectQueryBuilder<RelayDatabase, 'agent_keys', KeyRow & SendingColumns>;

/** The same with the key's hit window for a group of `count` requests (sending.ts, sendingWindowColumns): PostgreSQL. */
const withSendingWindow = (
  db: RelayDb,
  query: SelectQueryBuilder<RelayDatabase, 'agent_keys', KeyRow>,
  back: number,
  overdueAt: number,
  count: number,
) =>
  query.select(sendingWindowColumns(db, back, overdueAt, count)) as unknown as SelectQueryBuilder<
    RelayDatabase,
    'agent_keys',
    KeyRow & SendingColumns
  >;

/** Keys by computer and key id, the i-th of each array together (PostgreSQL's unnest). */
const keysByIds = (db: RelayDb, deviceIds: string[], keyIds: string[]) =>
  db
    .selectFrom('agent_keys')
    .selectAll('agent_keys')
    .where(rowsIn(['agent_keys.device_id', 'agent_keys.id'], [deviceIds, keyIds]));

const selectKey = prepared((db: RelayDb, deviceId: string, keyId: string, day: string) => withToday(keyById(db, deviceId, keyId), day));
const selectAccessKey = prepared((db: RelayDb, deviceId: string, tokenHash: string, day: string) =>
  withToday(keyByAccessToken(db, deviceId, tokenHash), day),
);
const selectKeySending = prepared((db: RelayDb, deviceId: string, keyId: string, day: string, back: number, overdueAt: number) =>
  withToday(withSending(db, keyById(db, deviceId, keyId), back, overdueAt), day),
);
const selectAccessKeySending = prepared((db: RelayDb, deviceId: string, tokenHash: string, day: string, back: number, overdueAt: number) =>
  withToday(withSending(db, keyByAccessToken(db, deviceId, tokenHash), back, overdueAt), day),
);
const selectKeysSending = prepared(
  (db: RelayDb, deviceIds: string[], keyIds: string[], day: string, back: number, overdueAt: number) =>
    withToday(withSending(db, keysByIds(db, deviceIds, keyIds), back, overdueAt), day) as Compilable<KeyWithToday & SendingColumns>,
);
const selectKeySendingWindow = prepared(
  (db: RelayDb, deviceId: string, keyId: string, day: string, back: number, overdueAt: number, count: number) =>
    withToday(withSendingWindow(db, keyById(db, deviceId, keyId), back, overdueAt, count), day),
);
const selectAccessKeySendingWindow = prepared(
  (db: RelayDb, deviceId: string, tokenHash: string, day: string, back: number, overdueAt: number, count: number) =>
    withToday(withSendingWindow(db, keyByAccessToken(db, deviceId, tokenHash), back, overdueAt, count), day),
);

/** The key's row by the credential's key id or access token, with what `sending` asks for beside it. */
function readKeyRow(db: RelayDb, agent: AgentCaller, day: string, sending: SendingQuery | undefined) {
  const { deviceId, keyId, secretHash } = agent;
  if (sending?.window !== undefined) {
    const { back, overdueAt, window } = sending;
    return keyId === undefined
      ? selectAccessKeySendingWindow.first(db, deviceId, secretHash, day, back, overdueAt, window)
      : selectKeySendingWindow.first(db, deviceId, keyId, day, back, overdueAt, window);
  }
  if (sending) {
    return keyId === undefined
      ? selectAccessKeySending.first(db, deviceId, secretHash, day, sending.back, sending.overdueAt)
      : selectKeySending.first(db, deviceId, keyId, day, sending.back, sending.overdueAt);
  }
  return keyId === undefined ? selectAccessKey.first(db, deviceId, secretHash, day) : selectKey.first(db, deviceId, keyId, day);
}

/** The row read apart: the key, its computer's counters of `day` (all zero before the first), notify's checks. */
function splitRow(
  row: KeyWithToday & Partial<SendingColumns>,
  deviceId: string,
  day: string,
): { key: KeyRow; today: UsageRow; sending?: SendingState } {
  const {
    today_requests,
    today_ws_messages,
    today_notifications,
    today_poll_seconds,
    today_audio_uploads,
    today_audio_bytes,
    sending_hit_at,
    sending_waiting,
    sending_overdue,
    sending_stream,
    sending_window,
    ...key
  } = row;
  const today: UsageRow = {
    device_id: deviceId,
    day,
    requests: Number(today_requests ?? 0),
    ws_messages: Number(today_ws_messages ?? 0),
    notifications: Number(today_notifications ?? 0),
    poll_seconds: Number(today_poll_seconds ?? 0),
    audio_uploads: Number(today_audio_uploads ?? 0),
    audio_bytes: Number(today_audio_bytes ?? 0),
  };
  if (sending_waiting === undefined) return { key, today };
  const sending = {
    hitAt: sending_hit_at == null ? null : Number(sending_hit_at),
    waiting: Number(sending_waiting),
    overdue: Number(sending_overdue),
    stream: sending_stream == null ? null : Number(sending_stream),
    ...(sending_window !== undefined && { window: sending_window }),
  };
  return { key, today, sending };
}

/**
 * RA2: a credential of this relay that matches nothing: `device_unpaired` when its computer is gone (unpairing
 * deletes the computer's keys and tokens with it), else `unauthorized`. Only refusals pay for the look-up.
 */
async function unknownCredential(db: RelayDb, deviceId: string, credential: 'key' | 'access token'): Promise<RelayError> {
  const device = await db.selectFrom('devices').select('id').where('id', '=', deviceId).executeTakeFirst();
  return device ? unauthorized(`unknown or revoked ${credential === 'key' ? 'agent key' : credential}`) : deviceUnpaired(credential);
}

/**
 * The key behind an agent credential, checked: 401 when unknown, revoked or of another kind (an agent key is
 * `static`, an access token's key `oauth`) — `device_unpaired` when its computer was unpaired; 403 without notify.
 * With it, in the same query, its computer's counters of the UTC day of `now` (RA51), and, when asked, what a
 * notify checks next (RA45, RA50).
 */
export async function verifyAgentKey(
  db: RelayDb,
  agent: AgentCaller,
  now: number,
  sending?: SendingQuery,
): Promise<{ key: KeyRow; today: UsageRow; sending?: SendingState }> {
  const day = utcDay(now);
  const row: (KeyWithToday & Partial<SendingColumns>) | undefined = await readKeyRow(db, agent, day, sending);
  if (agent.keyId === undefined) {
    if (!row || row.kind !== 'oauth' || row.revoked_at !== null) throw await unknownCredential(db, agent.deviceId, 'access token');
    agent.verifiedKeyId = row.id;
    if (!row.scope.split(' ').includes(NOTIFY_SCOPE)) throw scopeMissing();
    return splitRow(row, agent.deviceId, day);
  }
  return checkedKey(db, agent, row, day);
}

/** An agent key's row (KeyWithToday, read by its key id), checked against the credential's secret. */
async function checkedKey(db: RelayDb, agent: AgentCaller, row: (KeyWithToday & Partial<SendingColumns>) | undefined, day: string) {
  const valid =
    row && row.kind === 'static' && row.revoked_at === null && row.secret_hash !== null && sameSecret(row.secret_hash, agent.secretHash);
  if (!valid) throw await unknownCredential(db, agent.deviceId, 'key');
  if (!row.scope.split(' ').includes(NOTIFY_SCOPE)) throw scopeMissing();
  return splitRow(row, agent.deviceId, day);
}

/**
 * verifyAgentKey with notify's checks for several agent keys (credentials with a key id), of any computers, in one
 * query: PostgreSQL, for a group of notifications (notify-group.ts). Each answer is what verifyAgentKey would give;
 * the first refusal throws.
 */
export async function verifyAgentKeys(
  db: RelayDb,
  agents: AgentCaller[],
  now: number,
  sending: SendingQuery,
): Promise<Array<{ key: KeyRow; today: UsageRow; sending?: SendingState }>> {
  const day = utcDay(now);
  const deviceIds = agents.map((agent) => agent.deviceId);
  const keyIds = agents.map((agent) => agent.keyId!);
  const rows = await selectKeysSending.all(db, deviceIds, keyIds, day, sending.back, sending.overdueAt);
  const byKey = new Map(rows.map((row) => [`${row.device_id} ${row.id}`, row]));
  const verified = [];
  for (const agent of agents) verified.push(await checkedKey(db, agent, byKey.get(`${agent.deviceId} ${agent.keyId!}`), day));
  return verified;
}
