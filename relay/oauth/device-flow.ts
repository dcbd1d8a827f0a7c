// The device flow (RFC 8628, docs/relay-api.md#ra108): for an agent without a browser. It asks
// `POST /device_authorization`, tells its person the user code, and polls `POST /token` every `interval`
// seconds. The person approves on the computer (a banner shows the user code), or on the relay's `/activate`
// page with the user code AND the 6-digit approval code the computer shows: the agent knows the user code, so
// the user code alone approves nothing.

import {
  accessDenied,
  authorizationPending,
  expiredToken,
  invalidGrant,
  oauthInvalidRequest,
  slowDown,
  temporarilyUnavailable,
} from '../../protocol/relay/oauth-errors.js';
import { sha256Hex } from '../core/credentials.js';
import { isOnline } from '../core/devices.js';
import type { Relay } from '../core/relay.js';
import type { OAuthRequestRow } from '../store/schema.js';
import type { OAuthClient } from './client-rules.js';
import { CODE_EXCHANGE_MS, DEVICE_LIMIT_RETRY_SECONDS, DEVICE_POLL_INTERVAL_SECONDS, REQUEST_TTL_MS } from './limits.js';
import { beginRequest, chooseDevice, formatUserCode, normaliseUserCode, updateRequest } from './requests.js';
import { connectorActive, issueTokens, parseOAuthToken, revokeGrant, type TokenAnswer } from './tokens.js';

export interface DeviceAuthorization {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
  /** Which computer shows the banner, so the agent can tell its person where to look. */
  device_name: string;
  device_count: number;
  device_index: number;
  device_online: boolean;
}

/** RA108 `POST /device_authorization`: begins a device-flow request on the chosen computer. */
export async function authorizeDevice(
  relay: Relay,
  client: OAuthClient,
  input: { device: string | null; resource: string | null },
  origin: string,
): Promise<DeviceAuthorization> {
  const now = relay.clock();
  const choice = await chooseDevice(relay, input.device ?? undefined, now);
  if (choice === 'none') throw oauthInvalidRequest('no computer is paired with this relay: pair Notifier first');
  if (choice === 'out_of_range') throw oauthInvalidRequest('device must be a number from 1 to the number of paired computers');
  let begun;
  try {
    begun = await beginRequest(relay, choice.device.id, { flow: 'device', client, origin, resource: input.resource ?? undefined });
  } catch {
    throw temporarilyUnavailable();
  }
  if ('limited' in begun) {
    const why =
      begun.limited === 'waiting' ? 'approvals are already waiting on this computer' : 'too many approvals were asked for this hour';
    throw slowDown(`${why}; try again later`, 429, DEVICE_LIMIT_RETRY_SECONDS);
  }
  const userCode = formatUserCode(begun.row.user_code!);
  return {
    device_code: begun.deviceCode!,
    user_code: userCode,
    verification_uri: `${origin}/activate`,
    verification_uri_complete: `${origin}/activate?user_code=${userCode}`,
    expires_in: REQUEST_TTL_MS / 1000,
    interval: DEVICE_POLL_INTERVAL_SECONDS,
    device_name: choice.device.name,
    device_count: choice.devices.length,
    device_index: choice.index,
    device_online: isOnline(choice.device, now),
  };
}

type Poll = { tokens: TokenAnswer } | { refusal: 'pending' | 'slow_down' | 'denied' | 'expired' | 'revoked' | 'used' };

/**
 * RA108 the device grant: waiting (`authorization_pending`, or `slow_down` when polled sooner than the interval,
 * which then grows by 5 seconds for good), denied (`access_denied`), expired or replaced (`expired_token`), or
 * approved: tokens, once, within 5 minutes of the approval. Like an authorization code, a device code polled again
 * after it gave tokens is refused, and the tokens it gave are revoked (RA106).
 */
export async function pollDeviceGrant(relay: Relay, client: OAuthClient, deviceCode: string | null): Promise<TokenAnswer> {
  const parsed = parseOAuthToken(relay, 'hrv', deviceCode);
  if (!parsed) throw invalidGrant('device_code is missing or is not a device code of this relay');
  const now = relay.clock();
  const poll = await relay.store.withDeviceLock(parsed.deviceId, async (tx): Promise<Poll> => {
    const row = await tx.db
      .selectFrom('oauth_requests')
      .selectAll()
      .where('device_id', '=', parsed.deviceId)
      .where('device_code_hash', '=', sha256Hex(deviceCode!))
      .executeTakeFirst();
    if (!row) return { refusal: 'expired' };
    if (row.client_id !== client.id) throw invalidGrant('this device code belongs to another client');
    const update = (fields: Partial<OAuthRequestRow>) => updateRequest(tx.db, row.device_id, row.id, fields);
    if (row.status === 'pending' && row.expires_at > now) {
      const tooSoon = now - (row.last_poll_at ?? 0) < row.interval_seconds * 1000;
      await update({ last_poll_at: now, ...(tooSoon && { interval_seconds: row.interval_seconds + DEVICE_POLL_INTERVAL_SECONDS }) });
      return { refusal: tooSoon ? 'slow_down' : 'pending' };
    }
    if (row.status === 'denied') return { refusal: 'denied' };
    if (row.status !== 'approved') return { refusal: 'expired' };
    if (row.redeemed_at !== null) {
      await revokeGrant(tx, row.device_id, row.id);
      return { refusal: 'used' };
    }
    if (now >= (row.decided_at ?? 0) + CODE_EXCHANGE_MS) return { refusal: 'expired' };
    if (!(await connectorActive(tx.db, row.device_id, row.key_id))) return { refusal: 'revoked' };
    await update({ redeemed_at: now });
    const grant = { deviceId: row.device_id, keyId: row.key_id!, clientId: client.id, resource: row.resource, family: row.id };
    return { tokens: await issueTokens(tx, grant, now) };
  });
  if ('tokens' in poll) return poll.tokens;
  switch (poll.refusal) {
    case 'pending':
      throw authorizationPending();
    case 'slow_down':
      throw slowDown('polled sooner than the interval: wait 5 seconds more between polls from now on');
    case 'denied':
      throw accessDenied();
    case 'revoked':
      throw invalidGrant('the connector was revoked on the computer');
    case 'used':
      throw invalidGrant('this device code gave its tokens already: polled again, it revokes them; start again with /device_authorization');
    default:
      throw expiredToken();
  }
}

/** RA113: the waiting device-flow request a user code names (on any computer), or undefined. */
export async function findByUserCode(relay: Relay, text: string): Promise<OAuthRequestRow | undefined> {
  const code = normaliseUserCode(text);
  if (code.length === 0) return undefined;
  return relay.store.db
    .selectFrom('oauth_requests')
    .selectAll()
    .where('user_code', '=', code)
    .where('status', '=', 'pending')
    .where('flow', '=', 'device')
    .where('expires_at', '>', relay.clock())
    .executeTakeFirst();
}
