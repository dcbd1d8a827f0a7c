// Tokens (docs/relay-api.md#ra106, #ra107): an approved request traded for an access token and a refresh token,
// a refresh, and revocation. Tokens never expire. Each exchange of a code (or device code) begins a grant, the
// family of every token issued from it; a code works once, and a second exchange revokes the grant (RFC 6749
// section 4.1.2). A refresh rotates the refresh token, and presenting a replaced one again revokes the grant too
// (reuse detection, RFC 9700 section 4.14). Every token belongs to a connector (an agent key of kind `oauth`) and
// ends with it. Like every credential they name their computer (`hra_<device id>_...`), so each request is one
// locked transaction of that computer: two presentations of one code or refresh token, on any nodes, run one
// after the other, and the second sees what the first did.

import { createHash } from 'node:crypto';
import { invalidGrant, invalidScope, invalidTarget, type OAuthError } from '../../protocol/relay/oauth-errors.js';
import { NOTIFY_SCOPE } from '../core/auth.js';
import { randomHex, sha256Hex } from '../core/credentials.js';
import { findDevice } from '../core/devices.js';
import { refusable, type Relay } from '../core/relay.js';
import type { DeviceTx, RelayDb } from '../store/backend.js';
import { prepared } from '../store/prepared.js';
import type { OAuthClient } from './client-rules.js';
import { CODE_EXCHANGE_MS, CODE_VERIFIER, EXPIRES_IN_SECONDS, MAX_TOKENS_PER_CONNECTOR } from './limits.js';
import { updateRequest } from './requests.js';

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
  /** The grant's own id, its tokens' family: the id of the request whose code was exchanged. */
  family: string;
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

/** RA104, RA106: a `scope` asks for nothing but notify (absent or empty is notify). */
export const scopeAllowed = (scope: string | null | undefined): boolean =>
  scope === null || scope === undefined || scope.split(' ').every((word) => word === '' || word === NOTIFY_SCOPE);

/** RA106: a `resource` sent to /token must be the one the grant named, else this relay's MCP address. */
export function checkResource(given: string | null, granted: string | null, origin: string): void {
  if (given === null) return;
  const strip = (uri: string): string => uri.replace(/\/+$/, '');
  if (strip(given) !== strip(granted ?? `${origin}/mcp`)) throw invalidTarget();
}

// The queries of a refresh, built and compiled once (relay/store/prepared.ts): a refresh is eight of them, and
// Kysely building each anew would cost more than SQLite running it (docs/performance.md, "bench:relay-oauth").

const selectToken = prepared((db: RelayDb, deviceId: string, hash: string) =>
  db.selectFrom('oauth_tokens').selectAll().where('device_id', '=', deviceId).where('hash', '=', hash),
);

const selectConnector = prepared((db: RelayDb, deviceId: string, keyId: string) =>
  db.selectFrom('agent_keys').select('revoked_at').where('device_id', '=', deviceId).where('id', '=', keyId).where('kind', '=', 'oauth'),
);

const newestSeq = prepared((db: RelayDb, deviceId: string, keyId: string) =>
  db
    .selectFrom('oauth_tokens')
    .select((eb) => eb.fn.max<number>('seq').as('seq'))
    .where('device_id', '=', deviceId)
    .where('key_id', '=', keyId),
);

const insertToken = prepared(
  (
    db: RelayDb,
    device_id: string,
    hash: string,
    kind: 'access' | 'refresh',
    key_id: string,
    client_id: string,
    resource: string | null,
    family: string,
    seq: number,
    created_at: number,
  ) => db.insertInto('oauth_tokens').values({ device_id, hash, kind, key_id, client_id, resource, family, seq, created_at }),
);

const markRotated = prepared((db: RelayDb, deviceId: string, hash: string) =>
  db.updateTable('oauth_tokens').set({ kind: 'rotated' }).where('device_id', '=', deviceId).where('hash', '=', hash),
);

