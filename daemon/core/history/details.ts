// One notification as the person's app shows it (docs/app.md#a-notifications-details): its whole body, its
// buttons and what each does in plain words, whether it takes a reply, its card, the questions it asked, what
// became of its actions, and, for a relayed one, the receipts this computer sent.

import type { ButtonDescription, CallbackAttempt, NotificationDetails, RelayReceipt } from '../../../protocol/app-api.js';
import type { ApprovalQuestion } from '../../../protocol/app-api-approvals.js';
import { buttonKind } from '../../../protocol/notification-rules.js';
import { codeOf } from '../approvals/approvals.js';
import type { Button, HistoryRecord } from '../../../protocol/types.js';
import { idOf, type LiveButton } from '../templates/live-actions.js';
import type { RowMaker } from './rows.js';

export interface DetailSources {
  rows: RowMaker;
  /** The questions waiting that this notification asked. */
  questions(app: string, id: string): ApprovalQuestion[];
  /** It has a card picture (a template or a layout draws it). */
  hasCard(record: HistoryRecord): boolean;
  /** The app's registered callback URL (a callback button without its own URL posts there). */
  callbackURL(app: string): string | undefined;
  /** The receipts of a relayed notification; undefined for one that was not relayed. */
  receipts(record: HistoryRecord): RelayReceipt[] | undefined;
  /** Whether a button's code may run: as it is, after the person's approval (`asksFirst`), or not (`refused`). */
  codeGate(record: HistoryRecord, live: LiveButton): Pick<ButtonDescription, 'asksFirst' | 'refused'>;
}

/** What says whether an app's or a template's code may run (the same facts daemon/core/actions/actions.ts goes by). */
export interface CodeGateParts {
  /** The app registered with `allowCommands: true`. */
  asksToRunCode(app: string): boolean;
  commandsAllowed(app: string): boolean;
  requestDeclined(app: string): boolean;
  templateCodeApproved(app: string, template: string, code: string): boolean;
  appName(app: string): string;
}

/**
 * Whether a button's code (a command, a script, a shortcut) may run when pressed: as it is, after the person is
 * asked (`asksFirst`), or not at all (`refused`, in words): the app never asked to run code, or the person denied its
 * request (a press would ask again, but a "no" is remembered: the window does not offer what was refused).
 */
export function codeGate(parts: CodeGateParts): DetailSources['codeGate'] {
  return (record, live) => {
    const kind = buttonKind(live.button);
    if (kind !== 'command' && kind !== 'script' && kind !== 'shortcut') return {};
    const { app } = record;
    if (live.template !== undefined) return parts.templateCodeApproved(app, live.template, codeOf(live.button)) ? {} : { asksFirst: true };
    const name = parts.appName(app);
    if (!parts.asksToRunCode(app)) return { refused: `${name} did not ask to run commands, scripts and shortcuts on this computer.` };
    if (parts.commandsAllowed(app)) return {};
    if (parts.requestDeclined(app)) return { refused: `You denied ${name} running commands, scripts and shortcuts on this computer.` };
    return { asksFirst: true };
  };
}

/** What a button does, in the words the person reads next to it. */
export function whatItDoes(live: LiveButton, callbackURL: string | undefined): string {
  const button: Button = live.button;
  if (live.snoozeMinutes !== undefined) return `Snoozes it for ${live.snoozeMinutes} minutes`;
  switch (buttonKind(button)) {
    case 'url':
      return `Opens ${button.url}`;
    case 'command':
      return `Runs the command \`${button.command}\``;
    case 'script':
      return `Runs the script ${button.script}${button.input ? ` with ${button.input}` : ''}`;
    case 'shortcut':
      return `Runs the shortcut ${button.shortcut}${button.input ? ` with ${button.input}` : ''}`;
    case 'callback': {
      const url = button.callback?.url ?? callbackURL;
      return url ? `Tells ${url} what you chose` : 'Tells the app what you chose';
    }
    case 'openApp':
      return `Opens ${button.openApp?.bundleId ?? button.openApp?.path ?? 'the app that sent it'}`;
    case 'reply':
      return 'Asks for a reply';
    case 'dismiss':
      return 'Closes the notification';
  }
}

/** The record's follow-up and the note its last action left, as attempts the person can read. */
function attemptsOf(record: HistoryRecord): CallbackAttempt[] {
  const attempts: CallbackAttempt[] = [];
  const { followUp, actionNote } = record;
  if (followUp) {
    attempts.push({
      action: followUp.action,
      outcome: followUp.outcome,
      ...(followUp.detail ? { detail: followUp.detail } : {}),
      at: followUp.ranAt,
    });
  }
  if (actionNote) {
    const colon = actionNote.indexOf(': ');
    const [action, detail] =
      colon > 0 ? [actionNote.slice(0, colon), actionNote.slice(colon + 2)] : [record.actionUsed ?? 'action', actionNote];
    attempts.push({ action, outcome: 'failed', detail });
  }
  return attempts;
}

export function detailsOf(record: HistoryRecord, sources: DetailSources): NotificationDetails {
  const { rows } = sources;
  const callbackURL = sources.callbackURL(record.app);
  const buttons: ButtonDescription[] = rows.buttons(record).map((live) => ({
    actionId: idOf(live),
    label: live.button.label,
    kind: buttonKind(live.button),
    what: whatItDoes(live, callbackURL),
    ...sources.codeGate(record, live),
  }));
  const reply = rows.replyButton(record);
  const attempts = attemptsOf(record);
  const receipts = sources.receipts(record);
  return {
    row: rows.row(record),
    record,
    bodyMarkdown: record.notification.body ?? '',
    buttons,
    takesReply: reply
      ? {
          ...(reply.button.reply?.placeholder ? { placeholder: reply.button.reply.placeholder } : {}),
          until: rows.answerableUntil(record),
          actionId: idOf(reply),
        }
      : null,
    hasCard: sources.hasCard(record),
    questions: sources.questions(record.app, record.id),
    ...(attempts.length > 0 ? { callbackAttempts: attempts } : {}),
    ...(receipts ? { receipts } : {}),
  };
}
