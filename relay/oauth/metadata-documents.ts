// Client ID Metadata Documents (docs/relay-api.md#ra103): a client whose client_id is an https URL needs no
// registration. The relay fetches the JSON document at that URL (through relay/core/outbound.ts: public hosts
// only, the resolved address checked, no redirects, at most 5 KiB within 5 seconds), checks that it names
// itself, and uses its `redirect_uris` and `client_name`. What it learnt is kept in the database (so every node
// shares it) for the document's max-age, bounded to 5 minutes .. 1 day (1 hour when it says nothing).

import type { Relay } from '../core/relay.js';
import { cleanClientName, deviceOnly, readRedirectUris, type OAuthClient } from './client-rules.js';
import { CLIENT_DOCUMENT_CACHE_MS, CLIENT_DOCUMENT_MAX_BYTES, CLIENT_DOCUMENT_TIMEOUT_MS, MAX_CLIENT_ID_URL_CHARS } from './limits.js';

/** Most documents kept; the oldest fetched go first (the background sweep enforces it). */
export const MAX_KEPT_DOCUMENTS = 1000;

/** A client metadata document that cannot be used, and why. */
export class ClientDocumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClientDocumentError';
  }
}

/** Whether a client_id means a metadata document (an https URL) rather than a registered client. */
export const isDocumentClientId = (clientId: string): boolean => /^https:\/\//i.test(clientId);

/** RA103: the rules of a client id URL: https, a path, no fragment, no credentials, no dot segments, at most 500. */
function urlProblem(clientId: string): string | undefined {
  if (clientId.length > MAX_CLIENT_ID_URL_CHARS) return `a client id URL has at most ${MAX_CLIENT_ID_URL_CHARS} characters`;
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return 'the client id is not a URL';
  }
  if (url.protocol !== 'https:') return 'the client id URL must be https';
  if (url.pathname === '/' || url.pathname === '') return 'the client id URL must have a path';
  if (clientId.includes('#')) return 'the client id URL must not have a fragment';
  if (url.username || url.password) return 'the client id URL must not carry credentials';
  const rawPath = clientId.replace(/^https:\/\/[^/]*/i, '').split('?')[0]!;
  if (rawPath.split('/').some((segment) => segment === '.' || segment === '..')) return 'the client id URL must not have . or .. segments';
  return undefined;
}

/** How long to keep a document: its Cache-Control max-age, bounded; no-store or no-cache: the minimum. */
function keepMs(cacheControl: string | undefined): number {
  const { min, max } = CLIENT_DOCUMENT_CACHE_MS;
  if (cacheControl === undefined) return CLIENT_DOCUMENT_CACHE_MS.default;
  if (/\b(no-store|no-cache)\b/i.test(cacheControl)) return min;
  const maxAge = /\bmax-age=(\d+)/i.exec(cacheControl);
  if (!maxAge) return CLIENT_DOCUMENT_CACHE_MS.default;
  return Math.min(max, Math.max(min, Number(maxAge[1]) * 1000));
}

interface Learnt {
  name: string;
  redirectUris: string[];
  keepMs: number;
}

/** Fetches and checks one document. */
async function fetchDocument(relay: Relay, url: string): Promise<Learnt> {
  let answer;
  try {
    answer = await relay.outbound.request(new URL(url), {
      method: 'GET',
      headers: { Accept: 'application/json' },
      timeoutMs: CLIENT_DOCUMENT_TIMEOUT_MS,
      maxResponseBytes: CLIENT_DOCUMENT_MAX_BYTES + 1, // one byte more tells a document that is too large
    });
  } catch (error) {
    // Refused by the address rules, no answer in time, or no connection: the document cannot be used.
    throw new ClientDocumentError(`${url}: ${(error as Error).message}`);
  }
  if (answer.truncated || answer.body.length > CLIENT_DOCUMENT_MAX_BYTES)
    throw new ClientDocumentError(`${url} is larger than ${CLIENT_DOCUMENT_MAX_BYTES} bytes`);
  if (answer.status >= 300 && answer.status < 400)
    throw new ClientDocumentError(`${url} answered a redirect (${answer.status}), which is not followed`);
  if (answer.status !== 200) throw new ClientDocumentError(`${url} answered ${answer.status}`);
  let document: unknown;
  try {
    document = JSON.parse(answer.body.toString('utf8'));
  } catch {
    throw new ClientDocumentError(`${url} is not JSON`);
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document))
    throw new ClientDocumentError(`${url} is not a JSON object`);
  const fields = document as Record<string, unknown>;
  if (fields.client_id !== url) throw new ClientDocumentError(`the document's client_id is not ${url}`);
  const method = fields.token_endpoint_auth_method;
  if (method !== undefined && method !== 'none')
    throw new ClientDocumentError('a metadata document client is public: token_endpoint_auth_method must be none');
  const redirectUris = readRedirectUris(fields.redirect_uris, !deviceOnly(fields.grant_types));
  if (!Array.isArray(redirectUris)) throw new ClientDocumentError(redirectUris.problem);
  return {
    name: cleanClientName(fields.client_name, new URL(url).host),
    redirectUris,
    keepMs: keepMs(answer.headers['cache-control']),
  };
}

/** Fetches in progress in this process, so concurrent requests for one URL share one fetch. */
const fetching = new Map<string, Promise<Learnt>>();

/** RA103: the client a document describes: from the database while it is fresh, else fetched and kept. */
export async function documentClient(relay: Relay, url: string): Promise<OAuthClient> {
  const problem = urlProblem(url);
  if (problem) throw new ClientDocumentError(problem);
  const now = relay.clock();
  const kept = await relay.store.db
    .selectFrom('oauth_client_documents')
    .selectAll()
    .where('url', '=', url)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (kept)
    return { id: url, name: kept.name, redirectUris: JSON.parse(kept.redirect_uris) as string[], authMethod: 'none', secretHash: null };

  let pending = fetching.get(url);
  if (!pending) {
    pending = fetchDocument(relay, url).finally(() => fetching.delete(url));
    fetching.set(url, pending);
  }
  const learnt = await pending;
  const row = { name: learnt.name, redirect_uris: JSON.stringify(learnt.redirectUris), fetched_at: now, expires_at: now + learnt.keepMs };
  await relay.store.withRelayLock((tx) =>
    tx.db
      .insertInto('oauth_client_documents')
      .values({ url, ...row })
      .onConflict((oc) => oc.column('url').doUpdateSet(row))
      .execute(),
  );
  return { id: url, name: learnt.name, redirectUris: learnt.redirectUris, authMethod: 'none', secretHash: null };
}
