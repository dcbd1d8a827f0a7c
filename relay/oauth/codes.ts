// The codes of an approval request (docs/relay-api.md#ra1, #ra104, #ra110; docs/relay.md, "What the database keeps
// of codes"): the 6-digit approval code the computer shows, and the authorization code the browser carries back to
// the client. The relay must show or send each again (the approval code to the computer's banner after a reconnect,
// the authorization code to every poll of the consent page), so it makes them again each time from the request's
// random nonce and RELAY_SECRET; the database never holds either (of the authorization code, only its SHA-256, by
// which /token finds the request). Reading the database alone gives neither.

import { APPROVAL_CODE_DIGITS } from '../../protocol/relay/consent.js';
import { randomHex } from '../core/credentials.js';
import type { Relay } from '../core/relay.js';
import type { OAuthRequestRow } from '../store/schema.js';

type Coded = Pick<OAuthRequestRow, 'device_id' | 'id' | 'code_nonce'>;

/** A new nonce: each time a request is begun or taken over, so its codes are new. */
export const newCodeNonce = (): string => randomHex(16);

/** RA110: the request's 6-digit approval code. 48 bits of the HMAC taken modulo 10^6: no bias that matters. */
export function approvalCode(relay: Relay, row: Coded): string {
  const mac = relay.credentials.derive('approval-code', `${row.id}:${row.code_nonce}`);
  return String(parseInt(mac.slice(0, 12), 16) % 10 ** APPROVAL_CODE_DIGITS).padStart(APPROVAL_CODE_DIGITS, '0');
}

/** RA104: the authorization code of an approved browser-flow request: `hrc_<device id>_<64 hex>`. */
export const authorizationCode = (relay: Relay, row: Coded): string =>
  `hrc_${row.device_id}_${relay.credentials.derive('authorization-code', `${row.id}:${row.code_nonce}`)}`;
