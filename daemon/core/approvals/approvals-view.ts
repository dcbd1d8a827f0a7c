// What waits for the person's approval and what they granted, as the person's app shows it (docs/app.md#approvals):
// the same questions and connector requests the private channel gives the tray, with their facts as data.

import type {
  ApprovalQuestion,
  ApprovalsAnswer,
  ConnectorRequest,
  Denial,
  Grant,
  QuestionKind,
} from '../../../protocol/app-api-approvals.js';
import type { Approvals, OpenQuestion } from './approvals.js';

export interface ApprovalSources {
  approvals: Pick<Approvals, 'openQuestions' | 'list' | 'denials'>;
  /** The cloud relay's connector requests waiting for the person (daemon/core/relay/connectors.ts). */
  connectors: { forPerson(): ConnectorRequest[] };
  appName(app: string): string;
}

export function questionOf(open: OpenQuestion, appName: (app: string) => string): ApprovalQuestion {
  const { question, notificationId, facts } = open;
  const detail = { ...facts, ...(question.detail ? { text: question.detail } : {}) };
  return {
    id: question.id,
    app: question.app,
    appName: appName(question.app),
    kind: question.kind as QuestionKind,
    text: question.text,
    ...(Object.keys(detail).length > 0 ? { detail } : {}),
    ...(notificationId ? { notificationId } : {}),
  };
}

/** Everything the person granted, newest first within each kind. */
export function grantsOf(approvals: Pick<Approvals, 'list'>, appName: (app: string) => string): Grant[] {
  const { items, apps } = approvals.list();
  const granted: Grant[] = [];
  for (const entry of apps) {
    if (entry.commandsAllowed) {
      granted.push({
        kind: 'commands',
        app: entry.app,
        appName: appName(entry.app),
        ...(entry.commandsApprovedAt ? { grantedAt: entry.commandsApprovedAt } : {}),
      });
    }
    for (const { host, approvedAt } of entry.callbackHosts) {
      granted.push({ kind: 'callbackHost', app: entry.app, appName: appName(entry.app), host, grantedAt: approvedAt });
    }
  }
  for (const item of items) {
    granted.push({ kind: 'templateCode', app: item.app, appName: appName(item.app), template: item.template, grantedAt: item.approvedAt });
  }
  return granted;
}

export function approvalsView(sources: ApprovalSources): ApprovalsAnswer {
  return {
    questions: sources.approvals.openQuestions().map((open) => questionOf(open, sources.appName)),
    granted: grantsOf(sources.approvals, sources.appName),
    denied: sources.approvals.denials().map((denial): Denial => ({ ...denial, appName: sources.appName(denial.app) })),
    connectors: sources.connectors.forPerson().map((request) => ({ ...request })),
  };
}
