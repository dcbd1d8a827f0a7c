import { log } from '../../log.js';
import type { Actions } from './actions.js';
import type { Designs } from '../templates/designs.js';
import type { History } from '../history/history.js';
import { buttonKind, normalizeButton } from '../../../protocol/notification-rules.js';
import type { Timers } from '../timers.js';
import { type Button, FOLLOW_UP_KINDS, type FollowUp, type HistoryRecord } from '../../../protocol/types.js';
import { recordKey } from '../../../protocol/record-key.js';

type FollowUpRecord = NonNullable<HistoryRecord['followUp']>;

/**
 * Follow-ups (docs/api/notifications.md#follow-up-object): one action that runs when a banner is left unattended. Armed when the
 * banner is on screen; cancelled by a dismissal, a button, a reply or a click; restarted when a snoozed banner
 * returns; at most once per notification (the History `followUp` record says it fired). Timers live in memory
 * only and are dropped when the service quits (docs/api/notifications.md#n27).
 */
export class FollowUps {
  private readonly armedAt = new Map<string, number>();

  constructor(
    private readonly timers: Timers,
    private readonly history: History,
    private readonly designs: Designs,
    private readonly actions: Actions,
    private readonly banner: {
      /** Closes a banner and records `actionUsed` (the core's `endBanner`). */
      end(app: string, id: string, actionUsed: string): Promise<void>;
      /** Shows the person what went wrong (the core's `showProblem`). */
      showProblem(app: string, id: string, problem: string): void;
    },
  ) {}

  arm(record: HistoryRecord): void {
    if (record.followUp) return; // docs/api/notifications.md#n24: it already ran (or tried to)
    const followUp = this.effective(record);
    if (!followUp || followUp.enabled === false || followUp.after === undefined) return;
    const key = recordKey(record.app, record.id);
    this.armedAt.set(key, Date.now());
    const template = this.templateOrigin(record, followUp);
    this.timers.after('followUp', key, followUp.after * 1000, () => void this.fire(record.app, record.id, followUp, template));
  }

  cancel(app: string, id: string): void {
    const key = recordKey(app, id);
    this.timers.cancel('followUp', key);
    this.armedAt.delete(key);
  }

  /** docs/api/notifications.md#n22: the template's follow-up, then the notification's, then the manifest's. */
  private effective(record: HistoryRecord): FollowUp | undefined {
    const template = this.designs.template(record.app, record.notification.template);
    return template?.followUp ?? record.notification.followUp ?? this.designs.manifest(record.app)?.followUp;
  }

  /** A template's inline action is the template's own code: its approval, not the app's permission, gates it. */
  private templateOrigin(record: HistoryRecord, followUp: FollowUp): string | undefined {
    const template = this.designs.template(record.app, record.notification.template);
    return template?.followUp === followUp && followUp.action ? template.name : undefined;
  }

  private async fire(app: string, id: string, followUp: FollowUp, template: string | undefined): Promise<void> {
    const key = recordKey(app, id);
    const unattendedSeconds = Math.round((Date.now() - (this.armedAt.get(key) ?? Date.now())) / 1000);
    this.armedAt.delete(key);
    const record = this.history.get(app, id);
    if (!record || record.dismissedAt || record.followUp) return;
    const button = this.resolve(record, followUp);
    if (!button) {
      log.warn(`[${app}] ${id}: the follow-up names no action this notification has`);
      return;
    }
    const kind = buttonKind(button);
    const base = { ranAt: new Date().toISOString(), action: button.label, actionId: button.id ?? button.label, kind, unattendedSeconds };
    if (!(FOLLOW_UP_KINDS as readonly string[]).includes(kind)) {
      // docs/api/notifications.md#n21, for a follow-up named by a manifest: links, apps and replies need the person at the banner.
      const detail = `a follow-up cannot be a '${kind}' action`;
      await this.record(app, id, { ...base, outcome: 'failed', detail });
      this.banner.showProblem(app, id, `Follow-up ${button.label} did not work: ${detail}`);
      return;
    }
    const outcome = await this.actions.perform({
      record,
      button,
      followUp: { unattendedSeconds },
      ...(template !== undefined ? { template } : {}),
      waiting: () => void this.record(app, id, { ...base, outcome: 'waitingForApproval' }),
    });
    await this.record(app, id, outcome.ok ? { ...base, outcome: 'ran' } : { ...base, outcome: 'failed', detail: outcome.reason });
    // docs/api/replies.md#r11: a callback answered with a 2xx closes the banner, whoever sent it.
    if (outcome.ok && kind === 'callback') await this.banner.end(app, id, button.label);
    // docs/api/notifications.md#n48: a failure is shown, not only recorded.
    if (!outcome.ok) this.banner.showProblem(app, id, `Follow-up ${button.label} did not work: ${outcome.reason}`);
  }

  /** `actionRef` names one of the notification's buttons or the manifest's actions; `action` is written inline. */
  private resolve(record: HistoryRecord, followUp: FollowUp): Button | undefined {
    if (followUp.action) {
      const { kind, ...inline } = followUp.action;
      return normalizeButton({ ...inline, kind } as Button & { kind: string }, 'followUp.action');
    }
    const wanted = followUp.actionRef!.toLowerCase();
    const offered = [...(record.notification.buttons ?? []), ...(this.designs.manifest(record.app)?.actions ?? [])];
    const found = offered.find((button) => button.id?.toLowerCase() === wanted || button.label?.toLowerCase() === wanted);
    return found && normalizeButton(found, 'followUp.actionRef');
  }

  private async record(app: string, id: string, followUp: FollowUpRecord): Promise<void> {
    await this.history.update(app, id, (record) => ({ ...record, followUp }));
  }
}