/** Keeps the newest 50 tokens of a kind (access tokens, replaced refresh tokens) per connector. */
const trimKind = prepared((db: RelayDb, deviceId: string, keyId: string, kind: 'access' | 'rotated') =>
  db
    .deleteFrom('oauth_tokens')
    .where('device_id', '=', deviceId)
    .where('key_id', '=', keyId)
    .where('kind', '=', kind)
    .where(
      'hash',
      'not in',
      db
        .selectFrom('oauth_tokens')
        .select('hash')
        .where('device_id', '=', deviceId)
        .where('key_id', '=', keyId)
        .where('kind', '=', kind)
        .orderBy('seq', 'desc')
        .limit(MAX_TOKENS_PER_CONNECTOR),
    ),
);

const trim = (tx: DeviceTx, grant: Grant, kind: 'access' | 'rotated'): Promise<number> =>
  trimKind.run(tx.db, grant.deviceId, grant.keyId, kind);

/**
 * RA106: a new refresh token and a new access token of the grant; the connector's newest 50 access tokens are kept.
 * Refresh tokens in force need no such bound: a connector has one grant (an approval makes a new connector, and its
 * code works once), and a grant one refresh token in force.
 */
export async function issueTokens(tx: DeviceTx, grant: Grant, now: number): Promise<TokenAnswer> {
  const newest = await newestSeq.first(tx.db, grant.deviceId, grant.keyId);
  let seq = Number(newest?.seq ?? 0);
  const issue = async (kind: 'access' | 'refresh'): Promise<string> => {
    const secret = randomHex(32);
    const { deviceId, keyId, clientId, resource, family } = grant;
    await insertToken.run(tx.db, deviceId, sha256Hex(secret), kind, keyId, clientId, resource, family, ++seq, now);
    return `${kind === 'access' ? 'hra' : 'hrr'}_${grant.deviceId}_${secret}`;
  };
  const refreshToken = await issue('refresh');
  const accessToken = await issue('access');
  await trim(tx, grant, 'access');
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: EXPIRES_IN_SECONDS,
    refresh_token: refreshToken,
    scope: NOTIFY_SCOPE,
  };
}

/** Ends a grant: every token of its family, whatever its kind. */
export async function revokeGrant(tx: DeviceTx, deviceId: string, family: string): Promise<void> {
  await tx.db.deleteFrom('oauth_tokens').where('device_id', '=', deviceId).where('family', '=', family).execute();
}

/** Whether the connector's key is still active (it is revoked when the person ends the connector). */
export async function connectorActive(db: RelayDb, deviceId: string, keyId: string | null): Promise<boolean> {
  if (keyId === null) return false;
  const key = await selectConnector.first(db, deviceId, keyId);
  return key !== undefined && key.revoked_at === null;
}

/**
 * A refusal for a code or token that matches nothing: when its computer is gone (unpairing deletes everything of
 * it), it says so; otherwise `unknown`.
 */
