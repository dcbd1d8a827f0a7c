// Approvals: what waits for the person (questions, connector requests from the cloud relay) and what they allowed
// before, with Revoke. Live: an answer given on a banner or in the tray takes the question away here too. Works
// with the keyboard alone: after an answer, focus goes to the next question (or the heading), never lost.

import type { VNode } from 'preact';
import { useRef } from 'preact/hooks';
import { appPaths, type ConnectorRequest, type Grant, type GrantKind } from '../../../protocol/app-api.js';
import { call } from '../api.js';
import { exactTime, relativeTime } from '../time.js';
import { Icon } from '../ui/icon.js';
import { say, sayError } from '../ui/status.js';
import { AnswerButtons, QuestionCard, useAnswerFocus } from './question.js';
import { approvals, approvalsError } from './store.js';

const GRANT_WORDS: Record<GrantKind, (grant: Grant) => string> = {
  commands: () => 'may run commands, scripts and shortcuts on this computer, without asking each time',
  callbackHost: (grant) => `may contact ${grant.host ?? 'a server'}`,
  templateCode: (grant) => `may run the code of its template “${grant.template ?? ''}”`,
};

function Granted({ grant }: { grant: Grant }): VNode {
  const revoke = async (): Promise<void> => {
    try {
      await call('POST', appPaths.revoke, { kind: grant.kind, app: grant.app, host: grant.host, template: grant.template });
      say(`Revoked. ${grant.appName} will ask you again next time.`);
    } catch (error) {
      sayError(error);
    }
  };
  const words = GRANT_WORDS[grant.kind](grant);
  const id = `grant-${[grant.kind, grant.app, grant.host ?? '', grant.template ?? ''].join('-').replace(/[^\w-]/g, '_')}`;
  return (
    <li class="grant">
      <div id={id}>
        <strong>{grant.appName}</strong> {words}
        {grant.grantedAt && (
          <span class="muted" title={exactTime(grant.grantedAt)}>
            {' '}
            · allowed {relativeTime(grant.grantedAt)}
          </span>
        )}
      </div>
      <button type="button" class="button" aria-describedby={id} onClick={() => void revoke()}>
        Revoke
      </button>
    </li>
  );
}

export function Connector({ request }: { request: ConnectorRequest }): VNode {
  const decide = async (approve: boolean): Promise<void> => {
    try {
      await call('POST', appPaths.connector(request.id), { approve });
      say(approve ? `${request.clientName} may now send you notifications.` : `${request.clientName} was refused.`);
    } catch (error) {
      sayError(error);
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
          <div>
            <dt>Returns to</dt>
            <dd>
              <code class="exact">{request.redirectHost}</code>
            </dd>
          </div>
        )}
        {request.userCode && (
          <div>
            <dt>Code it shows</dt>
            <dd>
              <code class="exact">{request.userCode}</code>
            </dd>
          </div>
        )}
        <div>
          <dt>Approval code</dt>
          <dd>
            <code class="approval-code">{request.code}</code>
            <span class="muted"> — type it on the page that asked, if it asks for it</span>
          </dd>
        </div>
        <div>
          <dt>Expires</dt>
          <dd title={exactTime(request.expiresAt)}>{relativeTime(request.expiresAt)}</dd>
        </div>
      </dl>
      {request.problem && <p class="field-problem">{request.problem}</p>}
      <AnswerButtons yes="Approve" no="Deny" answer={decide} />
    </article>
  );
}

export function ApprovalsPage(): VNode {
  const current = approvals.value;
  const heading = useRef<HTMLHeadingElement>(null);
  const answerFocus = useAnswerFocus<HTMLDivElement>(heading);

  return (
    <div class="page approvals" ref={answerFocus.container} onClick={answerFocus.onClick}>
      <header class="page-head">
        <div class="page-title">
          <h1 ref={heading} tabIndex={-1}>
            Approvals
          </h1>
          <p class="muted">Nothing runs on this computer and no server is contacted until you allow it.</p>
        </div>
      </header>
      {approvalsError.value && <p role="alert">Approvals could not be loaded: {approvalsError.value}</p>}
      {!current ? (
        !approvalsError.value && <p class="muted">Loading…</p>
      ) : (
        <div class="columns">
          <section class="section" aria-labelledby="waiting-heading">
            <h2 id="waiting-heading">Waiting for you</h2>
            {current.questions.length === 0 && current.connectors.length === 0 && (
              <p class="empty-line">
                <Icon name="circleCheck" /> Nothing is waiting for your answer.
              </p>
            )}
            {current.questions.map((question) => (
              <QuestionCard key={question.id} question={question} />
            ))}
            {current.connectors.map((request) => (
              <Connector key={request.id} request={request} />
            ))}
          </section>
          <section class="section" aria-labelledby="granted-heading">
            <h2 id="granted-heading">Allowed</h2>
            {current.granted.length === 0 ? (
              <p class="empty-line">You have not allowed anything yet.</p>
            ) : (
              <ul class="grants">
                {current.granted.map((grant) => (
                  <Granted key={`${grant.kind}/${grant.app}/${grant.host ?? ''}/${grant.template ?? ''}`} grant={grant} />
                ))}
              </ul>
            )}
          </section>
        </div>
      )}
    </div>
  );
}
