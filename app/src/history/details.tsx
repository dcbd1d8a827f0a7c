// A notification's details: everything it said (the body drawn with the banner's Markdown rules), its buttons and
// what each does, the card picture, the reply and what became of its actions — and what the person can do about
// it: reply, press a button, show it again, dismiss, snooze, mark unread, delete. Another program's notification
// is read-only (its banner and buttons are that program's): it says who sent it, and offers its link, Copy, Mark as
// unread and Delete.

import type { VNode } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { isOpenableLink } from '../../../protocol/notification-rules.js';
import { parseMarkdown, plainText } from '../../../protocol/markdown.js';
import {
  appPaths,
  type ButtonDescription,
  type DismissAnswer,
  type NotificationDetails,
  type OkAnswer,
  type PressRequest,
  type ReadAnswer,
  type ReadRequest,
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
import { copyText } from '../ui/copy.js';
import { focusWhenDrawn } from '../ui/focus.js';
import { Icon, type IconName } from '../ui/icon.js';
import { Markdown } from '../ui/markdown.js';
import { Menu } from '../ui/menu.js';
import { QuestionCard } from '../ui/question-card.js';
import { PriorityMark, StateBadges } from '../ui/state-badges.js';
import { exactTime, minutesUntilTomorrowMorning, rowTime, useDateFormats, useTime } from '../ui/time.js';
import { useRowActions } from './actions.js';
import { focusList } from './focus.js';
import { ProgramNote } from './program-note.js';
import { WhatHappened } from './what-happened.js';
import { recordKey } from '../../../protocol/record-key.js';

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

/** Buttons that only open something here (a link, an app): pressing one again answers nothing. */
const OPENS = new Set<ButtonDescription['kind']>(['url', 'openApp']);

/**
 * Its buttons, each with what it does: "asks you first" for code the person has not allowed yet; a button whose code
 * cannot run is disabled with why; once it was answered and takes no other answer (`answered`), every button that
 * would answer again is disabled.
 */
function Buttons({ details, answered }: { details: NotificationDetails; answered: boolean }): VNode | null {
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
  const locked = (button: ButtonDescription): boolean => (answered && !OPENS.has(button.kind)) || button.refused !== undefined;
  return (
    <section class="section" aria-labelledby="buttons-heading">
      <h3 id="buttons-heading">Buttons</h3>
      <ul class="button-list">
        {details.buttons.map((button) => (
          <li key={button.actionId}>
            <button
              type="button"
              class="button"
              disabled={locked(button)}
              aria-describedby={`what-${button.actionId}`}
              onClick={() => void press(button)}
            >
              {button.label}
            </button>
            <span id={`what-${button.actionId}`} class="muted">
              {withCode(button.what)}
              {button.asksFirst && !locked(button) && <strong class="asks-first"> — asks you first</strong>}
              {button.refused && <span class="refused"> — it cannot run: {button.refused}</span>}
            </span>
          </li>
        ))}
      </ul>
      {answered && details.buttons.some((button) => !OPENS.has(button.kind)) && (
        <p class="muted">Already answered: it takes no other answer.</p>
      )}
    </section>
  );
}

/** How the person answered it: their reply, or the button they pressed (on its banner or here), and when. */
function answerOf({ record, buttons }: NotificationDetails): { words: VNode; at?: string } | null {
  if (record.reply !== undefined) {
    return {
      words: (
        <>
          You replied: <q class="reply-text">{record.reply}</q>
        </>
      ),
      ...(record.repliedAt ? { at: record.repliedAt } : {}),
    };
  }
  const pressed = buttons.find((button) => button.label === record.actionUsed && button.kind !== 'reply');
  if (!pressed) return null;
  return { words: <>You pressed {pressed.label}</>, ...(record.dismissedAt ? { at: record.dismissedAt } : {}) };
}

/** "You replied: … · 11:52 PM" at the top of an answered notification. */
function Answered({ answer }: { answer: { words: VNode; at?: string } }): VNode {
  const moment = useTime();
  return (
    <p class="answered">
      <Icon name="circleCheck" />
      <span>
        {answer.words}
        {answer.at && (
          <time dateTime={answer.at} title={exactTime(answer.at, moment)}>
            {' '}
            · {rowTime(answer.at, moment)}
          </time>
        )}
      </span>
    </p>
  );
}

/**
 * The reply field and the buttons, above the body. Once answered, they are folded behind "Answer again" while it
 * still takes an answer (its reply is still open), else shown with what would answer again disabled.
 */
function AnswerControls(props: {
  details: NotificationDetails;
  answered: boolean;
  onSent: () => void;
  /** "Answer again" is open (the key r opens it too). */
  open: boolean;
  setOpen: (open: boolean) => void;
}): VNode | null {
  const { details, answered, onSent, open, setOpen } = props;
  if (!details.takesReply && details.buttons.length === 0) return null;
  const controls = (
    <>
      {details.takesReply && <ReplyForm details={details} onSent={onSent} />}
      <Buttons details={details} answered={answered && !details.takesReply} />
    </>
  );
  if (!answered || !details.takesReply) return controls;
  return (
    <div class="answer-again">
      <button type="button" class="button" aria-expanded={open} aria-controls="answer-controls" onClick={() => setOpen(!open)}>
        <Icon name="messageSquareReply" />
        <span>Answer again</span>
      </button>
      {open && <div id="answer-controls">{controls}</div>}
    </div>
  );
}

/** What Copy puts on the clipboard: the title and the body as they read, without their Markdown. */
const textOf = ({ row, bodyMarkdown }: NotificationDetails): string =>
  [titleOf(row), plainText(parseMarkdown(bodyMarkdown))].filter(Boolean).join('\n\n');

/** "Runs the command `make deploy`": what is between backticks is drawn as code, as text (never markup). */
const withCode = (text: string): Array<VNode | string> =>
  text.split('`').map((part, index) => (index % 2 === 1 ? <code key={index}>{part}</code> : part));

export function Details({ selected }: { selected: Selected }): VNode {
  const { api, events, approvals, router, theme, status, history } = useModels();
  const { remove } = useRowActions();
  const act = useAct();
  const [answering, setAnswering] = useState(false);
  const formats = useDateFormats();
  const [details, setDetails] = useState<NotificationDetails | null>(null);
  const [problem, setProblem] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  const load = useRef<() => Promise<void>>(async () => undefined);
  // Only the newest read is shown: an older one answered late would show what was before. Whoever waits for an older
  // read waits for the newest, so what follows it (the focus) comes once the details are drawn.
  const reads = useRef<{ number: number; done: Promise<void> }>({ number: 0, done: Promise.resolve() });
  const shown = useRef<NotificationDetails | null>(null);
  shown.current = details;
  const toolbar = useRef<HTMLDivElement>(null);
  const toolbarFocus = useToolbarFocus(toolbar);
  const answerFocus = useAnswerFocus(heading);

  load.current = () => {
    const number = reads.current.number + 1;
    const read = async (): Promise<void> => {
      try {
        const answer = await api.call<NotificationDetails>('GET', appPaths.notification(selected.app, selected.id));
        if (number !== reads.current.number) return reads.current.done;
        setDetails(answer);
        setProblem('');
        history.opened.value = answer.row;
      } catch (error) {
        if (number !== reads.current.number) return reads.current.done;
        setProblem(messageOf(error));
      }
    };
    reads.current = { number, done: read() };
    return reads.current.done;
  };

  /** The key r asked to reply to it: the reply field takes the focus ("Answer again" opens), or it says it takes none. */
  const replyAsked = (): boolean => {
    if (history.replyWanted.peek() !== recordKey(selected.app, selected.id) || !shown.current) return false;
    history.replyWanted.value = null;
    if (!shown.current.takesReply) {
      status.say('This notification takes no reply.');
      return false;
    }
    setAnswering(true);
    focusWhenDrawn(() => document.getElementById('reply-text'));
    return true;
  };
  void history.replyWanted.value; // drawn again when r is pressed with the details open
  useEffect(() => void replyAsked(), [history.replyWanted.value]);

  useEffect(() => {
    setDetails(null);
    setProblem('');
    void load.current().then(() => replyAsked() || heading.current?.focus({ preventScroll: true }));
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
      history.opened.value = null;
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
  /** Another program's notification, kept from the desktop: read-only here. */
  const fromProgram = row.state.program === true;
  const answer = answerOf(details);

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

  const dismiss = async (): Promise<void> => {
    try {
      const answer = await api.call<DismissAnswer>('POST', appPaths.dismiss(where.app, where.id));
      history.offerUndo('Dismissed: its banner is closed.', answer.undo);
    } catch (error) {
      status.sayError(error);
    }
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
          <span class="badges">
            <PriorityMark priority={row.priority} />
            <StateBadges state={row.state} />
          </span>
        </div>
      </header>

      {fromProgram && <ProgramNote details={details} />}
      {answer && !fromProgram && <Answered answer={answer} />}

      <div class="toolbar" role="group" aria-label="This notification" ref={toolbar} onFocusIn={toolbarFocus}>
        <ToolButton icon="mail" label="Mark as unread" onClick={() => void markUnread()} />
        {fromProgram ? (
          // Its banner is the program's: showing it again, closing or snoozing it is not Notifier's to do.
          <>
            {notification.url && isOpenableLink(notification.url) && (
              <a class="button button-quiet" href={notification.url} target="_blank" rel="noopener noreferrer">
                <Icon name="globe" />
                <span>Open link</span>
              </a>
            )}
            <ToolButton icon="copy" label="Copy" onClick={() => void copyText(status, textOf(details), 'The notification')} />
          </>
        ) : (
          <>
            <ToolButton
              icon="monitorUp"
              label="Show again"
              onClick={() => void act(() => api.call('POST', appPaths.reshow(where.app, where.id)), 'Shown again.')}
            />
            {!record.dismissedAt && !row.state.held && <ToolButton icon="eyeOff" label="Dismiss" onClick={() => void dismiss()} />}
            <SnoozeMenu selected={where} snoozedUntil={row.state.snoozedUntil} />
          </>
        )}
        <ToolButton icon="trash" label="Delete" onClick={() => void remove([row])} />
      </div>

      {shownQuestions.length > 0 && (
        <section class="section" aria-labelledby="questions-heading">
          <h3 id="questions-heading">Waiting for your answer</h3>
          {shownQuestions.map((question) => (
            <QuestionCard key={question.id} question={question} headingLevel={3} />
          ))}
        </section>
      )}

      <AnswerControls
        details={details}
        answered={answer !== null}
        onSent={() => void load.current()}
        open={answering}
        setOpen={setAnswering}
      />

      {details.bodyMarkdown && <Markdown class="details-body" text={details.bodyMarkdown} headingLevel={3} />}
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
