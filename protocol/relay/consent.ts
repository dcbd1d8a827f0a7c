// Connector approvals on the device stream (docs/relay-api.md#ra110, #ra111): when an agent asks to connect
// through the relay's OAuth server, the relay sends the computer a `consent` frame; the person approves or
// denies it there (POST /v1/device/consent), and `consent_resolved` tells the computer the request is closed.

/** RA110: the 6 digits of an approval code, shown only on the computer. */
export const APPROVAL_CODE_DIGITS = 6;

/** RA110: the fifth wrong approval code typed on a relay page denies the request. */
export const MAX_WRONG_APPROVAL_CODES = 5;

/** RA110: `code` is the browser flow (`GET /authorize`), `device` the device flow (`/device_authorization`). */
export type ConsentFlow = 'code' | 'device';

export type ConsentStatus = 'pending' | 'approved' | 'denied' | 'superseded' | 'expired';

/** RA111: an approval request as the computer sees it (`GET /v1/device/consents` and the `consent` frame). */
export interface ConsentView {
  /** The request's id: what `POST /v1/device/consent` names. */
  id: string;
  clientId: string;
  clientName: string;
  /** Where the browser returns: the redirect address's host (its scheme for an app's own scheme); '' in the device flow. */
  redirectHost: string;
  scope: string;
  /** The 6-digit approval code: the person may type it on the relay's page instead of pressing Approve. */
  code: string;
  status: ConsentStatus;
  createdAt: string;
  expiresAt: string;
  flow: ConsentFlow;
  /** Device flow: the code the agent shows its person (`XXXX-XXXX`). */
  userCode?: string;
}

/** RA111: a request to show (again, with the same id and new codes, when the same client asks again). */
export interface ConsentFrame extends ConsentView {
  type: 'consent';
  /** Only when re-sent on a new connection for a request an earlier socket was already sent. */
  redelivered?: true;
}

/** RA111: the request is closed; drop its banner. */
export interface ConsentResolvedFrame {
  type: 'consent_resolved';
  id: string;
  status: Exclude<ConsentStatus, 'pending'>;
}
