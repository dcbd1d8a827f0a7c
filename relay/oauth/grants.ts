// The token endpoint's grants (docs/relay-api.md#ra106, #ra108): the grant a client's form asks for, and its
// tokens. The route (relay/http/routes/oauth.ts) authenticates the client first and counts each outcome.

import { oauthInvalidRequest, unsupportedGrantType } from '../../protocol/relay/oauth-errors.js';
import type { Relay } from '../core/relay.js';
import { DEVICE_GRANT, type OAuthClient } from './client-rules.js';
import { pollDeviceGrant } from './device-flow.js';
import { exchangeCode, refresh, type TokenAnswer } from './tokens.js';

/** RA106, RA108: `authorization_code`, `refresh_token` or the device code, from the form's fields. */
export async function grantTokens(relay: Relay, client: OAuthClient, form: URLSearchParams, origin: string): Promise<TokenAnswer> {
  const grant = form.get('grant_type');
  if (grant === null || grant === '') throw oauthInvalidRequest('grant_type is required');
  if (grant === 'authorization_code') {
    const exchange = {
      code: form.get('code'),
      redirectUri: form.get('redirect_uri'),
      verifier: form.get('code_verifier'),
      resource: form.get('resource'),
    };
    return exchangeCode(relay, client, exchange, origin);
  }
  if (grant === 'refresh_token') {
    const input = { refreshToken: form.get('refresh_token'), scope: form.get('scope'), resource: form.get('resource') };
    return refresh(relay, client, input, origin);
  }
  if (grant === DEVICE_GRANT) return pollDeviceGrant(relay, client, form.get('device_code'));
  throw unsupportedGrantType(grant);
}
