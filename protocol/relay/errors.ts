// The relay's error catalogue (docs/relay-api.md#ra2). Every refusal of a relay route but the OAuth routes' (whose
// shape OAuth fixes: oauth-errors.ts) is a RelayError: a code, the status that code always has, a message for
// people, and the optional `fields`, `retryAfterSeconds` and `status`. The desktop client reads the same codes,
// so they live in the shared contract.

/** Every error code of the relay's JSON routes, with its HTTP status (docs/relay-api.md#ra2). */
const RELAY_ERROR_STATUS = {
  invalid_request: 400,
  forbidden_fields: 400,
  scope_not_allowed: 400,
  unauthorized: 401,
  device_unpaired: 401,
  wrong_credential: 403,
  scope: 403,
  forbidden: 403,
  device_limit: 403,
  bad_code: 403,
  not_removable: 403,
  not_found: 404,
  not_paired: 404,
  method_not_allowed: 405,
  name_taken: 409,
  already_decided: 409,
  expired: 410,
  too_large: 413,
  unsupported_media_type: 415,
  upgrade_required: 426,
  rate_limited: 429,
  daily_cap: 429,
  queue_full: 429,
  too_many_keys: 429,
  internal: 500,
  misconfigured: 500,
  budget_exhausted: 503,
  unavailable: 503,
} as const;

type RelayErrorCode = keyof typeof RELAY_ERROR_STATUS;

/** The JSON body of every refusal (docs/relay-api.md#ra2). */
interface RelayErrorBody {
  error: RelayErrorCode;
  message: string;
  fields?: string[];
  retryAfterSeconds?: number;
  /** Only on `already_decided`: the decision already taken. */
  status?: string;
}

interface RelayErrorDetails {
  fields?: string[];
  retryAfterSeconds?: number;
  /** Also send a `Retry-After` header (docs/relay-api.md#ra3 lists where); otherwise the time is in the body only. */
  retryAfterHeader?: boolean;
  status?: string;
}

export class RelayError extends Error {
  readonly status: number;

  constructor(
    readonly code: RelayErrorCode,
    message: string,
    readonly details: RelayErrorDetails = {},
  ) {
    super(message);
    this.name = 'RelayError';
    this.status = RELAY_ERROR_STATUS[code];
  }

