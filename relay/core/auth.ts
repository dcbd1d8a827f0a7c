// Who is calling (docs/relay-api.md#ra1, #ra2): the computer with its device token, or an agent with a key.
// The order is fixed: a bearer token of a known shape, an id this relay signed (checked before any query),
// the right kind for the route, then the stored hash.

import { scopeMissing, unauthorized, wrongCredential } from '../../protocol/relay/errors.js';
import type { DeviceRow, KeyRow } from '../store/schema.js';
import { bearerToken, parseCredential, sameSecret, sha256Hex } from './credentials.js';
import type { Relay } from './relay.js';

export interface DeviceCaller {
  deviceId: string;
  device: DeviceRow;
}

export interface AgentCaller {
  deviceId: string;
  key: KeyRow;
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
  if (!device || !sameSecret(device.token_hash, sha256Hex(credential.secret))) throw unauthorized('unknown or revoked device token: pair again');
  return { deviceId: device.id, device };
}

/**
 * Agent routes and /mcp: an agent key (or, with issue 13, an access token). The device token gets 403
 * wrong_credential; a revoked key, or one of another kind, 401; a key without scope notify, 403.
 */
export async function authenticateAgent(relay: Relay, authorization: string | undefined): Promise<AgentCaller> {
  const credential = await verifiedCredential(relay, authorization);
  if (credential.kind === 'device') throw wrongCredential('agent');
  if (credential.kind === 'access') throw unauthorized('unknown or revoked access token');
  const key = await relay.store.db
    .selectFrom('agent_keys')
    .selectAll()
    .where('device_id', '=', credential.deviceId)
    .where('id', '=', credential.keyId!)
    .executeTakeFirst();
  const valid = key && key.kind === 'static' && key.revoked_at === null && key.secret_hash !== null && sameSecret(key.secret_hash, sha256Hex(credential.secret));
  if (!valid) throw unauthorized('unknown or revoked agent key');
  if (!key.scope.split(' ').includes(NOTIFY_SCOPE)) throw scopeMissing();
  return { deviceId: key.device_id, key };
}
