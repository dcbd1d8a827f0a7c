// Who is calling (docs/relay-api.md#ra1, #ra2): the computer with its device token, or an agent with a key.
// The order is fixed: a bearer token of a known shape, an id this relay signed (checked before any query),
// the right kind for the route, then the stored hash — for an agent, inside the request's own transaction,
// so a request costs one transaction and concurrent ones can share a commit.

import { deviceUnpaired, scopeMissing, unauthorized, wrongCredential, type RelayError } from '../../protocol/relay/errors.js';
import type { RelayDb } from '../store/backend.js';
import { prepared } from '../store/prepared.js';
import type { DeviceRow, KeyRow } from '../store/schema.js';
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

const selectKey = prepared((db: RelayDb, deviceId: string, keyId: string) =>
  db.selectFrom('agent_keys').selectAll().where('device_id', '=', deviceId).where('id', '=', keyId),
);

/** RA109: the connector key an access token belongs to (its token row is found by the secret's hash). */
const selectAccessKey = prepared((db: RelayDb, deviceId: string, tokenHash: string) =>
  db
    .selectFrom('oauth_tokens')
    .innerJoin('agent_keys', (join) =>
      join.onRef('agent_keys.device_id', '=', 'oauth_tokens.device_id').onRef('agent_keys.id', '=', 'oauth_tokens.key_id'),
    )
    .selectAll('agent_keys')
    .where('oauth_tokens.device_id', '=', deviceId)
    .where('oauth_tokens.hash', '=', tokenHash)
    .where('oauth_tokens.kind', '=', 'access'),
);

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
 */
export async function verifyAgentKey(db: RelayDb, agent: AgentCaller): Promise<KeyRow> {
  if (agent.keyId === undefined) {
    const key = await selectAccessKey.first(db, agent.deviceId, agent.secretHash);
    if (!key || key.kind !== 'oauth' || key.revoked_at !== null) throw await unknownCredential(db, agent.deviceId, 'access token');
    agent.verifiedKeyId = key.id;
    if (!key.scope.split(' ').includes(NOTIFY_SCOPE)) throw scopeMissing();
    return key;
  }
  const key = await selectKey.first(db, agent.deviceId, agent.keyId);
  const valid =
    key && key.kind === 'static' && key.revoked_at === null && key.secret_hash !== null && sameSecret(key.secret_hash, agent.secretHash);
  if (!valid) throw await unknownCredential(db, agent.deviceId, 'key');
  if (!key.scope.split(' ').includes(NOTIFY_SCOPE)) throw scopeMissing();
  return key;
}
