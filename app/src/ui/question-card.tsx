// One question waiting for the person: what exactly would run or be contacted, and "Allow" / "Deny". Shown on the
// Approvals page and on the notification that asked.

import type { VNode } from 'preact';
import { appPaths, type OkAnswer } from '../../../protocol/app-api.js';
import type { ApprovalQuestion, QuestionAnswerRequest, QuestionKind } from '../../../protocol/app-api-approvals.js';
import { useModels } from '../models/context.js';
import { AnswerButtons } from './answer-buttons.js';
import { Fact } from './facts.js';
import { Icon, type IconName } from './icon.js';
import './cards.css';

/**
 * Each kind of question: its heading, and what the answers mean when the question alone does not say it (an app
 * allowed to run commands runs them all from then on, without asking again).
 */
const KIND: Record<QuestionKind, { heading: string; icon: IconName; answers?: (appName: string) => string }> = {
  commands: {
    heading: 'Run on this computer',
    icon: 'terminal',
    answers: (appName) =>
      `If you allow it, ${appName} can run this and its other commands from now on without asking you first. ` +
      'You can revoke this at any time.',
  },
  allowCommands: {
    heading: 'Permission to run commands',
    icon: 'terminal',
    answers: (appName) =>
      `Nothing runs now. If you allow it, buttons on ${appName}’s notifications can run commands on this computer ` +
      `without asking you first. You can revoke this at any time. If you deny it, those buttons do nothing and ` +
      `${appName} stops asking.`,
  },
  callbackHost: { heading: 'Contact a server', icon: 'globe' },
  templateCode: {
    heading: "Run a template's code",
    icon: 'fileCode',
    answers: () => 'If you allow it, this code runs for this template without asking; if the code changes, you are asked again.',
  },
};

function Detail({ question }: { question: ApprovalQuestion }): VNode | null {
  const detail = question.detail;
  if (!detail) return null;
  const facts: Array<[string, string | undefined, boolean]> = [
    ['Command', detail.command, true],
    ['Script', detail.script, true],
    ['SHA-256', detail.sha256, true],
    ['Shortcut', detail.shortcut, true],
    ['Input', detail.input, true],
    ['Address', detail.url, true],
    ['Server', detail.host, true],
    ['Template', detail.template, false],
  ];
  const shown = facts.filter(([, value]) => value);
  return (
    <>
      {shown.length > 0 && (
        <dl class="facts">
          {shown.map(([label, value, code]) => (
            <Fact key={label} term={label}>
              {code ? <code class="exact">{value}</code> : value}
            </Fact>
          ))}
        </dl>
      )}
      {detail.code && (
        <details class="code-block">
          <summary>The template's code</summary>
          <pre>
            <code>{detail.code}</code>
          </pre>
        </details>
      )}
      {shown.length === 0 && !detail.code && detail.text && <p class="exact">{detail.text}</p>}
    </>
  );
}

export function QuestionCard({ question, headingLevel = 3 }: { question: ApprovalQuestion; headingLevel?: 2 | 3 }): VNode {
  const kind = KIND[question.kind] ?? KIND.commands;
  const headingId = `question-${question.id}`;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const { api, status } = useModels();
  const answer = async (allow: boolean): Promise<void> => {
    try {
      await api.call<OkAnswer, QuestionAnswerRequest>('POST', appPaths.question(question.id), { allow });
      status.say(allow ? 'Allowed.' : 'Denied.');
    } catch (error) {
      status.sayError(error);
    }
  };
  return (
    <article class="card question" aria-labelledby={headingId}>
      <header class="card-head">
        <Icon name={kind.icon} />
        <Heading id={headingId} class="card-title">
          {question.appName}: {kind.heading}
        </Heading>
      </header>
      <p class="question-text">{question.text}</p>
      <Detail question={question} />
      {kind.answers && <p class="muted question-answers">{kind.answers(question.appName)}</p>}
      <AnswerButtons yes="Allow" no="Deny" answer={answer} />
    </article>
  );
}
