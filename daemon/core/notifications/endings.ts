// How a banner ended, as a wait for its answer reports it (docs/api/replies.md#r7, `ended`): the History record's
// `actionUsed`, and the button the person pressed when it was one of the notification's own.

import { buttonKind } from '../../../protocol/notification-rules.js';
import type { HistoryRecord } from '../../../protocol/types.js';
import type { Template } from '../../../templates-renderer/model.js';
import { liveButtons } from '../templates/live-actions.js';

/** The `actionUsed` of the endings that are not a button (docs/api/history.md#h4). */
const NOT_A_BUTTON = new Set(['dismiss', 'close', 'timeout', 'open']);

/** A wait answered because the banner ended without a reply. */
export interface WaitEnded {
  replied: false;
  ended: true;
  endedAt: string;
  /** As History records it; absent for a notification that was only spoken. */
  actionUsed?: string;
  /** The label of the button the person pressed, when that is how it ended. */
  button?: string;
}

/**
 * The ending of a record that has one (`dismissedAt`). A button counts when `actionUsed` is the label of one of the
 * banner's buttons (a template's included) other than a reply button, unless the follow-up ran it (the person was
 * away) or the label is one of the other endings' words, which History cannot tell apart from them.
 */
export function endingOf(record: HistoryRecord, template: Template | undefined): WaitEnded {
  const { actionUsed, followUp } = record;
  const byFollowUp = followUp?.outcome === 'ran' && followUp.action === actionUsed;
  const pressed =
    actionUsed !== undefined &&
    !NOT_A_BUTTON.has(actionUsed) &&
    !byFollowUp &&
    liveButtons(record.notification, template).some((live) => live.button.label === actionUsed && buttonKind(live.button) !== 'reply');
  return {
    replied: false,
    ended: true,
    endedAt: record.dismissedAt!,
    ...(actionUsed !== undefined ? { actionUsed } : {}),
    ...(pressed ? { button: actionUsed } : {}),
  };
}