  body(): RelayErrorBody {
    const { fields, retryAfterSeconds, status } = this.details;
    return {
      error: this.code,
      message: this.message,
      ...(fields !== undefined && { fields }),
      ...(retryAfterSeconds !== undefined && { retryAfterSeconds }),
      ...(status !== undefined && { status }),
    };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Named constructors: code and wording live here, callers say only what is specific.

export const invalidRequest = (message: string, fields?: string[]): RelayError =>
  new RelayError('invalid_request', message, fields ? { fields } : {});

/** A field that breaks its rule: the message names it and says the rule. */
export const invalidField = (field: string, rule: string): RelayError => invalidRequest(`${field}: ${rule}`, [field]);

export const invalidJSON = (): RelayError => invalidRequest('the body is not valid JSON');

export const notAnObject = (): RelayError => invalidRequest('the body must be a JSON object');

/** A path whose % escapes do not decode as UTF-8 (docs/relay-api.md#ra2): refused before any route. */
export const brokenPathEscape = (): RelayError =>
  invalidRequest('the path has a broken % escape: each % must begin %XX, the bytes of UTF-8 text (a % itself is %25)');

/** Keys a route does not take (docs/relay-api.md#ra2): every refused key is in `fields`. */
export const forbiddenFields = (fields: string[], message: string): RelayError => new RelayError('forbidden_fields', message, { fields });

/** Two `Authorization` headers: which one would count is what a smuggled or confused request plays on (RA2). */
export const repeatedAuthorization = (): RelayError =>
  invalidRequest('the Authorization header was sent more than once: send one credential');

export const unauthorized = (message = 'a valid credential is required: Authorization: Bearer <token>'): RelayError =>
  new RelayError('unauthorized', message);

/**
 * An agent key or access token whose computer is no longer paired with the relay (unpaired, removed by another of
 * the person's computers, or dropped after 30 idle days): everything of that computer is gone, its credentials too.
 */
export const deviceUnpaired = (credential: 'key' | 'access token'): RelayError =>
  new RelayError(
    'device_unpaired',
    `the computer this ${credential} belonged to was unpaired from this relay, so the ${credential} no longer works: ` +
      (credential === 'key' ? 'ask for a new key once the computer is paired again' : 'connect again once the computer is paired again'),
  );

export const wrongCredential = (wanted: 'device' | 'agent'): RelayError =>
  new RelayError(
    'wrong_credential',
    wanted === 'device'
      ? 'this route takes the device token (hrd_...), not an agent credential'
      : 'this route takes an agent key (hrk_...) or an access token (hra_...), not the device token',
  );

export const scopeMissing = (): RelayError => new RelayError('scope', 'this credential lacks the scope notify');

export const forbidden = (message: string): RelayError => new RelayError('forbidden', message);

export const notFound = (message = 'no such endpoint'): RelayError => new RelayError('not_found', message);

export const methodNotAllowed = (allowed: string[]): RelayError =>
  new RelayError('method_not_allowed', `use ${allowed.join(' or ')} on this path`);

export const tooLarge = (what: string, maxBytes: number): RelayError =>
  new RelayError('too_large', `${what} is too large (at most ${maxBytes} bytes)`);

export const unsupportedMediaType = (allowed: readonly string[]): RelayError =>
  new RelayError('unsupported_media_type', `Content-Type must be one of: ${allowed.join(', ')}`);

export const upgradeRequired = (): RelayError => new RelayError('upgrade_required', 'this route is a WebSocket: send Upgrade: websocket');

/** A per-key limit: Retry-After header and body (docs/relay-api.md#ra3). */
export const rateLimited = (message: string, retryAfterSeconds: number): RelayError =>
  new RelayError('rate_limited', message, { retryAfterSeconds, retryAfterHeader: true });

/** A relay-wide limit (pairing): the wait is in the body only (docs/relay-api.md#ra3). */
export const pairingLimited = (message: string, retryAfterSeconds: number): RelayError =>
  new RelayError('rate_limited', message, { retryAfterSeconds });

export const dailyCap = (message: string, retryAfterSeconds: number): RelayError =>
  new RelayError('daily_cap', message, { retryAfterSeconds, retryAfterHeader: true });

export const queueFull = (max: number): RelayError =>
  new RelayError('queue_full', `${max} notifications are already waiting for this computer; try again once it has taken some`);

export const budgetExhausted = (retryAfterSeconds: number): RelayError =>
  new RelayError('budget_exhausted', "this computer's daily request budget is used up; it renews at midnight UTC", {
    retryAfterSeconds,
    retryAfterHeader: true,
  });

/** /ready and requests while the relay starts, drains or has lost its database: try again (another node, or later). */
export const unavailable = (message: string, retryAfterSeconds: number): RelayError =>
  new RelayError('unavailable', message, { retryAfterSeconds, retryAfterHeader: true });

export const tooManyKeys = (max: number): RelayError =>
  new RelayError('too_many_keys', `a computer has at most ${max} active agent keys; revoke one first`);

export const nameTaken = (name: string): RelayError => new RelayError('name_taken', `an active key is already named ${name}`);

export const scopeNotAllowed = (): RelayError => new RelayError('scope_not_allowed', 'the only scope is notify', { fields: ['scope'] });

export const deviceLimit = (max: number): RelayError =>
  new RelayError('device_limit', `this relay already has ${max} paired computers (MAX_DEVICES); remove one first`);

export const badCode = (): RelayError => new RelayError('bad_code', 'the pairing code is wrong, used or expired');

export const notRemovable = (): RelayError =>
  new RelayError('not_removable', 'another computer can only be removed when it has the same name, or has not connected for 7 days');

export const expired = (message: string): RelayError => new RelayError('expired', message);

/** A connector request already approved or denied (docs/relay-api.md#ra111): `status` says which. */
export const alreadyDecided = (status: string): RelayError =>
  new RelayError('already_decided', `this connector request was already ${status}`, { status });

export const misconfigured = (message: string): RelayError => new RelayError('misconfigured', message);

export const internal = (): RelayError => new RelayError('internal', 'internal error (details are in the relay log)');
