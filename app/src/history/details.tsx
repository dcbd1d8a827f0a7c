// A notification's details: everything it said (the body drawn with the banner's Markdown rules), its buttons and
// what each does, the card picture, the reply and what became of its actions — and what the person can do about
// it: reply, press a button, show it again, dismiss, snooze, mark unread, delete.

import type { VNode } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { isOpenableLink } from '../../../protocol/notification-rules.js';
import {
  appPaths,
  type ButtonDescription,
  type NotificationDetails,
  type OkAnswer,
  type PressRequest,
  type ReadAnswer,
  type ReadRequest,
  type RelayReceipt,
  type ReplyRequest,
  type SnoozeAnswer,
  type SnoozeRequest,
} from '../../../protocol/app-api.js';
import { useModels } from '../models/context.js';
import { titleOf } from '../models/history.js';
import { messageOf, NO_LONGER_IN_HISTORY } from '../models/requests.js';
import { pageHref } from '../models/router.js';
import { useAnswerFocus } from '../ui/answer-buttons.js';
import { AppPicture } from '../ui/app-picture.js';
import { Icon, type IconName } from '../ui/icon.js';
import { Markdown } from '../ui/markdown.js';
import { Menu } from '../ui/menu.js';
import { QuestionCard } from '../ui/question-card.js';
import { StateBadges } from '../ui/state-badges.js';
import { exactTime, minutesUntilTomorrowMorning, useDateFormats } from '../ui/time.js';
import { focusList } from './focus.js';
import { HELD, SPEECH_SUPPRESSED, type SpeechSuppressed } from '../../../protocol/types.js';
import { SUPPRESS_REASONS, type SuppressReason } from '../../../protocol/relay/receipts.js';

type Selected = { app: string; id: string };

/** Runs an action of the person, says how it went, and gives the answer to the caller. */
type Act = <T>(run: () => Promise<T>, done: string) => Promise<T | undefined>;

function useAct(): Act {
  const { status } = useModels();
  return async (run, done) => {
    try {
      const answer = await run();
      status.say(done);
      return answer;
    } catch (error) {
      status.sayError(error);
      return undefined;
    }
  };
}

function ToolButton(props: { icon: IconName; label: string; onClick: () => void }): VNode {
  return (
    <button type="button" class="button button-quiet" onClick={props.onClick}>
      <Icon name={props.icon} />
      <span>{props.label}</span>
    </button>
  );
}

/**
 * The toolbar keeps the focus where the person was: a button that goes once pressed (Dismiss; Snooze becomes
 * Unsnooze) hands it to the button now in its place, not to the start of the page.
 */
function useToolbarFocus(toolbar: { current: HTMLElement | null }): (event: FocusEvent) => void {
  const last = useRef<{ element: HTMLElement; index: number } | null>(null);
  useLayoutEffect(() => {
    const held = last.current;
    if (!held || held.element.isConnected) return;
    last.current = null;
    if (document.activeElement && document.activeElement !== document.body) return;
    const buttons = toolbar.current?.querySelectorAll<HTMLElement>('button');
    if (buttons && buttons.length > 0) buttons[Math.min(held.index, buttons.length - 1)]!.focus();
  });
  return (event) => {
    const buttons = [...(toolbar.current?.querySelectorAll<HTMLElement>('button') ?? [])];
    const element = event.target as HTMLElement;
    last.current = { element, index: buttons.indexOf(element) };
  };
}

function SnoozeMenu({ selected, snoozedUntil }: { selected: Selected; snoozedUntil?: string }): VNode {
  const { api } = useModels();
  const act = useAct();
  if (snoozedUntil) {
    return (
      <ToolButton
        icon="alarmClockOff"
        label="Unsnooze"
        onClick={() => void act(() => api.call('POST', appPaths.unsnooze(selected.app, selected.id)), 'No longer snoozed.')}
      />
    );
  }
  const snooze = (minutes: number, words: string): void =>
    void act(
      () => api.call<SnoozeAnswer, SnoozeRequest>('POST', appPaths.snooze(selected.app, selected.id), { minutes }),
      `Snoozed ${words}.`,
    );
  const choices: Array<[string, () => number, string]> = [
    ['15 minutes', () => 15, 'for 15 minutes'],
    ['1 hour', () => 60, 'for 1 hour'],
    ['Tomorrow morning', minutesUntilTomorrowMorning, 'until tomorrow morning'],
  ];
  return (
    <Menu icon="clock" label="Snooze" menuLabel="Snooze for">
      {(close) =>
        choices.map(([label, minutes, words]) => (
          <button
            key={label}
            type="button"
            class="menu-item"
            onClick={() => {
              close();
              snooze(minutes(), words);
            }}
          >
            {label}
          </button>
        ))
      }
    </Menu>
  );
}

