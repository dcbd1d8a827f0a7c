// Tokens (docs/relay-api.md#ra106, #ra107): an approved request traded for an access token and a refresh token,
// a refresh, and revocation. Tokens never expire and are never rotated; each belongs to a connector (an agent key
// of kind `oauth`) and ends with it. Like every credential they name their computer (`hra_<device id>_...`),
// so each request is one locked transaction of that computer.

import { createHash } from 'node:crypto';
import { invalidGrant, invalidScope, invalidTarget } from '../../protocol/relay/oauth-errors.js';
import { NOTIFY_SCOPE } from '../core/auth.js';
import { randomHex, sha256Hex } from '../core/credentials.js';
import type { Relay } from '../core/relay.js';
import type { DeviceTx, RelayDb } from '../store/backend.js';
import type { OAuthClient } from './client-rules.js';
import { CODE_EXCHANGE_MS, CODE_VERIFIER, EXPIRES_IN_SECONDS, MAX_TOKENS_PER_CONNECTOR } from './limits.js';

export interface TokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/** What tokens are issued for: a connector of a computer, for a client, bound to a resource (or none). */
export interface Grant {
  deviceId: string;
  keyId: string;
  clientId: string;
  resource: string | null;
}

/** A token of a kind (`hrc`, `hra`, `hrr`, `hrv`) this relay made: its computer and its secret part; else undefined. */
export function parseOAuthToken(
  relay: Relay,
  prefix: 'hrc' | 'hra' | 'hrr' | 'hrv',
  token: unknown,
): { deviceId: string; secret: string } | undefined {
  if (typeof token !== 'string') return undefined;
  const match = new RegExp(`^${prefix}_([0-9a-f]{48})_([0-9a-f]{32,64})$`).exec(token);
  if (!match || !relay.credentials.verifyDeviceId(match[1]!)) return undefined;
  return { deviceId: match[1]!, secret: match[2]! };
}

/** RA106: a `resource` sent to /token must be the one the grant named, else this relay's MCP address. */
export function checkResource(given: string | null, granted: string | null, origin: string): void {
  if (given === null) return;
  const strip = (uri: string): string => uri.replace(/\/+$/, '');
  if (strip(given) !== strip(granted ?? `${origin}/mcp`)) throw invalidTarget();
}

/** Keeps the newest 50 tokens of a kind per connector. */
async function trim(tx: DeviceTx, grant: Grant, kind: 'access' | 'refresh'): Promise<void> {
  const kept = tx.db
    .selectFrom('oauth_tokens')
    .select('hash')
    .where('device_id', '=', grant.deviceId)
    .where('key_id', '=', grant.keyId)
    .where('kind', '=', kind)
    .orderBy('seq', 'desc')
    .limit(MAX_TOKENS_PER_CONNECTOR);
  await tx.db
    .deleteFrom('oauth_tokens')
    .where('device_id', '=', grant.deviceId)
    .where('key_id', '=', grant.keyId)
    .where('kind', '=', kind)
    .where('hash', 'not in', kept)
    .execute();
}

/**
 * RA106: a new access token, with a new refresh token or (a refresh) the one given; the access token belongs to
 * the refresh token's family. The newest 50 of each kind per connector are kept.
 */
export async function issueTokens(
  tx: DeviceTx,
  grant: Grant,
  now: number,
  refresh?: { token: string; hash: string },
): Promise<TokenAnswer> {
  const newest = await tx.db
    .selectFrom('oauth_tokens')
    .select((eb) => eb.fn.max<number>('seq').as('seq'))
    .where('device_id', '=', grant.deviceId)
    .where('key_id', '=', grant.keyId)
    .executeTakeFirst();
  let seq = Number(newest?.seq ?? 0);
  const row = (kind: 'access' | 'refresh', hash: string, family: string) => ({
    device_id: grant.deviceId,
    hash,
    kind,
    key_id: grant.keyId,
    client_id: grant.clientId,
    resource: grant.resource,
    family,
    seq: ++seq,
    created_at: now,
  });
  let refreshToken = refresh?.token;
  let family = refresh?.hash;
  if (refreshToken === undefined || family === undefined) {
    const secret = randomHex(32);
    refreshToken = `hrr_${grant.deviceId}_${secret}`;
    family = sha256Hex(secret);
    await tx.db
      .insertInto('oauth_tokens')
      .values(row('refresh', family, family))
      .execute();
    await trim(tx, grant, 'refresh');
  }
  const secret = randomHex(32);
  await tx.db
    .insertInto('oauth_tokens')
    .values(row('access', sha256Hex(secret), family))
    .execute();
  await trim(tx, grant, 'access');
  return {
    access_token: `hra_${grant.deviceId}_${secret}`,
    token_type: 'Bearer',
    expires_in: EXPIRES_IN_SECONDS,
    refresh_token: refreshToken,
    scope: NOTIFY_SCOPE,
  };
}

/** Whether the connector's key is still active (it is revoked when the person ends the connector). */
export async function connectorActive(db: RelayDb, deviceId: string, keyId: string | null): Promise<boolean> {
  if (keyId === null) return false;
  const key = await db
    .selectFrom('agent_keys')
    .select('revoked_at')
    .where('device_id', '=', deviceId)
    .where('id', '=', keyId)
    .where('kind', '=', 'oauth')
    .executeTakeFirst();
  return key !== undefined && key.revoked_at === null;
}

