// The error catalogue of the relay's OAuth routes (docs/relay-api.md#ra100): the JSON body
// `{"error", "error_description"}` of OAuth 2.0 (RFC 6749 section 5.2, RFC 7591, RFC 8628, RFC 8707), with the
// status each use has. The relay's other routes use its own catalogue (protocol/relay/errors.ts); these are apart
// because their shape is the one OAuth clients read.

type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'invalid_scope'
  | 'invalid_target'
  | 'invalid_client_metadata'
  | 'invalid_redirect_uri'
  | 'unsupported_grant_type'
  | 'authorization_pending'
  | 'slow_down'
  | 'access_denied'
  | 'expired_token'
  | 'rate_limited'
  | 'method_not_allowed'
  | 'temporarily_unavailable';

interface OAuthErrorBody {
  error: OAuthErrorCode;
  error_description: string;
  /** Only on the registration limit: when to try again. */
  retryAfterSeconds?: number;
}

export class OAuthError extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    readonly status: number,
    description: string,
    /** Headers the answer carries (WWW-Authenticate, Retry-After). */
    readonly headers: Record<string, string> = {},
    readonly retryAfterSeconds?: number,
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  body(): OAuthErrorBody {
    return {
      error: this.code,
      error_description: this.message,
      ...(this.retryAfterSeconds !== undefined && { retryAfterSeconds: this.retryAfterSeconds }),
    };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Named constructors (RA100 lists where each is used).

export const oauthInvalidRequest = (description: string): OAuthError => new OAuthError('invalid_request', 400, description);

/** RA106: client authentication failed; with `basic` the answer challenges for Basic credentials. */
export const invalidClient = (description: string, basic: boolean): OAuthError =>
  new OAuthError('invalid_client', 401, description, basic ? { 'WWW-Authenticate': 'Basic realm="notifier-relay", charset="UTF-8"' } : {});

export const invalidGrant = (description: string): OAuthError => new OAuthError('invalid_grant', 400, description);

export const invalidScope = (): OAuthError => new OAuthError('invalid_scope', 400, 'the only scope is notify');

export const invalidTarget = (): OAuthError =>
  new OAuthError('invalid_target', 400, "resource must be this relay's MCP address, the one the authorization named");

export const invalidClientMetadata = (description: string): OAuthError => new OAuthError('invalid_client_metadata', 400, description);

export const invalidRedirectUri = (description: string): OAuthError => new OAuthError('invalid_redirect_uri', 400, description);

export const unsupportedGrantType = (grantType: string): OAuthError =>
  new OAuthError(
    'unsupported_grant_type',
    400,
    `unsupported grant_type ${JSON.stringify(grantType)}: use authorization_code, refresh_token or urn:ietf:params:oauth:grant-type:device_code`,
  );

export const authorizationPending = (): OAuthError =>
  new OAuthError('authorization_pending', 400, 'the person has not approved this request on their computer yet');

/** RA108: polled sooner than `interval` (400 on /token), or too many requests begun (429 on /device_authorization). */
export const slowDown = (description: string, status: 400 | 429 = 400, retryAfterSeconds?: number): OAuthError =>
  new OAuthError('slow_down', status, description, retryAfterSeconds === undefined ? {} : { 'Retry-After': String(retryAfterSeconds) });

export const accessDenied = (): OAuthError => new OAuthError('access_denied', 400, 'the person denied this request');

export const expiredToken = (): OAuthError =>
  new OAuthError('expired_token', 400, 'this device code expired or was replaced: start again with /device_authorization');

/** RA101: the relay-wide registration limit: the wait in the body and in Retry-After. */
export const registrationLimited = (perHour: number, retryAfterSeconds: number): OAuthError =>
  new OAuthError(
    'rate_limited',
    429,
    `at most ${perHour} clients register on this relay per hour; try again later`,
    { 'Retry-After': String(retryAfterSeconds) },
    retryAfterSeconds,
  );

export const oauthMethodNotAllowed = (allowed: 'GET' | 'POST'): OAuthError =>
  new OAuthError('method_not_allowed', 405, `${allowed} only`, { Allow: `${allowed}, OPTIONS` });

export const temporarilyUnavailable = (): OAuthError =>
  new OAuthError('temporarily_unavailable', 502, 'the relay could not start the approval; try again');
