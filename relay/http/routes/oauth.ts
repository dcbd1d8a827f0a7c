// The OAuth server's API (docs/relay-api.md#ra100 to #ra108): discovery, client registration, the token and
// revocation endpoints and the start of the device flow. Every OAuth route — these and the pages of
// routes/oauth-pages.ts — sends permissive CORS headers and answers OPTIONS with 204; every address in an answer
// is built from the origin the request reached. Refusals are OAuth's JSON `{error, error_description}`
// (protocol/relay/oauth-errors.ts), written by oauthErrors.

import type { NextFunction, Request, Response } from 'express';
import { answerJson } from '../../../common/json-answer.js';
import { RelayError } from '../../../protocol/relay/errors.js';
import {
  invalidClientMetadata,
  invalidScope,
  OAuthError,
  oauthInvalidRequest,
  oauthMethodNotAllowed,
} from '../../../protocol/relay/oauth-errors.js';
import { TOO_LARGE } from '../../../common/bounded-body.js';
import { NOTIFY_SCOPE } from '../../core/auth.js';
import type { Relay } from '../../core/relay.js';
import { JSON_BODY_MAX_BYTES } from '../../limits.js';
import { countGrant } from '../../metrics.js';
import { AUTH_METHODS, GRANT_TYPES } from '../../oauth/client-rules.js';
import { registerClient } from '../../oauth/clients.js';
import { authorizeDevice } from '../../oauth/device-flow.js';
import { grantTokens } from '../../oauth/grants.js';
import { checkResource, revokeToken, scopeAllowed } from '../../oauth/tokens.js';
import { readBody } from '../body.js';
import { requestOrigin } from '../origin.js';
import { REQUEST_ID_HEADER } from '../request-log.js';
import { otherMethods, route, type Call, type RouteGroup } from '../route.js';

const PROTECTED_RESOURCE = ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp'];
const AUTHORIZATION_SERVER = ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'];
const POST_ONLY = ['/register', '/token', '/revoke', '/device_authorization'];
/** RA100: every OAuth route, the pages' included: CORS and OPTIONS. */
export const OAUTH_PATHS = [
  ...PROTECTED_RESOURCE,
  ...AUTHORIZATION_SERVER,
  ...POST_ONLY,
  '/authorize',
  '/authorize/status',
  '/authorize/code',
  '/authorize/deny',
  '/activate',
  '/activate/approve',
  '/activate/deny',
];

/** RA100: discovery documents may be cached 5 minutes. */
const DISCOVERY_CACHE = 'public, max-age=300';

/** RA100: permissive CORS, so a client running in a browser can use the OAuth routes. */
function setCors(res: Response): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Allow-Headers', 'authorization, content-type, mcp-protocol-version');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  // A browser shows a script only the response headers listed here: the id to quote when reporting a problem.
  res.setHeader('Access-Control-Expose-Headers', REQUEST_ID_HEADER);
}

/** An OAuth answer: never cached, as RFC 6749 section 5.1 asks (Pragma for old caches). */
const answerOAuth = (res: Response, status: number, body: unknown): void => answerJson(res, status, body, { Pragma: 'no-cache' });

/** RA100: a refusal of an OAuth route, as OAuth's JSON; a refusal of the body reader keeps its status. */
export function oauthErrors(error: unknown, req: Request, res: Response, next: NextFunction): void {
  if (res.headersSent) return next(error);
  const refusal =
    error instanceof OAuthError
      ? error
      : error instanceof RelayError && error.status < 500
        ? new OAuthError('invalid_request', error.status, error.message)
        : undefined;
  if (!refusal) return next(error);
  if (!req.complete) res.setHeader('Connection', 'close');
  for (const [name, value] of Object.entries(refusal.headers)) res.setHeader(name, value);
  answerOAuth(res, refusal.status, refusal.body());
}

/** RA100 (RFC 9728): the protected resource: the relay's MCP address. */
function protectedResource(origin: string) {
  return {
    resource: `${origin}/mcp`,
    authorization_servers: [origin],
    scopes_supported: [NOTIFY_SCOPE],
    bearer_methods_supported: ['header'],
    resource_name: 'Notifier relay',
  };
}

