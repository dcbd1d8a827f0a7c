// What makes an OAuth client (docs/relay-api.md#ra101, #ra103), whether it registered or describes itself in a
// client metadata document: its name, its redirect addresses, how it authenticates.

import { DEFAULT_CLIENT_NAME, MAX_CLIENT_NAME_CHARS, MAX_REDIRECT_URI_CHARS, MAX_REDIRECT_URIS } from './limits.js';

export const AUTH_METHODS = ['none', 'client_secret_post', 'client_secret_basic'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];
export const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
/** RA101: every client may use every grant; the registration answer always lists all three. */
export const GRANT_TYPES = ['authorization_code', 'refresh_token', DEVICE_GRANT] as const;

export interface OAuthClient {
  id: string;
  name: string;
  redirectUris: string[];
  authMethod: AuthMethod;
  /** SHA-256 of the secret of a confidential client; null for a public one. */
  secretHash: string | null;
}

/** RA101: control characters, `<` and `>` removed, trimmed, at most 60 characters; `An app` when nothing is left. */
export function cleanClientName(value: unknown, fallback = DEFAULT_CLIENT_NAME): string {
  if (typeof value !== 'string') return fallback;
  // eslint-disable-next-line no-control-regex
  const name = value
    .replace(/[\u0000-\u001f\u007f-\u009f<>]/g, '')
    .trim()
    .slice(0, MAX_CLIENT_NAME_CHARS)
    .trim();
  return name === '' ? fallback : name;
}

/** Schemes that are never an app's own (a browser would run or read them rather than hand them to an app). */
const NOT_APP_SCHEMES = new Set(['javascript', 'data', 'vbscript', 'file', 'blob', 'about', 'filesystem', 'ws', 'wss', 'ftp']);
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * RA101: why a redirect address is not allowed, or undefined: it is https, or http on a loopback host, or an
 * app's own (private-use) scheme; no fragment, no credentials, at most 500 characters.
 */
export function redirectProblem(uri: unknown): string | undefined {
  if (typeof uri !== 'string' || uri === '') return 'a redirect address must be a non-empty string';
  if (uri.length > MAX_REDIRECT_URI_CHARS) return `a redirect address has at most ${MAX_REDIRECT_URI_CHARS} characters`;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${uri} is not an absolute URL`;
  }
  if (url.hash !== '' || uri.includes('#')) return `${uri} has a fragment`;
  if (url.username !== '' || url.password !== '') return `${uri} carries credentials`;
  // Redirects are matched exactly, never as patterns (RFC 9700 §2.1): a host that looks like one is refused.
  if (url.hostname.includes('*')) return `${uri}: a redirect address is matched exactly, so its host may not hold *`;
  const scheme = url.protocol.slice(0, -1);
  if (scheme === 'https') return url.hostname === '' ? `${uri} has no host` : undefined;
  if (scheme === 'http')
    return LOOPBACK_HOSTS.has(url.hostname) ? undefined : `${uri}: http is allowed only on localhost, 127.0.0.1 or [::1]`;
  if (NOT_APP_SCHEMES.has(scheme)) return `${uri}: the scheme ${scheme} is not allowed`;
  return undefined;
}

/**
 * A loopback IP redirect address split at its port: `http://127.0.0.1:9/cb` → `127.0.0.1` and `/cb`. Only the
 * IP literals, not the name `localhost` (RFC 8252 §8.3: a name may resolve elsewhere); undefined for any other.
 */
const LOOPBACK_IP_REDIRECT = /^http:\/\/(127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?(?=[/?]|$)(.*)$/;
function loopbackParts(uri: string): { host: string; rest: string } | undefined {
  const match = LOOPBACK_IP_REDIRECT.exec(uri);
  if (!match) return undefined;
  const port = match[2] === undefined ? 80 : Number(match[2]);
  return port >= 1 && port <= 65535 ? { host: match[1]!, rest: match[3]! } : undefined;
}

/**
 * RA104: whether `/authorize` may send the browser back to `uri`. A registered address matches only itself, but
 * for one on a loopback IP (`http://127.0.0.1`, `http://[::1]`) any port given at the request is allowed, the rest
 * still matched exactly (RFC 8252 §7.3, OAuth 2.1 §8.4.2): a native app registers once and listens on a new port
 * each time. The token exchange then asks for the very address sent to /authorize, port included.
 */
export function redirectAllowed(registered: readonly string[], uri: string): boolean {
  if (registered.includes(uri)) return true;
  const asked = loopbackParts(uri);
  if (!asked) return false;
  return registered.some((each) => {
    const known = loopbackParts(each);
    return known !== undefined && known.host === asked.host && known.rest === asked.rest;
  });
}

/** RA104: what the consent page and the banner name as the place the browser returns to. */
export function redirectHost(uri: string | null): string {
  if (uri === null) return '';
  const url = new URL(uri);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.host : url.protocol.slice(0, -1);
}

/** A list of the allowed redirect addresses, or the reason it is not one (shared with metadata documents). */
export function readRedirectUris(value: unknown, required: boolean): string[] | { problem: string } {
  if (value === undefined || (Array.isArray(value) && value.length === 0)) {
    return required ? { problem: 'redirect_uris is required: 1 to 10 addresses' } : [];
  }
  if (!Array.isArray(value)) return { problem: 'redirect_uris must be an array of addresses' };
  if (value.length > MAX_REDIRECT_URIS) return { problem: `at most ${MAX_REDIRECT_URIS} redirect_uris` };
  for (const uri of value) {
    const problem = redirectProblem(uri);
    if (problem) return { problem };
  }
  return value as string[];
}

/** RA101: a client that names the device grant and nothing but `refresh_token` besides needs no redirect address. */
export function deviceOnly(grantTypes: unknown): boolean {
  return (
    Array.isArray(grantTypes) &&
    grantTypes.includes(DEVICE_GRANT) &&
    grantTypes.every((grant) => grant === DEVICE_GRANT || grant === 'refresh_token')
  );
}
