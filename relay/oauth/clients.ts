// OAuth clients (docs/relay-api.md#ra101 to #ra103, #ra106): registering one (RFC 7591), finding one — a registered
// `hc_...` id, or an https URL whose client metadata document says who it is — and authenticating one at the
// token, revocation and device-authorization endpoints.

import {
  invalidClient,
  invalidClientMetadata,
  invalidRedirectUri,
  registrationLimited,
  type OAuthError,
} from '../../protocol/relay/oauth-errors.js';
import { NOTIFY_SCOPE } from '../core/auth.js';
import { randomHex, sameSecret, sha256Hex } from '../core/credentials.js';
import type { Relay } from '../core/relay.js';
import { secondsUntil } from '../core/time.js';
import { deleteUpTo } from '../store/queries.js';
import type { OAuthClientRow } from '../store/schema.js';
import {
  AUTH_METHODS,
  cleanClientName,
  deviceOnly,
  GRANT_TYPES,
  readRedirectUris,
  type AuthMethod,
  type OAuthClient,
} from './client-rules.js';
import { MAX_CLIENTS, REGISTER_WINDOW_MS } from './limits.js';
import { documentClient, isDocumentClientId } from './metadata-documents.js';

interface Registration {
  name: string;
  redirectUris: string[];
  authMethod: AuthMethod;
}

/** RA101: the checks of `POST /register`, in order. */
function readRegistration(body: unknown): Registration {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidClientMetadata('the body must be a JSON object');
  const input = body as Record<string, unknown>;
  const redirectUris = readRedirectUris(input.redirect_uris, !deviceOnly(input.grant_types));
  if (!Array.isArray(redirectUris)) throw invalidRedirectUri(redirectUris.problem);
  const authMethod = input.token_endpoint_auth_method ?? 'none';
  if (typeof authMethod !== 'string' || !(AUTH_METHODS as readonly string[]).includes(authMethod))
    throw invalidClientMetadata(`token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}`);
  const grants = input.grant_types ?? ['authorization_code'];
  if (!Array.isArray(grants) || !grants.every((grant) => (GRANT_TYPES as readonly unknown[]).includes(grant)))
    throw invalidClientMetadata(`grant_types may hold only ${GRANT_TYPES.join(', ')}`);
  const responses = input.response_types ?? ['code'];
  if (!Array.isArray(responses) || !responses.every((type) => type === 'code'))
    throw invalidClientMetadata('response_types may hold only code');
  if (input.client_name !== undefined && typeof input.client_name !== 'string') throw invalidClientMetadata('client_name must be a string');
  return { name: cleanClientName(input.client_name), redirectUris, authMethod: authMethod as AuthMethod };
}

export interface RegisteredClient {
  client_id: string;
  client_id_issued_at: number;
  client_name: string;
  redirect_uris: string[];
  token_endpoint_auth_method: AuthMethod;
  grant_types: string[];
  response_types: string[];
  scope: string;
  client_secret?: string;
  client_secret_expires_at?: number;
}

/** RA101: registers a client under the relay-wide lock (the hourly limit holds across nodes); keeps the newest 200. */
export async function registerClient(relay: Relay, body: unknown): Promise<RegisteredClient> {
  const registration = readRegistration(body);
  const id = `hc_${randomHex(16)}`;
  const secret = registration.authMethod === 'none' ? undefined : randomHex(32);
  const now = relay.clock();
  const limited = await relay.store.withRelayLock(async (tx): Promise<OAuthError | undefined> => {
    await deleteUpTo(tx.db, 'oauth_registrations', 'at', now - REGISTER_WINDOW_MS);
    const recent = await tx.db
      .selectFrom('oauth_registrations')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min<number>('at').as('oldest')])
      .executeTakeFirstOrThrow();
    if (Number(recent.n) >= relay.limits.registerPerHour) {
      return registrationLimited(relay.limits.registerPerHour, secondsUntil(Number(recent.oldest) + REGISTER_WINDOW_MS, now));
    }
    await tx.db.insertInto('oauth_registrations').values({ at: now }).execute();
    await tx.db
      .insertInto('oauth_clients')
      .values({
        id,
        name: registration.name,
        redirect_uris: JSON.stringify(registration.redirectUris),
        auth_method: registration.authMethod,
        secret_hash: secret === undefined ? null : sha256Hex(secret),
        created_at: now,
      })
      .execute();
    const kept = tx.db.selectFrom('oauth_clients').select('id').orderBy('created_at', 'desc').orderBy('id', 'desc').limit(MAX_CLIENTS);
    await tx.db.deleteFrom('oauth_clients').where('id', 'not in', kept).execute();
    return undefined;
  });
  if (limited) throw limited;
  return {
    client_id: id,
    client_id_issued_at: Math.floor(now / 1000),
    client_name: registration.name,
    redirect_uris: registration.redirectUris,
    token_endpoint_auth_method: registration.authMethod,
    grant_types: [...GRANT_TYPES],
    response_types: ['code'],
    scope: NOTIFY_SCOPE,
    ...(secret !== undefined && { client_secret: secret, client_secret_expires_at: 0 }),
  };
}

