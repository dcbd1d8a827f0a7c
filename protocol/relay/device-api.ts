// What the computer's own routes speak (docs/relay-api.md#ra22, #ra205, #ra211), shared by the relay that answers
// them and the desktop that calls them: the ids they take in paths, and the views they answer.

/** RA22: an agent key's id (in `hrk_...` keys and in `/v1/device/keys/{id}`). */
export const KEY_ID_PATTERN = /^[0-9a-f]{8}$/;

/** RA205: a webhook subscription's id (in `/v1/device/events/subscriptions/{id}`). */
export const SUBSCRIPTION_ID_PATTERN = /^sub_[0-9a-f]{20}$/;

/** RA22: an agent key (a connector is one of kind `oauth`) as `GET /v1/device/keys` lists it. */
export interface AgentKeyView {
  id: string;
  name: string;
  client: string;
  scope: string;
  /** `static`: a key made on the computer; `oauth`: a connector the person approved. */
  kind: string;
  displayName?: string;
  createdAt: string;
  lastUsedAt?: string;
  revokedAt?: string;
}

/** RA211: a webhook subscription as `GET /v1/device/events` lists it. */
export interface SubscriptionView {
  id: string;
  event: string;
  /** The callback's host only: never its path or secret. */
  host: string;
  key: { id: string; name: string; displayName?: string };
  createdAt: string;
  /** Events waiting to be delivered. */
  pending: number;
}
