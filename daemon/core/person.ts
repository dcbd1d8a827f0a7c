import { MAX_REPLY_BYTES } from '../../protocol/limits.js';
import { buttonKind, isOpenableLink } from '../../protocol/notification-rules.js';
import { cutUTF8 } from '../../protocol/text.js';
import type { HistoryRecord } from '../../protocol/types.js';
import { log } from '../log.js';
import type { Presenter, PresenterEvent } from '../present/presenter.js';
import type { Actions } from './actions/actions.js';
import type { Approvals } from './approvals/approvals.js';
import type { FollowUps } from './actions/follow-ups.js';
import type { History } from './history/history.js';
import type { Banners } from './notifications/banners.js';
import type { ReplyQueue } from './notifications/replies.js';
import type { Screen } from './notifications/screen.js';
import type { ConnectorApprovals } from './relay/connectors.js';
import type { Designs } from './templates/designs.js';
import { idOf, type LiveButton, liveButtons } from './templates/live-actions.js';
import { timestamp } from './timers.js';
import { recordKey } from '../../protocol/record-key.js';

/** What the person's side needs of the service (the core gives it). */
export interface PersonHost {
  readonly approvals: Pick<Approvals, 'answer'>;
  readonly connectors: Pick<ConnectorApprovals, 'isAsking' | 'answer'>;
  readonly banners: Pick<Banners, 'forget' | 'collapsedWith'>;
  readonly designs: Pick<Designs, 'template'>;
  readonly history: Pick<History, 'get' | 'update'>;
  readonly followUps: Pick<FollowUps, 'cancel'>;
  readonly presenter: Pick<Presenter, 'open'>;
  readonly replies: Pick<ReplyQueue, 'add'>;
  readonly screen: Pick<Screen, 'snooze' | 'end' | 'note' | 'showProblem'>;
}

/**
 * What the person does to a banner, as the presenter reports it: close it, click it, press a button, type a
 * reply. Only the person can: these come from the display, never from the API. Any of them cancels the
 * banner's follow-up (docs/api/notifications.md#n23).
 */
export class PersonSide {
  /** Banners whose action is still running: a second press meanwhile is ignored (docs/api/replies.md#r14). */
  private readonly busy = new Set<string>();
  private readonly actedListeners = new Set<(app: string, id: string) => void>();

  constructor(
    private readonly core: PersonHost,
    private readonly actions: Actions,
  ) {}

  /** Calls back when the person acted on a notification (clicked it, pressed a button, replied); returns a function that stops. */
  onActed(listener: (app: string, id: string) => void): () => void {
    this.actedListeners.add(listener);
    return () => this.actedListeners.delete(listener);
  }

  handle(event: PresenterEvent): void {
    if (event.type === 'answered') {
      // The display's own Allow/Deny (a connector's Approve/Deny): the same answer the private channel carries.
      const { connectors } = this.core;
      const answered = connectors.isAsking(event.questionId)
        ? connectors.answer(event.questionId, event.allow)
        : this.core.approvals.answer(event.questionId, event.allow);
      answered.catch((error: Error) => log.error(`could not record an answer: ${error.message}`));
      return;
    }
    const { app, id } = event.key;
    this.act(event).catch((error: Error) => log.error(`[${app}] ${id}: could not record what the person did: ${error.message}`));
  }

  /**
   * What the person did to a banner, or the same done in the person's app (docs/app.md): one path for both.
   * Resolves when it is done; a button's action and a reply's callback go on after that.
   */
  act(event: Exclude<PresenterEvent, { type: 'answered' }>): Promise<void> {
    const { app, id } = event.key;
    if (event.type === 'clicked' || event.type === 'button' || event.type === 'replied') {
      for (const listener of this.actedListeners) listener(app, id);
    }
    switch (event.type) {
      case 'snoozed':
        return this.core.screen.snooze(app, id, event.minutes).then(() => undefined);
      case 'closed':
        return this.closed(app, id, event.reason);
      case 'clicked':
        return this.clicked(app, id);
      case 'button':
        return this.pressed(app, id, event.actionId);
      case 'replied':
        return this.replied(app, id, event.actionId, event.text);
      case 'failed':
        return this.failed(app, id, event.label, event.reason);
    }
  }

  /**
   * The display closed a banner: its time was up, or the person closed it. Closing a collapsed stack's banner
   * closes every banner it stands for (docs/api/notifications.md#n47).
   */
  private async closed(app: string, id: string, reason: 'dismissed' | 'expired'): Promise<void> {
    const collapsed = reason === 'dismissed' ? this.core.banners.collapsedWith(app, id) : [];
    for (const key of collapsed) this.core.banners.forget(key.app, key.id);
    this.core.banners.forget(app, id);
    const actionUsed = reason === 'expired' ? 'timeout' : 'close';
    await Promise.all([{ app, id }, ...collapsed].map((key) => this.core.screen.end(key.app, key.id, actionUsed)));
  }