function ReplyForm({ details, onSent }: { details: NotificationDetails; onSent: () => void }): VNode {
  const { api, status } = useModels();
  const formats = useDateFormats();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState('');
  const takes = details.takesReply!;
  const send = async (event: Event): Promise<void> => {
    event.preventDefault();
    if (text.trim() === '') {
      setProblem('Type a reply first.');
      return;
    }
    try {
      await api.call<OkAnswer, ReplyRequest>('POST', appPaths.reply(details.row.app, details.row.id), { text });
      setText('');
      setProblem('');
      status.say('Reply sent.');
      onSent();
    } catch (error) {
      setProblem(messageOf(error)); // what was typed stays in the field
    }
  };
  return (
    <form class="reply-form" onSubmit={(event) => void send(event)}>
      <label for="reply-text">Reply</label>
      <textarea
        id="reply-text"
        rows={3}
        value={text}
        placeholder={takes.placeholder ?? 'Type your reply'}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? 'reply-problem' : takes.until ? 'reply-until' : undefined}
        onInput={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void send(event);
        }}
      />
      {problem && (
        <p id="reply-problem" class="field-problem" role="alert">
          {problem}
        </p>
      )}
      <div class="actions">
        <button type="submit" class="button button-primary">
          <Icon name="send" />
          <span>Send reply</span>
        </button>
        {takes.until && (
          <span id="reply-until" class="muted">
            Can be answered until {exactTime(takes.until, formats)}
          </span>
        )}
      </div>
    </form>
  );
}

