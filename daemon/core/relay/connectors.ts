// Connector approvals (docs/api/relay-connection.md#rl40 to #rl43): an agent asking through the relay's OAuth server to send
// this person notifications. Each open request is a question in front of the person — a banner that stays, with
// exactly Approve and Deny, and an entry in the tray — and only the person's answer there decides it. No route,
// command or tool approves, and none returns the 6-digit code.

import type { ListedConnector } from '../../../protocol/app-api-relay.js';
import type { ConsentFrame } from '../../../protocol/relay/consent.js';
import { log } from '../../log.js';
import { type PendingConnector, questionFor } from '../../present/connector-question.js';
import type { Presenter } from '../../present/presenter.js';

/** The person's answer to a request, as the relay takes it. */
export type Decision = 'approve' | 'deny';

/** What the relay said to a decision: taken, already closed there (409, 410: nothing left to decide), or failed. */
export type DecisionResult = { taken: true } | { taken: false; closed: boolean; problem: string };

export interface ConnectorHost {
  presenter: Pick<Presenter, 'ask' | 'withdraw'>;
  /** Sends the decision to the relay (POST /v1/device/consent). */
  decide(id: string, decision: Decision): Promise<DecisionResult>;
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
