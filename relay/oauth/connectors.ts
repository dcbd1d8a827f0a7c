// Connectors (docs/relay-api.md#ra109): an approved OAuth client is an agent key of kind `oauth` on the computer
// that approved it, named after the client, listed with the other keys and revoked like them. Its tokens and its
// webhook subscriptions belong to that key: revoking the key (core/keys.ts) ends them all at once.

import { tooManyKeys } from '../../protocol/relay/errors.js';
import { NOTIFY_SCOPE } from '../core/auth.js';
import { retireKey, unusedKeyId } from '../core/keys.js';
import type { DeviceTx } from '../store/backend.js';
import { MAX_ACTIVE_KEYS } from '../limits.js';

/** RA22: a key name: 1 to 32 of a-z, 0-9 and -, not starting with -. */
const MAX_NAME_CHARS = 32;

/** RA109: the key's name from the client's name: lower case, other characters as `-`; a number added when taken. */
export function connectorKeyName(clientName: string, taken: Set<string>): string {
  const base =
    clientName
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, MAX_NAME_CHARS)
      .replace(/-+$/, '') || 'connector';
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const name = `${base.slice(0, MAX_NAME_CHARS - String(n).length - 1).replace(/-+$/, '')}-${n}`;
    if (!taken.has(name)) return name;
  }
}

/**
 * RA109: approving a client makes its connector key, replacing the key an earlier approval of the same client
 * made (revoked: its tokens and subscriptions end). Checked before anything is written: at most 20 active keys (429).
 */
export async function createConnectorKey(
  tx: DeviceTx,
  deviceId: string,
  clientId: string,
  clientName: string,
  now: number,
): Promise<string> {
  const keys = await tx.db
    .selectFrom('agent_keys')
    .select(['id', 'name', 'kind', 'oauth_client', 'revoked_at'])
    .where('device_id', '=', deviceId)
    .execute();
  const replaced = keys.filter((key) => key.revoked_at === null && key.kind === 'oauth' && key.oauth_client === clientId);
  const staying = keys.filter((key) => key.revoked_at === null && !replaced.includes(key));
  if (staying.length >= MAX_ACTIVE_KEYS) throw tooManyKeys(MAX_ACTIVE_KEYS);
  for (const key of replaced) await retireKey(tx, deviceId, key.id, now);
  const id = unusedKeyId(keys.map((key) => key.id));
  await tx.db
    .insertInto('agent_keys')
    .values({
      device_id: deviceId,
      id,
      name: connectorKeyName(clientName, new Set(staying.map((key) => key.name))),
      client: 'other',
      scope: NOTIFY_SCOPE,
      kind: 'oauth',
      secret_hash: null,
      display_name: clientName,
      oauth_client: clientId,
      created_at: now,
      revoked_at: null,
      last_used_at: null,
    })
    .execute();
  return id;
}
