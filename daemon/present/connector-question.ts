// How a connector request is put to the person (docs/api/relay-connection.md#rl41): the banner's question and the
// tray's entries say the same words, so both take them from here.

import { OWN_APP } from '../../protocol/app-api.js'; // the questions are asked in Notifier's name, never the agent's
import type { ConnectorRequest } from '../../protocol/app-api-approvals.js';
import type { Question } from './presenter.js';

/** A request as the banner and the tray show it (the tray over the private channel): with the 6-digit code. */
export type PendingConnector = ConnectorRequest;

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
