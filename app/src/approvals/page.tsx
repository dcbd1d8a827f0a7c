// Approvals: what waits for the person (questions, connector requests from the cloud relay), what they allowed
// before, with Revoke — and then "Deny from now on" — and what they denied from now on, with "Ask again". Live: an
// answer given on a banner or in the tray takes the question away here too. Works with the keyboard alone: after an
// answer, focus goes to the next question (or the heading), and after Revoke, Deny or Ask again to what took the
// place of the pressed button, never lost.

import type { VNode } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { appPaths, type OkAnswer } from '../../../protocol/app-api.js';
import type { Denial, Grant, GrantKind, RevokeRequest } from '../../../protocol/app-api-approvals.js';
import { type Models, useModels } from '../models/context.js';
import { useAnswerFocus } from '../ui/answer-buttons.js';
import { ConnectorCard } from '../ui/connector-card.js';
import { focusSoon } from '../ui/focus.js';
import { Icon } from '../ui/icon.js';
import { QuestionCard } from '../ui/question-card.js';
import { exactTime, relativeTime, useTime } from '../ui/time.js';
import './approvals.css';

type Named = Pick<Grant, 'kind' | 'app' | 'appName' | 'host' | 'template'>;

/** What each kind says of an app: allowed, revoked just now, or denied from now on. */
const WORDS: Record<GrantKind, { allowed: (item: Named) => string; revoked: (item: Named) => string; denied: (item: Named) => string }> = {
  commands: {
    allowed: () => 'may run commands, scripts and shortcuts on this computer, without asking each time',
    revoked: () => 'will ask you again before it runs commands, scripts or shortcuts',
    denied: () => 'may not run commands, scripts or shortcuts: its buttons that would run them do nothing, and it does not ask',
  },
  callbackHost: {
    allowed: (item) => `may contact ${item.host ?? 'a server'}`,
    revoked: (item) => `will ask you again before it contacts ${item.host ?? 'a server'}`,
    denied: (item) => `may not contact ${item.host ?? 'a server'}: nothing is sent there, and it does not ask`,
  },
  templateCode: {
    allowed: (item) => `may run the code of its template “${item.template ?? ''}”`,
    revoked: (item) => `will ask you again before its template “${item.template ?? ''}” runs code`,
    denied: (item) => `may not run the code of its template “${item.template ?? ''}”, and it does not ask`,
  },
};

/** The same thing, allowed, revoked or denied: its kind, app and what it names. */
const keyOf = (item: Named): string => [item.kind, item.app, item.host ?? '', item.template ?? ''].join('/');
const idOf = (prefix: string, item: Named): string => `${prefix}-${keyOf(item).replace(/[^\w-]/g, '_')}`;
const requestOf = (item: Named): RevokeRequest => ({ kind: item.kind, app: item.app, host: item.host, template: item.template });

/** One change of what was allowed or denied; the list as it is now is read before the focus moves on. */
async function change({ api, approvals, status }: Models, path: string, item: Named, done: string): Promise<boolean> {
  try {
    await api.call<OkAnswer, RevokeRequest>('POST', path, requestOf(item));
    await approvals.load();
    status.say(done);
    return true;
  } catch (error) {
    status.sayError(error);
    return false;
  }
}

type RowState = 'allowed' | 'revoked' | 'denied';

/** Each row's button, by its state: what is allowed can be revoked, what was revoked denied from now on, what is denied asked again. */
const BUTTONS: Record<RowState, string> = { allowed: 'Revoke', revoked: 'Deny from now on', denied: 'Ask again' };

interface RowProps {
  item: Named;
  /** `allowed`, `revoked` or `denied`: its words, its button, and the ids of its words and its button. */
  state: RowState;
  at?: string | undefined;
  onPress: () => void;
}

/** One row: the app, what it may or may not do, since when, and its button (described by the row's words). */
function Row({ item, state, at, onPress }: RowProps): VNode {
  const moment = useTime();
  const id = idOf(state, item);
  return (
    <li class="framed-row grant">
      <div id={id}>
        <strong>{item.appName}</strong> {WORDS[item.kind][state](item)}
        {at && (
          <span class="muted" title={exactTime(at, moment)}>
            {' '}
            · {state} {relativeTime(at, moment)}
          </span>
        )}
      </div>
      <button id={`${id}-button`} type="button" class="button" aria-describedby={id} onClick={onPress}>
        {BUTTONS[state]}
      </button>
    </li>
  );
}

export function ApprovalsPage(): VNode {
  const models = useModels();
  const { approvals } = models;
  const current = approvals.current.value;
  const heading = useRef<HTMLHeadingElement>(null);
  const answerFocus = useAnswerFocus<HTMLDivElement>(heading);
  /** What was revoked on this visit, and when: each offers "Deny from now on" until it is allowed or denied again. */
  const [revoked, setRevoked] = useState<Array<Named & { revokedAt: string }>>([]);

  const revoke = async (grant: Named): Promise<void> => {
    if (!(await change(models, appPaths.revoke, grant, `Revoked. ${grant.appName} will ask you again next time.`))) return;
    setRevoked((known) => [...known.filter((other) => keyOf(other) !== keyOf(grant)), { ...grant, revokedAt: new Date().toISOString() }]);
    focusSoon(`${idOf('revoked', grant)}-button`);
  };
  const deny = async (item: Named): Promise<void> => {
    if (await change(models, appPaths.deny, item, `Denied from now on: ${item.appName} will not ask you again.`))
      focusSoon(`${idOf('denied', item)}-button`);
  };
  const askAgain = async (denial: Denial): Promise<void> => {
    if (await change(models, appPaths.askAgain, denial, `${denial.appName} will ask you again next time.`)) focusSoon('denied-heading');
  };

  const known = new Set([...(current?.granted ?? []), ...(current?.denied ?? [])].map(keyOf));
  const stillRevoked = revoked.filter((item) => !known.has(keyOf(item)));
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
          <div class="approvals-lists">
            <section class="section" aria-labelledby="granted-heading">
              <h2 id="granted-heading">Allowed</h2>
              {/* True whatever came before: allowed once and revoked, or never. */}
              {current.granted.length === 0 && stillRevoked.length === 0 ? (
                <p class="empty-line">Nothing is allowed now: every app asks you first.</p>
              ) : (
                <ul class="framed-list grants">
                  {current.granted.map((grant) => (
                    <Row key={keyOf(grant)} item={grant} state="allowed" at={grant.grantedAt} onPress={() => void revoke(grant)} />
                  ))}
                  {stillRevoked.map((item) => (
                    <Row key={keyOf(item)} item={item} state="revoked" at={item.revokedAt} onPress={() => void deny(item)} />
                  ))}
                </ul>
              )}
            </section>
            <section class="section" aria-labelledby="denied-heading">
              <h2 id="denied-heading" tabIndex={-1}>
                Denied
              </h2>
              {current.denied.length === 0 ? (
                <p class="empty-line">Nothing is denied from now on.</p>
              ) : (
                <ul class="framed-list grants">
                  {current.denied.map((denial) => (
                    <Row key={keyOf(denial)} item={denial} state="denied" at={denial.deniedAt} onPress={() => void askAgain(denial)} />
                  ))}
                </ul>
              )}
            </section>
          </div>
        </div>
      )}
    </div>
  );
}