async function unknownGrant(db: RelayDb, deviceId: string, what: string, unknown: string): Promise<OAuthError> {
  return (await findDevice(db, deviceId))
    ? invalidGrant(unknown)
    : invalidGrant(`the computer this ${what} belonged to was unpaired from this relay: connect again once it is paired again`);
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
 * RA106 `authorization_code`: an approved code of this client, with its redirect address and the PKCE verifier,
 * exchanged once, within 5 minutes of the approval. A second exchange — whenever, also after the tokens were
 * revoked — is refused and revokes what the first issued: the code may have been stolen. Only a presentation that
 * passes the checks does that, so a code seen without its verifier cannot end someone's grant.
 */
export async function exchangeCode(relay: Relay, client: OAuthClient, exchange: CodeExchange, origin: string): Promise<TokenAnswer> {
  const parsed = parseOAuthToken(relay, 'hrc', exchange.code);
  if (!parsed) throw invalidGrant('code is missing or is not a code of this relay');
  if (exchange.redirectUri === null) throw invalidGrant('redirect_uri is required: the address sent to /authorize');
  if (exchange.verifier === null || !CODE_VERIFIER.test(exchange.verifier))
    throw invalidGrant('code_verifier must be 43 to 128 of A-Z, a-z, 0-9, -, ., _, ~');
  const now = relay.clock();
  return refusable(relay, parsed.deviceId, async (tx) => {
    const row = await tx.db
      .selectFrom('oauth_requests')
      .selectAll()
      .where('device_id', '=', parsed.deviceId)
      .where('code_hash', '=', sha256Hex(exchange.code!))
      .executeTakeFirst();
    if (!row || row.client_id !== client.id || row.status !== 'approved')
      throw await unknownGrant(tx.db, parsed.deviceId, 'code', 'unknown code');
    if (row.redirect_uri !== exchange.redirectUri) throw invalidGrant('redirect_uri is not the address sent to /authorize');
    if (row.code_challenge === null || s256(exchange.verifier!) !== row.code_challenge)
      throw invalidGrant('the code_verifier does not match the code_challenge');
    if (row.redeemed_at !== null) {
      await revokeGrant(tx, row.device_id, row.id); // committed: refusable throws after the commit
      throw invalidGrant('this code was used already: the tokens issued with it are revoked; start the authorization again');
    }
    if (now >= (row.decided_at ?? 0) + CODE_EXCHANGE_MS) throw invalidGrant('the code expired: 5 minutes to exchange it');
    if (!(await connectorActive(tx.db, row.device_id, row.key_id))) throw invalidGrant('the connector was revoked on the computer');
    checkResource(exchange.resource, row.resource, row.origin);
    await updateRequest(tx.db, row.device_id, row.id, { redeemed_at: now });
    return issueTokens(
      tx,
      { deviceId: row.device_id, keyId: row.key_id!, clientId: client.id, resource: row.resource, family: row.id },
      now,
    );
  });
}

/**
 * RA106 `refresh_token`: a new refresh token in place of the one given (which is kept, marked `rotated`), and a new
 * access token; the earlier access tokens stay valid. A replaced refresh token presented again means two parties
 * hold the grant: it is revoked, every token of it. Presented by another client, a refresh token is refused and
 * changes nothing.
 */
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
  return refusable(relay, parsed.deviceId, async (tx) => {
    const row = await selectToken.first(tx.db, parsed.deviceId, hash);
    if (!row || row.kind === 'access' || row.client_id !== client.id)
      throw await unknownGrant(tx.db, parsed.deviceId, 'refresh token', 'unknown or revoked refresh token');
    if (row.kind === 'rotated') {
      await revokeGrant(tx, row.device_id, row.family); // committed: refusable throws after the commit
      throw invalidGrant(
        'this refresh token was replaced by a newer one already (each refresh returns a new one): presented again, it revokes the grant, every token of it; start the authorization again',
      );
    }
    if (!(await connectorActive(tx.db, row.device_id, row.key_id))) throw invalidGrant('unknown or revoked refresh token');
    checkResource(input.resource, row.resource, origin);
    if (input.scope !== null && input.scope.split(' ').some((scope) => scope !== '' && scope !== NOTIFY_SCOPE)) throw invalidScope();
    const grant = { deviceId: row.device_id, keyId: row.key_id, clientId: client.id, resource: row.resource, family: row.family };
    await markRotated.run(tx.db, row.device_id, hash);
    await trim(tx, grant, 'rotated');
    return issueTokens(tx, grant, now);
  });
}

/**
 * RA107: revokes a token of this client: a refresh token (in force or replaced) with its whole grant, an access
 * token alone. Anything else (unknown, malformed, another client's) is ignored.
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
    const refreshKind = row?.kind === 'refresh' || row?.kind === 'rotated';
    if (!row || row.client_id !== client.id || refreshKind !== token.startsWith('hrr_')) return;
    if (refreshKind) await revokeGrant(tx, row.device_id, row.family);
    else await tx.db.deleteFrom('oauth_tokens').where('device_id', '=', row.device_id).where('hash', '=', hash).execute();
  });
}
