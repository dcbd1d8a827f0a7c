// History as the person's app lists it (docs/app.md#history): one row per record, with its read state and what
// became of it in a few words — waiting for an answer, replied, snoozed, failed, held back, dismissed, relayed.

import { type HeldReason, type HistoryRow, MARKED_PRIORITIES, type MarkedPriority, type RowState } from '../../../protocol/app-api.js';
import { parseMarkdown, plainText } from '../../../protocol/markdown.js';
import { buttonKind, isDesktopApp, isRelayedApp } from '../../../protocol/notification-rules.js';
import { HELD, SPEECH_SUPPRESSED, type HistoryRecord } from '../../../protocol/types.js';
import type { Template } from '../../../templates-renderer/model.js';
import { type LiveButton, liveButtons } from '../templates/live-actions.js';

/**
 * How long a question can be answered after it was delivered (a reply typed, an answer button pressed), even
 * after its banner closed: our choice (docs/app.md#read-and-unread), the relay's own memory of a notification.
 */
export const ANSWERABLE_FOR_MS = 24 * 60 * 60 * 1000;

/** A row's first line: at most this many characters of the body's first line. */
const FIRST_LINE_CHARS = 200;
/**
 * How much of a body is read for its first line: its lines up to this many characters (a code block or a list may
 * start before its first line of text, and a History page makes many rows at once).
 */
const FIRST_LINE_SOURCE_CHARS = 2000;
/** ...and never more than this many in all: a body of one long line is not read whole for a 200-character row. */
const FIRST_LINE_MOST_CHARS = 4000;

/** What the rows are made from: the core's parts, named so this file imports none of them. */
export interface RowSources {
  appName(app: string): string;
  isRead(record: HistoryRecord): boolean;
  /** The saved template a notification names, if any (its buttons are the banner's). */
  template(app: string, name: string | undefined): Template | undefined;
  /** An approval question waits for the person, asked by this notification's button or follow-up. */
  asking(app: string, id: string): boolean;
  now(): number;
}

/** The first line of a Markdown body as plain text, without its marks ("• " before a list's item). */
export function firstLineOf(body: string | undefined): string {
  const text = body ?? '';
  const end = text.indexOf('\n', FIRST_LINE_SOURCE_CHARS);
  const plain = plainText(parseMarkdown(text.slice(0, end < 0 ? FIRST_LINE_MOST_CHARS : Math.min(end, FIRST_LINE_MOST_CHARS))));
  const line = plain.split('\n').find((shown) => shown.trim() !== '') ?? '';
  return line.trim().slice(0, FIRST_LINE_CHARS);
}

/** Why a record failed, in a few words: its action's note, its follow-up's failure, or speech that could not play. */
export function failureOf(record: HistoryRecord): string | undefined {
  if (record.actionNote) return record.actionNote;
  if (record.followUp?.outcome === 'failed') return `${record.followUp.action}: ${record.followUp.detail ?? 'failed'}`;
  if (record.speech?.suppressed === SPEECH_SUPPRESSED.unavailable) return 'speech: no speech engine could say it';
  return undefined;
}

const heldReason = (held: string | undefined): HeldReason | undefined =>
  held === HELD.quietHours ? 'quietHours' : held === HELD.appMuted ? 'appMuted' : undefined;

/**
 * A notification that came through the cloud relay: its app id is a relayed agent's (`cloud.`), which no local app
 * may take (docs/api/apps.md#a1) — unlike its metadata, which a local sender writes as it likes.
 */
export const isRelayed = (record: HistoryRecord): boolean => isRelayedApp(record.app);

export class RowMaker {
  constructor(private readonly sources: RowSources) {}

  /** The banner's buttons: the notification's, or its saved template's. */
  buttons(record: HistoryRecord): LiveButton[] {
    return liveButtons(record.notification, this.sources.template(record.app, record.notification.template));
  }

  /** The reply button, while the question can still be answered; null otherwise. */
  replyButton(record: HistoryRecord): LiveButton | null {
    if (!this.answerable(record)) return null;
    return this.buttons(record).find((live) => buttonKind(live.button) === 'reply') ?? null;
  }

  /** Until when the notification can be answered. */
  answerableUntil(record: HistoryRecord): string {
    return new Date(Date.parse(record.deliveredAt) + ANSWERABLE_FOR_MS).toISOString();
  }

  state(record: HistoryRecord): RowState {
    const failed = failureOf(record);
    const held = heldReason(record.held);
    return {
      ...(this.waiting(record) ? { waiting: true } : {}),
      ...(record.reply !== undefined ? { replied: true } : {}),
      ...(record.snoozedUntil ? { snoozedUntil: record.snoozedUntil } : {}),
      ...(failed ? { failed } : {}),
      ...(held ? { held } : {}),
      ...(record.dismissedAt ? { dismissed: true } : {}),
      ...(isRelayed(record) ? { relayed: true } : {}),
      ...(isDesktopApp(record.app) ? { program: true } : {}),
    };
  }

  row(record: HistoryRecord): HistoryRow {
    const { notification } = record;
    return {
      app: record.app,
      appName: this.sources.appName(record.app),
      id: record.id,
      title: notification.title ?? '',
      firstLine: firstLineOf(notification.body),
      deliveredAt: record.deliveredAt,
      read: this.sources.isRead(record),
      state: this.state(record),
      ...(MARKED_PRIORITIES.includes(notification.priority as MarkedPriority) ? { priority: notification.priority as MarkedPriority } : {}),
    };
  }

  /**
   * Waiting for the person (docs/app.md#history): an approval question it asked is open; or, not yet answered and
   * still answerable, it has a reply field, or its sender says it waits for an answer (`metadata.needsInput`, a
   * relayed agent's `expectReply`). Buttons alone are not waiting: "Build passed" with a Retry asks nothing. A
   * relayed notification always carries Reply, so there only the agent's word counts.
   */
  waiting(record: HistoryRecord): boolean {
    if (this.sources.asking(record.app, record.id)) return true;
    if (record.reply !== undefined || !this.answerable(record)) return false;
    const buttons = this.buttons(record);
    if (buttons.some((live) => live.button.label === record.actionUsed)) return false;
    if (record.notification.metadata?.needsInput === true) return true;
    return !isRelayed(record) && buttons.some((live) => buttonKind(live.button) === 'reply');
  }

  private answerable(record: HistoryRecord): boolean {
    return this.sources.now() - Date.parse(record.deliveredAt) < ANSWERABLE_FOR_MS;
  }
}
