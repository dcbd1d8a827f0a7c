// Approvals: what waits for the person (questions, connector requests from the cloud relay) and what they allowed
// before, with Revoke. Live: an answer given on a banner or in the tray takes the question away here too. Works
// with the keyboard alone: after an answer, focus goes to the next question (or the heading), never lost.

import type { VNode } from 'preact';
import { useRef } from 'preact/hooks';
import { appPaths, type Grant, type GrantKind, type OkAnswer, type RevokeRequest } from '../../../protocol/app-api.js';
import { useModels } from '../models/context.js';
import { useAnswerFocus } from '../ui/answer-buttons.js';
import { ConnectorCard } from '../ui/connector-card.js';
import { Icon } from '../ui/icon.js';
import { QuestionCard } from '../ui/question-card.js';
import { exactTime, relativeTime, useTime } from '../ui/time.js';
import './approvals.css';

const GRANT_WORDS: Record<GrantKind, (grant: Grant) => string> = {
  commands: () => 'may run commands, scripts and shortcuts on this computer, without asking each time',
  callbackHost: (grant) => `may contact ${grant.host ?? 'a server'}`,
  templateCode: (grant) => `may run the code of its template “${grant.template ?? ''}”`,
};

function Granted({ grant }: { grant: Grant }): VNode {
  const { api, status } = useModels();
  const moment = useTime();
  const revoke = async (): Promise<void> => {
    try {
      await api.call<OkAnswer, RevokeRequest>('POST', appPaths.revoke, {
        kind: grant.kind,
        app: grant.app,
        host: grant.host,
        template: grant.template,
      });
      status.say(`Revoked. ${grant.appName} will ask you again next time.`);
    } catch (error) {
      status.sayError(error);
    }
  };
  const words = GRANT_WORDS[grant.kind](grant);
  const id = `grant-${[grant.kind, grant.app, grant.host ?? '', grant.template ?? ''].join('-').replace(/[^\w-]/g, '_')}`;
  return (
    <li class="framed-row grant">
      <div id={id}>
        <strong>{grant.appName}</strong> {words}
        {grant.grantedAt && (
          <span class="muted" title={exactTime(grant.grantedAt, moment)}>
            {' '}
            · allowed {relativeTime(grant.grantedAt, moment)}
          </span>
        )}
      </div>
      <button type="button" class="button" aria-describedby={id} onClick={() => void revoke()}>
        Revoke
      </button>
    </li>
  );
}

export function ApprovalsPage(): VNode {
  const { approvals } = useModels();
  const current = approvals.current.value;
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
      {approvals.error.value && <p role="alert">Approvals could not be loaded: {approvals.error.value}</p>}
      {!current ? (
        !approvals.error.value && <p class="muted">Loading…</p>
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
              <ConnectorCard key={request.id} request={request} />
            ))}
          </section>
          <section class="section" aria-labelledby="granted-heading">
            <h2 id="granted-heading">Allowed</h2>
            {current.granted.length === 0 ? (
              <p class="empty-line">You have not allowed anything yet.</p>
            ) : (
              <ul class="framed-list grants">
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
