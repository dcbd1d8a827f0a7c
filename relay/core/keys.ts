// Agent keys (docs/relay-api.md#ra22): the computer makes them with its device token, sees them, and revokes
// or purges them. A key is shown once, when it is made; the relay keeps only its hash.

import {
  forbiddenFields,
  invalidField,
  nameTaken,
  notAnObject,
  notFound,
  scopeNotAllowed,
  tooManyKeys,
} from '../../protocol/relay/errors.js';
import { KEY_ID_PATTERN, type AgentKeyView } from '../../protocol/relay/device-api.js';
import type { DeviceTx, RelayDb } from '../store/backend.js';
import { countRows } from '../store/queries.js';
import type { KeyRow } from '../store/schema.js';
import { MAX_ACTIVE_KEYS } from '../limits.js';
import { NOTIFY_SCOPE } from './auth.js';
import { newAgentKey, randomHex } from './credentials.js';
import { endKeyEvents } from './subscriptions.js';
import { iso } from './time.js';

export const KEY_CLIENTS = ['claude', 'codex', 'other'] as const;
const KEY_FIELDS = ['name', 'client', 'scope'];
/** RA22: 1 to 32 of a-z, 0-9 and -, not starting with -. */
const KEY_NAME = /^[a-z0-9][a-z0-9-]{0,31}$/;
function keyView(key: KeyRow): AgentKeyView {
  return {
    id: key.id,
    name: key.name,
    client: key.client,
    scope: key.scope,
    kind: key.kind,
    ...(key.display_name !== null && { displayName: key.display_name }),
    createdAt: iso(key.created_at),
    ...(key.last_used_at !== null && { lastUsedAt: iso(key.last_used_at) }),
    ...(key.revoked_at !== null && { revokedAt: iso(key.revoked_at) }),
  };
}

/** RA22: every key of the computer, revoked ones included, oldest first. */
export async function listKeys(db: RelayDb, deviceId: string): Promise<AgentKeyView[]> {
  const keys = await db
    .selectFrom('agent_keys')
    .selectAll()
    .where('device_id', '=', deviceId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return keys.map(keyView);
}

export function activeKeyCount(db: RelayDb, deviceId: string): Promise<number> {
  return countRows(db.selectFrom('agent_keys').where('device_id', '=', deviceId).where('revoked_at', 'is', null));
}

interface NewKeyRequest {
  name: string;
  client: string;
}

/** RA22: the checks of `POST /v1/device/keys`, in order: JSON, name, client, other fields, scope. */
function readNewKey(body: unknown): NewKeyRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw notAnObject();
  const input = body as Record<string, unknown>;
  const name = typeof input.name === 'string' ? input.name.trim().toLowerCase() : undefined;
  if (name === undefined || !KEY_NAME.test(name)) throw invalidField('name', '1 to 32 of a-z, 0-9 and -, not starting with -');
  const client = input.client ?? 'other';
  if (typeof client !== 'string' || !(KEY_CLIENTS as readonly string[]).includes(client))
    throw invalidField('client', `one of ${KEY_CLIENTS.join(', ')}`);
  const unknown = Object.keys(input).filter((key) => !KEY_FIELDS.includes(key));
  if (unknown.length > 0) throw forbiddenFields(unknown, `fields not accepted: ${unknown.join(', ')}. Accepted: ${KEY_FIELDS.join(', ')}`);
  if (input.scope !== undefined && input.scope !== NOTIFY_SCOPE) throw scopeNotAllowed();
  return { name, client };
}

/** RA1: a key id (8 hex digits) none of the computer's keys has. */
export function unusedKeyId(taken: readonly string[]): string {
  let id = randomHex(4);
  while (taken.includes(id)) id = randomHex(4);
  return id;
}

/** RA22: a new static key; the key itself is in this answer only. */
export async function createKey(tx: DeviceTx, deviceId: string, body: unknown, now: number): Promise<AgentKeyView & { key: string }> {
  const request = readNewKey(body);
  const active = await tx.db
    .selectFrom('agent_keys')
    .select('name')
    .where('device_id', '=', deviceId)
    .where('revoked_at', 'is', null)
    .execute();
  if (active.some((key) => key.name === request.name)) throw nameTaken(request.name);
  if (active.length >= MAX_ACTIVE_KEYS) throw tooManyKeys(MAX_ACTIVE_KEYS);
  const taken = (await tx.db.selectFrom('agent_keys').select('id').where('device_id', '=', deviceId).execute()).map((key) => key.id);
  const id = unusedKeyId(taken);
  const { key, hash } = newAgentKey(deviceId, id);
  const row: KeyRow = {
    device_id: deviceId,
    id,
    name: request.name,
    client: request.client,
    scope: NOTIFY_SCOPE,
    kind: 'static',
    secret_hash: hash,
    display_name: null,
    oauth_client: null,
    created_at: now,
    revoked_at: null,
    last_used_at: null,
  };
  await tx.db.insertInto('agent_keys').values(row).execute();
  const { id: keyId, name, client, scope, kind, createdAt } = keyView(row);
  return { id: keyId, name, client, scope, kind, key, createdAt };
}

/**
 * RA22, RA109, RA212: a key stops working, and what hangs on it ends with it: its OAuth tokens (a connector's),
 * and its webhook subscriptions with the deliveries waiting for them; a purged key's reply events go too.
 */
async function endKey(tx: DeviceTx, deviceId: string, keyId: string, purge: boolean): Promise<void> {
  await tx.db.deleteFrom('oauth_tokens').where('device_id', '=', deviceId).where('key_id', '=', keyId).execute();
  await endKeyEvents(tx, deviceId, keyId, purge);
}

/** RA22: marks a key revoked (the row stays, listed) and ends what hangs on it; also a connector being replaced (RA109). */
export async function retireKey(tx: DeviceTx, deviceId: string, keyId: string, now: number): Promise<void> {
  await tx.db
    .updateTable('agent_keys')
    .set({ revoked_at: now })
    .where('device_id', '=', deviceId)
    .where('id', '=', keyId)
    .where('revoked_at', 'is', null)
    .execute();
  await endKey(tx, deviceId, keyId, false);
}

/**
 * RA22: revoke a key (it stops working at once; the row stays, marked). With `purge`, the key and everything it
 * sent are deleted instead.
 */
export async function revokeKey(
  tx: DeviceTx,
  deviceId: string,
  keyId: string,
  purge: boolean,
  now: number,
): Promise<{ revoked: true; purged?: true; id: string }> {
  const key = KEY_ID_PATTERN.test(keyId)
    ? await tx.db.selectFrom('agent_keys').select('id').where('device_id', '=', deviceId).where('id', '=', keyId).executeTakeFirst()
    : undefined;
  if (!key) throw notFound('no such key on this computer');
  if (!purge) {
    await retireKey(tx, deviceId, keyId, now);
    return { revoked: true, id: keyId };
  }
  await endKey(tx, deviceId, keyId, true);
  const notes = tx.db.selectFrom('notes').select('rid').where('device_id', '=', deviceId).where('key_id', '=', keyId);
  await tx.db.deleteFrom('reply_audio').where('device_id', '=', deviceId).where('rid', 'in', notes).execute();
  await tx.db.deleteFrom('notes').where('device_id', '=', deviceId).where('key_id', '=', keyId).execute();
  await tx.db.deleteFrom('key_hits').where('device_id', '=', deviceId).where('key_id', '=', keyId).execute();
  await tx.db.deleteFrom('agent_keys').where('device_id', '=', deviceId).where('id', '=', keyId).execute();
  return { revoked: true, purged: true, id: keyId };
}