function Buttons({ details }: { details: NotificationDetails }): VNode | null {
  const { api } = useModels();
  const act = useAct();
  if (details.buttons.length === 0) return null;
  const press = async (button: ButtonDescription): Promise<void> => {
    if (button.kind === 'reply') {
      document.getElementById('reply-text')?.focus();
      return;
    }
    await act(
      () => api.call<OkAnswer, PressRequest>('POST', appPaths.press(details.row.app, details.row.id), { actionId: button.actionId }),
      `Pressed “${button.label}”.`,
    );
  };
  return (
    <section class="section" aria-labelledby="buttons-heading">
      <h3 id="buttons-heading">Buttons</h3>
      <ul class="button-list">
        {details.buttons.map((button) => (
          <li key={button.actionId}>
            <button type="button" class="button" aria-describedby={`what-${button.actionId}`} onClick={() => void press(button)}>
              {button.label}
            </button>
            <span id={`what-${button.actionId}`} class="muted">
              {withCode(button.what)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** "Runs the command `make deploy`": what is between backticks is drawn as code, as text (never markup). */
const withCode = (text: string): Array<VNode | string> =>
  text.split('`').map((part, index) => (index % 2 === 1 ? <code key={index}>{part}</code> : part));

function WhatHappened({ details }: { details: NotificationDetails }): VNode | null {
  const formats = useDateFormats();
  const { record } = details;
  const facts: Array<[string, VNode | string]> = [];
  facts.push(['Arrived', exactTime(record.deliveredAt, formats)]);
  if (record.reply !== undefined) facts.push(['You replied', <q class="reply-text">{record.reply}</q>]);
  if (record.repliedAt) facts.push(['Replied at', exactTime(record.repliedAt, formats)]);
  if (record.dismissedAt)
    facts.push([
      'Banner closed',
      `${exactTime(record.dismissedAt, formats)}${record.actionUsed ? ` (${endedBy(record.actionUsed)})` : ''}`,
    ]);
  if (record.snoozedUntil) facts.push(['Snoozed until', exactTime(record.snoozedUntil, formats)]);
  if (record.held) facts.push(['Not shown', record.held === HELD.quietHours ? 'held back by quiet hours' : 'the app is muted']);
  if (record.actionNote) facts.push(['Problem', record.actionNote]);
  if (record.followUp) {
    const follow = record.followUp;
    facts.push([
      'Follow-up',
      `${follow.action}: ${follow.outcome === 'ran' ? 'ran' : follow.outcome === 'failed' ? `failed (${follow.detail ?? 'no reason given'})` : 'waiting for your approval'} at ${exactTime(follow.ranAt, formats)}`,
    ]);
  }
  if (record.speech) {
    const why = record.speech.suppressed;
    facts.push(['Read aloud', why ? `No: ${NOT_SPOKEN[why as SpeechSuppressed] ?? why}` : record.speech.text]);
  }
  const url = record.notification.url;
  if (url)
    facts.push([
      'Link',
      isOpenableLink(url) ? (
        <a href={url} target="_blank" rel="noopener noreferrer">
          {url}
        </a>
      ) : (
        <code>{url}</code>
      ),
    ]);
  return (
    <section class="section" aria-labelledby="happened-heading">
      <h3 id="happened-heading">What happened</h3>
      <dl class="facts">
        {facts.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {details.callbackAttempts && details.callbackAttempts.length > 0 && (
        <>
          <h4>What its buttons and follow-up did</h4>
          <ul class="attempts">
            {details.callbackAttempts.map((attempt, index) => (
              <li key={index} class={attempt.outcome === 'failed' ? 'attempt-failed' : undefined}>
                <strong>{attempt.action}</strong>:{' '}
                {attempt.outcome === 'ran' ? 'done' : attempt.outcome === 'failed' ? 'failed' : 'waiting for your approval'}
                {attempt.detail && <> — {attempt.detail}</>}
                {attempt.at && <span class="muted"> · {exactTime(attempt.at, formats)}</span>}
              </li>
            ))}
          </ul>
        </>
      )}
      {details.receipts && details.receipts.length > 0 && (
        <>
          <h4>Reported to the cloud relay</h4>
          <ul class="attempts">
            {details.receipts.map((receipt, index) => (
              <li key={index}>{receiptWords(receipt)}</li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/** Why a notification was not read aloud (the record's `speech.suppressed`), as the person reads it. */
const NOT_SPOKEN: Record<SpeechSuppressed, string> = {
  [SPEECH_SUPPRESSED.unavailable]: 'this computer has no voice to read it with',
  [SPEECH_SUPPRESSED.muted]: 'all sounds are muted',
  [SPEECH_SUPPRESSED.quietHours]: 'quiet hours',
  [SPEECH_SUPPRESSED.appMuted]: 'the app is muted',
  [SPEECH_SUPPRESSED.appSpeechOff]: 'reading aloud is off for this app',
};

/** Why the relay was told a notification was not shown or not read aloud. */
const RECEIPT_REASONS: Record<SuppressReason, string> = {
  [SUPPRESS_REASONS.muted]: 'muted',
  [SUPPRESS_REASONS.quietHours]: 'quiet hours',
  [SUPPRESS_REASONS.deliveryFailed]: 'it could not be delivered',
  [SUPPRESS_REASONS.unreadable]: 'it could not be read',
  [SUPPRESS_REASONS.speechOff]: 'reading aloud is off for this app',
  [SUPPRESS_REASONS.speechUnavailable]: 'this computer has no voice to read it with',
};

/** A receipt this computer sent the relay, in words: "Shown on screen", "Not read aloud (quiet hours)". */
function receiptWords(receipt: RelayReceipt): string {
  const what =
    receipt.kind === 'displayed'
      ? 'Shown on screen'
      : receipt.kind === 'spoken'
        ? 'Read aloud'
        : receipt.kind === 'replied'
          ? 'Replied'
          : receipt.scope === 'speech'
            ? 'Not read aloud'
            : 'Not shown';
  return receipt.reason ? `${what} (${RECEIPT_REASONS[receipt.reason as SuppressReason] ?? receipt.reason})` : what;
}

const ENDINGS: Record<string, string> = {
  dismiss: 'dismissed by the app',
  close: 'you closed it',
  timeout: 'it timed out',
  open: 'you clicked it',
};
const endedBy = (action: string): string => ENDINGS[action] ?? `“${action}”`;

export function Details({ selected }: { selected: Selected }): VNode {
  const { api, events, approvals, router, theme, confirm } = useModels();
  const act = useAct();
  const formats = useDateFormats();
  const [details, setDetails] = useState<NotificationDetails | null>(null);
  const [problem, setProblem] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  const load = useRef<() => Promise<void>>(async () => undefined);
  const shown = useRef<NotificationDetails | null>(null);
  shown.current = details;
  const toolbar = useRef<HTMLDivElement>(null);
  const toolbarFocus = useToolbarFocus(toolbar);
  const answerFocus = useAnswerFocus(heading);

  load.current = async () => {
    try {
      const answer = await api.call<NotificationDetails>('GET', appPaths.notification(selected.app, selected.id));
      setDetails(answer);
      setProblem('');
    } catch (error) {
      setProblem(messageOf(error));
    }
  };

  useEffect(() => {
    setDetails(null);
    setProblem('');
    void load.current().then(() => heading.current?.focus({ preventScroll: true }));
    // The row changed (a reply on the banner, a snooze ended, an approval answered): draw it again. Not when it
    // just became unread: fetching the details marks it read, which would undo the person's Mark as unread.
    const stopRows = events.on('row', ({ row }) => {
      if (row.app !== selected.app || row.id !== selected.id) return;
      if (row.read || row.deliveredAt !== shown.current?.row.deliveredAt) void load.current();
    });
    // Deleted elsewhere (by its app, or in another window): its buttons would only answer that it is gone.
    const stopRemoved = events.on('removed', (removed) => {
      if ((removed.app === undefined || removed.app === selected.app) && (removed.id === undefined || removed.id === selected.id)) {
        setDetails(null);
        setProblem(NO_LONGER_IN_HISTORY);
      }
    });
    return () => {
      stopRows();
      stopRemoved();
    };
  }, [selected.app, selected.id]);

  if (problem) {
    return (
      <div class="details">
        <BackLink />
        <p role="alert">{problem}</p>
      </div>
    );
  }
  if (!details) {
    return (
      <div class="details" aria-busy="true">
        <BackLink />
        <p class="muted">Loading…</p>
      </div>
    );
  }
  const { row, record } = details;
  // Its questions as they are now: answered on a banner or in the tray, they are gone here too.
  const waiting = approvals.current.value;
  const shownQuestions = waiting
    ? waiting.questions.filter((question) => question.app === row.app && question.notificationId === row.id)
    : details.questions;
  const notification = record.notification;
  const where = { app: row.app, id: row.id };

  /** The person closed the details (Delete, Mark as unread): back to the list, where they were. */
  const closeDetails = (): void => {
    router.navigate(pageHref('history'));
    focusList();
  };

  // Open details are read (the daemon marks them so): marking one unread closes it, as a mail client does, and
  // leaves it unread in the list.
  const markUnread = async (): Promise<void> => {
    const done = await act(
      () => api.call<ReadAnswer, ReadRequest>('POST', appPaths.read(where.app, where.id), { read: false }),
      'Marked as unread.',
    );
    if (done) closeDetails();
  };

  const remove = async (): Promise<void> => {
    const yes = await confirm.ask({
      title: 'Delete this notification?',
      message: `“${titleOf(row)}” from ${row.appName} will be removed from History. This cannot be undone.`,
      confirm: 'Delete',
    });
    if (!yes) return;
    const done = await act(() => api.call('DELETE', appPaths.notification(where.app, where.id)), 'Deleted.');
    if (done) closeDetails();
  };

  return (
    <article class="details" aria-labelledby="details-title" ref={answerFocus.container} onClick={answerFocus.onClick}>
      <BackLink />
      <header class="details-head">
        <AppPicture app={row.app} appName={row.appName} size="large" />
        <div>
          <p class="details-app">
            {row.appName}
            <span class="muted"> · {exactTime(row.deliveredAt, formats)}</span>
          </p>
          <h2 id="details-title" ref={heading} tabIndex={-1}>
            {titleOf(row)}
          </h2>
          {notification.subtitle && <p class="details-subtitle">{notification.subtitle}</p>}
          <StateBadges state={row.state} />
        </div>
      </header>

      <div class="toolbar" role="group" aria-label="This notification" ref={toolbar} onFocusIn={toolbarFocus}>
        <ToolButton icon="mail" label="Mark as unread" onClick={() => void markUnread()} />
        <ToolButton
          icon="monitorUp"
          label="Show again"
          onClick={() => void act(() => api.call('POST', appPaths.reshow(where.app, where.id)), 'Shown again.')}
        />
        {!record.dismissedAt && !row.state.held && (
          <ToolButton
            icon="eyeOff"
            label="Dismiss"
            onClick={() => void act(() => api.call('POST', appPaths.dismiss(where.app, where.id)), 'Dismissed.')}
          />
        )}
        <SnoozeMenu selected={where} snoozedUntil={row.state.snoozedUntil} />
        <ToolButton icon="trash" label="Delete" onClick={() => void remove()} />
      </div>

      {shownQuestions.length > 0 && (
        <section class="section" aria-labelledby="questions-heading">
          <h3 id="questions-heading">Waiting for your answer</h3>
          {shownQuestions.map((question) => (
            <QuestionCard key={question.id} question={question} headingLevel={3} />
          ))}
        </section>
      )}

      {details.bodyMarkdown && <Markdown class="details-body" text={details.bodyMarkdown} />}

      {details.takesReply && <ReplyForm details={details} onSent={() => void load.current()} />}

      <Buttons details={details} />
      {details.hasCard && (
        <img
          class="card-picture"
          src={api.withCsrf(`${appPaths.card(where.app, where.id)}?theme=${theme.shown.value}`)}
          alt={`The card of “${titleOf(row)}”`}
        />
      )}
      <WhatHappened details={details} />
    </article>
  );
}

function BackLink(): VNode {
  return (
    <a class="back-link" href={pageHref('history')}>
      <Icon name="arrowLeft" />
      <span>Back to History</span>
    </a>
  );
}