/** RA100 (RFC 8414): the authorization server. */
function authorizationServer(origin: string) {
  return {
    issuer: origin,
    authorization_endpoint: `${origin}/authorize`,
    token_endpoint: `${origin}/token`,
    registration_endpoint: `${origin}/register`,
    device_authorization_endpoint: `${origin}/device_authorization`,
    revocation_endpoint: `${origin}/revoke`,
    scopes_supported: [NOTIFY_SCOPE],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: [...GRANT_TYPES],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: [...AUTH_METHODS],
    revocation_endpoint_auth_methods_supported: [...AUTH_METHODS],
    service_documentation: `${origin}/`,
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
  };
}

/** RA101: the registration's JSON body (RFC 7591 refusals: invalid_client_metadata). */
async function readRegistration(req: Request): Promise<unknown> {
  const raw = await readBody(req, JSON_BODY_MAX_BYTES);
  if (raw === TOO_LARGE) throw invalidClientMetadata(`the body is larger than ${JSON_BODY_MAX_BYTES} bytes`);
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw invalidClientMetadata('the body is not JSON');
  }
}

export function oauthRoutes(relay: Relay): RouteGroup {
  /** RA100: a discovery document, built for the origin the request reached, cacheable 5 minutes. */
  const discovery =
    (document: (origin: string) => object) =>
    ({ req, res }: Call<'none'>) =>
      answerJson(res, 200, document(requestOrigin(req)), { 'Cache-Control': DISCOVERY_CACHE });

  /** RA100: a browser's preflight. */
  const preflight = ({ res }: Call<'none'>) => {
    res.setHeader('Access-Control-Max-Age', '86400');
    res.status(204).end();
  };

  /** RA101: registration (JSON). */
  const register = async ({ req, res }: Call<'none'>) => answerOAuth(res, 201, await registerClient(relay, await readRegistration(req)));

  /** RA106: the grant the form asks for, counted by its outcome (relay_oauth_grants_total). */
  const token = async ({ req, res, caller: { client, form } }: Call<'client'>) => {
    const tokens = await countGrant(form.get('grant_type'), () => grantTokens(relay, client, form, requestOrigin(req)));
    answerOAuth(res, 200, tokens);
  };

  /** RA107: revocation: 200 whatever the token was, once the client checked out. */
  const revoke = async ({ res, caller: { client, form } }: Call<'client'>) => {
    const token = form.get('token');
    if (token === null || token === '') throw oauthInvalidRequest('token is required');
    await revokeToken(relay, client, token);
    answerOAuth(res, 200, {});
  };

  /** RA108: the device flow begins. */
  const deviceAuthorization = async ({ req, res, caller: { client, form } }: Call<'client'>) => {
    if (!scopeAllowed(form.get('scope'))) throw invalidScope();
    const origin = requestOrigin(req);
    const resource = form.get('resource');
    if (resource !== null) checkResource(resource, null, origin);
    answerOAuth(res, 200, await authorizeDevice(relay, client, { device: form.get('device'), resource }, origin));
  };

  return {
    headers: { paths: OAUTH_PATHS, set: setCors },
    errors: oauthErrors,
    routes: [
      route({ method: 'OPTIONS', path: OAUTH_PATHS, caller: 'none', handle: preflight }),
      route({ method: 'GET', path: PROTECTED_RESOURCE, caller: 'none', handle: discovery(protectedResource) }),
      route({ method: 'GET', path: AUTHORIZATION_SERVER, caller: 'none', handle: discovery(authorizationServer) }),
      otherMethods([...PROTECTED_RESOURCE, ...AUTHORIZATION_SERVER], () => oauthMethodNotAllowed('GET')),
      route({ method: 'POST', path: '/register', caller: 'none', handle: register }),
      route({ method: 'POST', path: '/token', caller: 'client', handle: token }),
      route({ method: 'POST', path: '/revoke', caller: 'client', handle: revoke }),
      route({ method: 'POST', path: '/device_authorization', caller: 'client', handle: deviceAuthorization }),
      otherMethods(POST_ONLY, () => oauthMethodNotAllowed('POST')),
    ],
  };
}