const fromRow = (row: OAuthClientRow): OAuthClient => ({
  id: row.id,
  name: row.name,
  redirectUris: JSON.parse(row.redirect_uris) as string[],
  authMethod: row.auth_method as AuthMethod,
  secretHash: row.secret_hash,
});

const REGISTERED_ID = /^hc_[0-9a-f]{32}$/;

/**
 * RA102, RA103: the client behind a client_id: a registered one, or the one a client metadata document describes
 * (fetched, or kept from an earlier fetch). Undefined when there is none; a document that cannot be used throws
 * ClientDocumentError saying why.
 */
export async function findClient(relay: Relay, clientId: unknown): Promise<OAuthClient | undefined> {
  if (typeof clientId !== 'string') return undefined;
  if (REGISTERED_ID.test(clientId)) {
    const row = await relay.store.db.selectFrom('oauth_clients').selectAll().where('id', '=', clientId).executeTakeFirst();
    return row ? fromRow(row) : undefined;
  }
  if (isDocumentClientId(clientId)) return documentClient(relay, clientId);
  return undefined;
}

/** Who a request to /token, /revoke or /device_authorization says it is (RA106). */
export interface ClientCredentials {
  clientId: string | undefined;
  secret: string | undefined;
  /** The credentials came in a Basic header: a failure challenges for Basic. */
  basic: boolean;
}

/** RA106: a Basic header (the id and secret each form-encoded; it wins over the form), else the form's fields. */
export function readClientCredentials(authorization: string | undefined, form: URLSearchParams): ClientCredentials {
  if (authorization !== undefined && /^basic\s/i.test(authorization.trim())) {
    const decoded = Buffer.from(authorization.trim().slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const formDecode = (text: string): string => decodeURIComponent(text.replace(/\+/g, ' '));
    try {
      if (colon < 1) throw new Error('no id');
      return { clientId: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)), basic: true };
    } catch {
      throw invalidClient('the Basic credentials are malformed: base64 of client_id:client_secret', true);
    }
  }
  return { clientId: form.get('client_id') ?? undefined, secret: form.get('client_secret') ?? undefined, basic: false };
}

/**
 * RA106: the client, authenticated. No client authentication at all (no client_id), an unknown client, or a
 * confidential one without its secret is 401 invalid_client (RFC 6749 section 5.2).
 */
export async function authenticateClient(relay: Relay, credentials: ClientCredentials): Promise<OAuthClient> {
  if (credentials.clientId === undefined || credentials.clientId === '')
    throw invalidClient(
      'client authentication is required: send client_id (and client_secret, or a Basic header, if it has one)',
      credentials.basic,
    );
  let client: OAuthClient | undefined;
  try {
    client = await findClient(relay, credentials.clientId);
  } catch (error) {
    throw invalidClient(`the client metadata document could not be used: ${(error as Error).message}`, credentials.basic);
  }
  if (!client) throw invalidClient('unknown client: register again (POST /register)', credentials.basic);
  if (client.secretHash !== null) {
    const given = credentials.secret === undefined ? '' : sha256Hex(credentials.secret);
    if (!sameSecret(given, client.secretHash)) throw invalidClient('the client secret is missing or wrong', credentials.basic);
  }
  return client;
}
