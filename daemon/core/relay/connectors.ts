// Connector approvals (docs/api/relay-connection.md#rl40 to #rl43): an agent asking through the relay's OAuth server to send
// this person notifications. Each open request is a question in front of the person — a banner that stays, with
// exactly Approve and Deny, and an entry in the tray — and only the person's answer there decides it. No route,
// command or tool approves, and none returns the 6-digit code.

import { OWN_APP } from '../../../protocol/app-api.js'; // the questions are asked in Notifier's name, never the agent's
import type { ConsentFrame } from '../../../protocol/relay/consent.js';
import { log } from '../../log.js';
import type { Presenter, Question } from '../../present/presenter.js';

/** The person's answer to a request, as the relay takes it. */
export type Decision = 'approve' | 'deny';

/** What the relay said to a decision: taken, already closed there (409, 410: nothing left to decide), or failed. */
export type DecisionResult = { taken: true } | { taken: false; closed: boolean; problem: string };

/** A request as the tray shows it (over the private channel): with the 6-digit code. */
export interface PendingConnector {
  id: string;
  clientName: string;
  redirectHost: string;
  flow: 'code' | 'device';
  userCode?: string;
  code: string;
  expiresAt: string;
  /** What went wrong with the person's last answer, until they answer again. */
  problem?: string;
}

/** A request as `GET /v1/relay/connectors` lists it: never the code (RL43). */
export type ListedConnector = Omit<PendingConnector, 'code' | 'problem'>;

export interface ConnectorHost {
  presenter: Pick<Presenter, 'ask' | 'withdraw'>;
  /** Sends the decision to the relay (POST /v1/device/consent). */
  decide(id: string, decision: Decision): Promise<DecisionResult>;
}

/** RL41: the banner's two buttons, and nothing else. */
export const CONSENT_ANSWERS = { allow: 'Approve', deny: 'Deny' } as const;

/** The 6 digits as the person reads them: `123 456`. */
export const spacedCode = (code: string): string => `${code.slice(0, 3)} ${code.slice(3)}`;

/** RL41: where the browser goes once the person answered (browser flow), or the agent's own code (device flow). */
export function whereFrom(request: PendingConnector): string {
  return request.flow === 'device'
    ? `An agent without a browser asks; check that it shows the code ${request.userCode}.`
    : `Your browser then returns to ${request.redirectHost || 'its own site'}.`;
}

/** RL41: the 6-digit code, for a person who would rather type it on the relay's page than press Approve here. */
export function codeHint(request: PendingConnector): string {
  const page = request.flow === 'device' ? "the relay's activation page" : 'the page in your browser';
  return `Or type ${spacedCode(request.code)} on ${page}.`;
}

/** RL41: what the banner asks, and its detail: the return host, that nothing else is granted, and the code. */
export function questionFor(request: PendingConnector): Question {
  const granted = 'Nothing else is granted: it can only send you notifications and read your replies to them.';
  const text =
    request.flow === 'device'
      ? `Approve ${request.clientName} to send you notifications? Code ${request.userCode}`
      : `Let ${request.clientName} send you notifications?`;
  const problem = request.problem ? `⚠ ${request.problem}` : '';
  return {
    id: request.id,
    app: OWN_APP,
    kind: 'connector',
    text,
    detail: [problem, whereFrom(request), granted, codeHint(request)].filter(Boolean).join('\n'),
    private: true,
    answers: CONSENT_ANSWERS,
  };
}

/**
 * The open requests of this computer, from `consent` frames and the relay's list. A new request, or the same one
 * with new codes (the client asked again), is put in front of the person; an identical one changes nothing. A
 * request ends when the person's answer is taken, when the relay says it is resolved, or when it expires.
 */
export class ConnectorApprovals {
  private readonly pending = new Map<string, { request: PendingConnector; timer: NodeJS.Timeout }>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly host: ConnectorHost) {}

  /** RL40: a `consent` frame. */
  received(frame: ConsentFrame): void {
    if (frame.status !== 'pending') return this.resolved(frame.id);
    const expiresIn = Date.parse(frame.expiresAt) - Date.now();
    if (expiresIn <= 0) return this.resolved(frame.id);
    const known = this.pending.get(frame.id);
    if (known && known.request.code === frame.code && known.request.userCode === frame.userCode) return;
    if (known) clearTimeout(known.timer);
    const request: PendingConnector = {
      id: frame.id,
      clientName: frame.clientName,
      redirectHost: frame.redirectHost,
      flow: frame.flow,
      ...(frame.userCode ? { userCode: frame.userCode } : {}),
      code: frame.code,
      expiresAt: frame.expiresAt,
    };
    const timer = setTimeout(() => this.resolved(frame.id), Math.min(expiresIn, 2 ** 31 - 1)).unref();
    this.pending.set(frame.id, { request, timer });
    this.host.presenter.ask(questionFor(request)); // asked again: the new codes replace the banner in place
    this.changed();
  }

  /** RL40: `consent_resolved`, an expiry, or the relay no longer listing it: the banner goes. */
  resolved(id: string): void {
    const known = this.pending.get(id);
    if (!known) return;
    clearTimeout(known.timer);
    this.pending.delete(id);
    this.host.presenter.withdraw(id);
    this.changed();
  }

  /** The relay's list (GET /v1/device/consents), read silently: pending ones are taken in, the rest dropped. */
  sync(consents: ConsentFrame[]): void {
    const open = new Set(consents.filter((consent) => consent.status === 'pending').map((consent) => consent.id));
    for (const id of [...this.pending.keys()]) if (!open.has(id)) this.resolved(id);
    for (const consent of consents) this.received(consent);
  }

  isAsking(id: string): boolean {
    return this.pending.has(id);
  }

  /**
   * RL42: the person's answer (the banner's Approve or Deny, or the tray's). Taken by the relay, or closed there
   * already (409, 410): the request goes. Otherwise it stays, and its banner comes back saying what went wrong.
   * False when there is no such request.
   */
  async answer(id: string, approve: boolean): Promise<boolean> {
    const known = this.pending.get(id);
    if (!known) return false;
    const result = await this.host.decide(id, approve ? 'approve' : 'deny');
    if (result.taken || result.closed) {
      this.resolved(id);
      return true;
    }
    log.warn(`relay: the answer to connector request ${id} was not taken: ${result.problem}`);
    const still = this.pending.get(id);
    if (still) {
      still.request.problem = `Your answer did not reach the relay (${result.problem}). Answer again.`;
      this.host.presenter.ask(questionFor(still.request));
      this.changed();
    }
    return true;
  }

  /** For the tray (the person's own channel): with the codes. */
  forPerson(): PendingConnector[] {
    return [...this.pending.values()].map(({ request }) => ({ ...request }));
  }

  /** For the API (RL43): the same without the 6-digit code. */
  listed(): ListedConnector[] {
    return this.forPerson().map(({ code: _code, problem: _problem, ...rest }) => rest);
  }

  /** Calls back whenever the open requests change; returns a function that stops. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Unpaired, or stopping: every banner goes. */
  clear(): void {
    for (const id of [...this.pending.keys()]) this.resolved(id);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
