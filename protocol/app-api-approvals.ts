// Approvals' part of the person-only API (docs/app.md, "Approvals"): what waits for the person's Allow or Deny, what
// they granted or denied from now on, and the connectors asking through the cloud relay — as the daemon answers
// `GET /app/api/approvals` and as the window sends its answers back. History's details and the banners' questions use
// the same shapes. Additive only, as app-api.ts: the front end is built against it.

export const QUESTION_KINDS = ['commands', 'callbackHost', 'templateCode', 'allowCommands'] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

/** What waits for the person's Allow or Deny. */
export interface ApprovalQuestion {
  id: string;
  app: string;
  appName: string;
  kind: QuestionKind;
  /** One line: "Let Backup run commands, scripts and shortcuts?" */
  text: string;
  /** Exactly what would run or be contacted. */
  detail?: {
    command?: string;
    script?: string;
    sha256?: string;
    shortcut?: string;
    input?: string;
    url?: string;
    host?: string;
    template?: string;
    code?: string;
    /** The same detail in one line, as the banner and the tray show it. */
    text?: string;
  };
  /** The notification whose button or follow-up asked. */
  notificationId?: string;
}

export const GRANT_KINDS = ['commands', 'callbackHost', 'templateCode'] as const;
export type GrantKind = (typeof GRANT_KINDS)[number];

/** Something the person allowed; sent back whole to `POST /app/api/approvals/revoke`. */
export interface Grant {
  kind: GrantKind;
  app: string;
  appName: string;
  host?: string;
  template?: string;
  grantedAt?: string;
}

/** A connector asking through the cloud relay to send this person notifications. */
export interface ConnectorRequest {
  id: string;
  clientName: string;
  redirectHost?: string;
  flow: 'code' | 'device';
  userCode?: string;
  /** The 6-digit approval code (shown only to the person). */
  code: string;
  expiresAt: string;
  /** What went wrong with the person's last answer. */
  problem?: string;
}

/**
 * Something the person denied from now on: refused without asking (its app's code does not run, the server is not
 * contacted). Sent back to `POST /app/api/approvals/ask-again` to be asked again next time.
 */
export interface Denial {
  kind: GrantKind;
  app: string;
  appName: string;
  host?: string;
  template?: string;
  deniedAt?: string;
}

export interface ApprovalsAnswer {
  questions: ApprovalQuestion[];
  granted: Grant[];
  denied: Denial[];
  connectors: ConnectorRequest[];
}

/** `POST /app/api/approvals/questions/<id>` */
export interface QuestionAnswerRequest {
  allow: boolean;
}
/**
 * `POST /app/api/approvals/revoke`: a Grant as listed (`appName` and `grantedAt` are ignored). The same body denies it
 * from now on (`POST …/deny`), or forgets a denial (`POST …/ask-again`).
 */
export type RevokeRequest = Pick<Grant, 'kind' | 'app' | 'host' | 'template'>;
/** `POST /app/api/approvals/connectors/<id>` */
export interface ConnectorDecisionRequest {
  approve: boolean;
}
