// A connector's request to send the person notifications (an agent that signed in to the cloud relay with OAuth):
// who asks, the codes to check, when it expires, and "Approve" / "Deny". Shown on the Approvals page and on the
// Relay page, answered through the same route.

import type { VNode } from 'preact';
import { appPaths, type OkAnswer } from '../../../protocol/app-api.js';
import type { ConnectorDecisionRequest, ConnectorRequest } from '../../../protocol/app-api-approvals.js';
import { useModels } from '../models/context.js';
import { AnswerButtons } from './answer-buttons.js';
import { Fact } from './facts.js';
import { Icon } from './icon.js';
import { exactTime, relativeTime, useTime } from './time.js';
import './cards.css';

export function ConnectorCard({ request }: { request: ConnectorRequest }): VNode {
  const { api, status } = useModels();
  const moment = useTime();
  const decide = async (approve: boolean): Promise<void> => {
    try {
      await api.call<OkAnswer, ConnectorDecisionRequest>('POST', appPaths.connector(request.id), { approve });
      status.say(approve ? `${request.clientName} may now send you notifications.` : `${request.clientName} was refused.`);
    } catch (error) {
      status.sayError(error);
    }
  };
  const headingId = `connector-${request.id}`;
  return (
    <article class="card" aria-labelledby={headingId}>
      <header class="card-head">
        <Icon name="radioTower" />
        <h3 id={headingId} class="card-title">
          {request.clientName} asks to send you notifications
        </h3>
      </header>
      <dl class="facts">
        {request.redirectHost && (
          <Fact term="Returns to">
            <code class="exact">{request.redirectHost}</code>
          </Fact>
        )}
        {request.userCode && (
          <Fact term="Code it shows">
            <code class="exact">{request.userCode}</code>
          </Fact>
        )}
        <Fact term="Approval code">
          <code class="approval-code">{request.code}</code>
          <span class="muted"> — type it on the page that asked, if it asks for it</span>
        </Fact>
        <Fact term="Expires" title={exactTime(request.expiresAt, moment)}>
          {relativeTime(request.expiresAt, moment)}
        </Fact>
      </dl>
      {request.problem && <p class="field-problem">{request.problem}</p>}
      <AnswerButtons yes="Approve" no="Deny" answer={decide} />
    </article>
  );
}