/** RA104: the PKCE S256 challenge of a verifier. */
export const s256 = (verifier: string): string => createHash('sha256').update(verifier).digest('base64url');

export interface CodeExchange {
  code: string | null;
  redirectUri: string | null;
  verifier: string | null;
  resource: string | null;
}

/**
 * RA106 `authorization_code`: an approved code of this client, exchanged within 5 minutes of the approval (once
 * exchanged, it may be again: each exchange issues tokens), with its redirect address and the PKCE verifier.
 */
export async function exchangeCode(relay: Relay, client: OAuthClient, exchange: CodeExchange, origin: string): Promise<TokenAnswer> {
  const parsed = parseOAuthToken(relay, 'hrc', exchange.code);
  if (!parsed) throw invalidGrant('code is missing or is not a code of this relay');
  if (exchange.redirectUri === null) throw invalidGrant('redirect_uri is required: the address sent to /authorize');
  if (exchange.verifier === null || !CODE_VERIFIER.test(exchange.verifier))
    throw invalidGrant('code_verifier must be 43 to 128 of A-Z, a-z, 0-9, -, ., _, ~');
  const now = relay.clock();
  return relay.store.withDeviceLock(parsed.deviceId, async (tx) => {
    const row = await tx.db
      .selectFrom('oauth_requests')
      .selectAll()
      .where('device_id', '=', parsed.deviceId)
      .where('code_hash', '=', sha256Hex(exchange.code!))
      .executeTakeFirst();
    if (!row || row.client_id !== client.id || row.status !== 'approved') throw invalidGrant('unknown code');
    if (row.redeemed_at === null && now >= (row.decided_at ?? 0) + CODE_EXCHANGE_MS)
      throw invalidGrant('the code expired: 5 minutes to exchange it');
    if (row.redirect_uri !== exchange.redirectUri) throw invalidGrant('redirect_uri is not the address sent to /authorize');
    if (row.code_challenge === null || s256(exchange.verifier!) !== row.code_challenge)
      throw invalidGrant('the code_verifier does not match the code_challenge');
    if (!(await connectorActive(tx.db, row.device_id, row.key_id))) throw invalidGrant('the connector was revoked on the computer');
    checkResource(exchange.resource, row.resource, row.origin);
    if (row.redeemed_at === null) {
      await tx.db
        .updateTable('oauth_requests')
        .set({ redeemed_at: now, code: null })
        .where('device_id', '=', row.device_id)
        .where('id', '=', row.id)
        .execute();
    }
    return issueTokens(tx, { deviceId: row.device_id, keyId: row.key_id!, clientId: client.id, resource: row.resource }, now);
  });
}

/** RA106 `refresh_token`: the same refresh token back, and a new access token. */
export async function refresh(
  relay: Relay,
  client: OAuthClient,
  input: { refreshToken: string | null; scope: string | null; resource: string | null },
  origin: string,
): Promise<TokenAnswer> {
  const parsed = parseOAuthToken(relay, 'hrr', input.refreshToken);
  if (!parsed) throw invalidGrant('refresh_token is missing or is not a refresh token of this relay');
  const hash = sha256Hex(parsed.secret);
  const now = relay.clock();
  return relay.store.withDeviceLock(parsed.deviceId, async (tx) => {
    const row = await tx.db
      .selectFrom('oauth_tokens')
      .selectAll()
      .where('device_id', '=', parsed.deviceId)
      .where('hash', '=', hash)
      .where('kind', '=', 'refresh')
      .executeTakeFirst();
    if (!row || row.client_id !== client.id || !(await connectorActive(tx.db, row.device_id, row.key_id)))
      throw invalidGrant('unknown or revoked refresh token');
    checkResource(input.resource, row.resource, origin);
    if (input.scope !== null && input.scope.split(' ').some((scope) => scope !== '' && scope !== NOTIFY_SCOPE)) throw invalidScope();
    const grant = { deviceId: row.device_id, keyId: row.key_id, clientId: client.id, resource: row.resource };
    return issueTokens(tx, grant, now, { token: input.refreshToken!, hash });
  });
}

/**
 * RA107: revokes a token of this client: a refresh token with every access token issued with it, an access token
 * alone. Anything else (unknown, malformed, another client's) is ignored.
 */
export async function revokeToken(relay: Relay, client: OAuthClient, token: string): Promise<void> {
  const parsed = parseOAuthToken(relay, 'hra', token) ?? parseOAuthToken(relay, 'hrr', token);
  if (!parsed) return;
  const hash = sha256Hex(parsed.secret);
  await relay.store.withDeviceLock(parsed.deviceId, async (tx) => {
    const row = await tx.db
      .selectFrom('oauth_tokens')
      .selectAll()
      .where('device_id', '=', parsed.deviceId)
      .where('hash', '=', hash)
      .executeTakeFirst();
    if (!row || row.client_id !== client.id || (row.kind === 'refresh') !== token.startsWith('hrr_')) return;
    const doomed = tx.db.deleteFrom('oauth_tokens').where('device_id', '=', row.device_id);
    await (row.kind === 'refresh' ? doomed.where('family', '=', hash) : doomed.where('hash', '=', hash)).execute();
  });
}