  /**
   * A click opens the notification's link (http, https, mailto only) and closes the banner with `open`; a link
   * that cannot be opened is noted, and the person sees why ("Could not open the link: xdg-open is not installed").
   */
  private async clicked(app: string, id: string): Promise<void> {
    const record = this.core.history.get(app, id);
    if (!record) return;
    this.core.followUps.cancel(app, id);
    const url = record.notification.url;
    let failure: string | null = null;
    if (url && isOpenableLink(url)) {
      failure = await this.core.presenter.open({ url }).then(
        () => null,
        (error: Error) => error.message,
      );
      if (failure) await this.core.screen.note(app, id, `open: ${failure}`);
    }
    await this.core.screen.end(app, id, 'open');
    if (failure) this.core.screen.showProblem(app, id, `Could not open the link: ${failure}`);
  }

  /**
   * A button does what it says; when it did, the banner closes with the button's label as `actionUsed`; when it
   * failed, the record's `actionNote` and the banner, drawn again, say why. A template's snooze action snoozes.
   */
  private async pressed(app: string, id: string, actionId: string): Promise<void> {
    const found = this.find(app, id, actionId);
    if (!found) return;
    const { record, live } = found;
    const { button } = live;
    if (buttonKind(button) === 'reply') return; // the display collects the text and reports a `replied` event
    if (live.snoozeMinutes !== undefined) return void (await this.core.screen.snooze(app, id, live.snoozeMinutes));
    const key = recordKey(app, id);
    if (this.busy.has(key)) return;
    this.core.followUps.cancel(app, id);
    this.busy.add(key);
    try {
      const outcome = await this.actions.perform({ record, button, ...(live.template !== undefined ? { template: live.template } : {}) });
      if (outcome.ok) await this.core.screen.end(app, id, button.label);
      else await this.failed(app, id, button.label, outcome.reason);
    } finally {
      this.busy.delete(key);
    }
  }

  /** An action that could not do its job: History's `actionNote`, and the person sees it (docs/desktop.md). */
  private async failed(app: string, id: string, label: string, reason: string): Promise<void> {
    await this.core.screen.note(app, id, `${label}: ${reason}`);
    this.core.screen.showProblem(app, id, `${label} did not work: ${reason}`);
  }

  /**
   * A reply (trimmed, at most 4000 bytes) goes on the record and into the app's queue, where a waiting
   * `replies/wait` gets it at once; once it is stored the banner closes with the button's label, so the person
   * sees it was taken (docs/api/replies.md#r4). Then it goes to the reply button's callback, if it has one.
   */
  private async replied(app: string, id: string, actionId: string, typed: string): Promise<void> {
    const text = cutUTF8(typed.trim(), MAX_REPLY_BYTES);
    const found = this.find(app, id, actionId);
    if (!found || text === '') return;
    const { record } = found;
    const { button } = found.live;
    this.core.followUps.cancel(app, id);
    const repliedAt = timestamp();
    const title = record.notification.title;
    // Both changes are made in this same tick, so they reach the disk in one batch and are seen together.
    await Promise.all([
      this.core.history.update(app, id, (current) => ({ ...current, reply: text, repliedAt })),
      this.core.replies.add({ notificationId: id, app, ...(title ? { title } : {}), text, repliedAt }),
    ]);
    await this.core.screen.end(app, id, button.label);
    // The reply is taken; its callback (which may wait for the person to approve its host) goes on by itself.
    void this.actions
      .postReply({ record, button, replyText: text })
      .then((outcome) => (outcome && !outcome.ok ? this.failed(app, id, button.label, outcome.reason) : undefined))
      .catch((error: Error) => log.error(`[${app}] ${id}: the reply's callback failed: ${error.message}`));
  }

  /** The button the person used: one of the banner's, the template's included (docs/api/templates.md#t11). */
  private find(app: string, id: string, actionId: string): { record: HistoryRecord; live: LiveButton } | undefined {
    const record = this.core.history.get(app, id);
    const template = record && this.core.designs.template(app, record.notification.template);
    const live = record && liveButtons(record.notification, template).find((candidate) => idOf(candidate) === actionId);
    if (!record || !live) {
      log.warn(`[${app}] ${id}: the person used "${actionId}", which this notification does not have`);
      return undefined;
    }
    return { record, live };
  }
}
