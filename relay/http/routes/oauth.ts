// The OAuth server's API (docs/relay-api.md#ra100 to #ra108): discovery, client registration, the token and
// revocation endpoints and the start of the device flow. Every OAuth route — these and the pages of
// routes/oauth-pages.ts — sends permissive CORS headers and answers OPTIONS with 204; every address in an answer
// is built from the origin the request reached. Refusals are OAuth's JSON `{error, error_description}`.

import { Router, type NextFunction, type Request, type Response } from 'express';
import { RelayError } from '../../../protocol/relay/errors.js';
import {
  invalidClientMetadata,
  invalidScope,
  OAuthError,
  oauthInvalidRequest,
  oauthMethodNotAllowed,
  unsupportedGrantType,
} from '../../../protocol/relay/oauth-errors.js';
import { NOTIFY_SCOPE } from '../../core/auth.js';
import { TOO_LARGE } from '../../core/notes.js';
import type { Relay } from '../../core/relay.js';
import { JSON_BODY_MAX_BYTES } from '../../limits.js';
import { countGrant } from '../../metrics.js';
import { AUTH_METHODS, DEVICE_GRANT, GRANT_TYPES } from '../../oauth/client-rules.js';
import { authenticateClient, readClientCredentials, registerClient } from '../../oauth/clients.js';
import { authorizeDevice, pollDeviceGrant } from '../../oauth/device-flow.js';
import { checkResource, exchangeCode, refresh, revokeToken, type TokenAnswer } from '../../oauth/tokens.js';
import { readBody } from '../body.js';
import { authorizationOf } from '../auth.js';
import { readForm } from '../form.js';
import { REQUEST_ID_HEADER } from '../request-log.js';
import { requestOrigin } from '../origin.js';

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
function cors(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Allow-Headers', 'authorization, content-type, mcp-protocol-version');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  // A browser shows a script only the response headers listed here: the id to quote when reporting a problem.
  res.setHeader('Access-Control-Expose-Headers', REQUEST_ID_HEADER);
  next();
}

function sendOAuthJSON(res: Response, status: number, body: unknown, cacheControl = 'no-store'): void {
  const text = JSON.stringify(body);
  res.status(status);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', cacheControl);
  if (cacheControl === 'no-store') res.setHeader('Pragma', 'no-cache');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

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
  sendOAuthJSON(res, refusal.status, refusal.body());
}

/** RA104, RA106: a `scope` asks for nothing but notify (absent or empty is notify). */
export const scopeAllowed = (scope: string | null | undefined): boolean =>
  scope === null || scope === undefined || scope.split(' ').every((word) => word === '' || word === NOTIFY_SCOPE);

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

/** RA106: tokens, never cached. */
const sendTokens = (res: Response, tokens: TokenAnswer): void => sendOAuthJSON(res, 200, tokens);

export function oauthRoutes(relay: Relay): Router {
  const router = Router();
  router.all(OAUTH_PATHS, cors);
  router.options(OAUTH_PATHS, (_req, res) => {
    res.setHeader('Access-Control-Max-Age', '86400');
    res.status(204).end();
  });

  // RA100: discovery.
  router.get(PROTECTED_RESOURCE, (req, res) => sendOAuthJSON(res, 200, protectedResource(requestOrigin(req)), DISCOVERY_CACHE));
  router.get(AUTHORIZATION_SERVER, (req, res) => sendOAuthJSON(res, 200, authorizationServer(requestOrigin(req)), DISCOVERY_CACHE));
  router.all([...PROTECTED_RESOURCE, ...AUTHORIZATION_SERVER], () => {
    throw oauthMethodNotAllowed('GET');
  });

  // RA101: registration (JSON).
  router.post('/register', async (req, res) => {
    const raw = await readBody(req, JSON_BODY_MAX_BYTES);
    if (raw === TOO_LARGE) throw invalidClientMetadata(`the body is larger than ${JSON_BODY_MAX_BYTES} bytes`);
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      throw invalidClientMetadata('the body is not JSON');
    }
    sendOAuthJSON(res, 201, await registerClient(relay, body));
  });

  // RA106: the token endpoint: the client first, then the grant.
  router.post('/token', async (req, res) => {
    const form = await readForm(req);
    const client = await authenticateClient(relay, readClientCredentials(authorizationOf(req), form));
    const origin = requestOrigin(req);
    const grant = form.get('grant_type');
    // relay_oauth_grants_total: by grant type and outcome (docs/relay.md, "Metrics").
    await countGrant(grant, async () => {
      if (grant === null || grant === '') throw oauthInvalidRequest('grant_type is required');
      if (grant === 'authorization_code') {
        const exchange = {
          code: form.get('code'),
          redirectUri: form.get('redirect_uri'),
          verifier: form.get('code_verifier'),
          resource: form.get('resource'),
        };
        return sendTokens(res, await exchangeCode(relay, client, exchange, origin));
      }
      if (grant === 'refresh_token') {
        const input = { refreshToken: form.get('refresh_token'), scope: form.get('scope'), resource: form.get('resource') };
        return sendTokens(res, await refresh(relay, client, input, origin));
      }
      if (grant === DEVICE_GRANT) return sendTokens(res, await pollDeviceGrant(relay, client, form.get('device_code')));
      throw unsupportedGrantType(grant);
    });
  });

  // RA107: revocation: 200 whatever the token was, once the client checked out.
  router.post('/revoke', async (req, res) => {
    const form = await readForm(req);
    const client = await authenticateClient(relay, readClientCredentials(authorizationOf(req), form));
    const token = form.get('token');
    if (token === null || token === '') throw oauthInvalidRequest('token is required');
    await revokeToken(relay, client, token);
    sendOAuthJSON(res, 200, {});
  });

  // RA108: the device flow begins.
  router.post('/device_authorization', async (req, res) => {
    const form = await readForm(req);
    const client = await authenticateClient(relay, readClientCredentials(authorizationOf(req), form));
    if (!scopeAllowed(form.get('scope'))) throw invalidScope();
    const origin = requestOrigin(req);
    const resource = form.get('resource');
    if (resource !== null) checkResource(resource, null, origin);
    sendOAuthJSON(res, 200, await authorizeDevice(relay, client, { device: form.get('device'), resource }, origin));
  });

  router.all(POST_ONLY, () => {
    throw oauthMethodNotAllowed('POST');
  });
  router.use(oauthErrors);
  return router;
}
