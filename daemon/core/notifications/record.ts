// The notify pipeline's third step (docs/architecture.md, "One notification's way"): the History record of a
// notification as it was delivered, put in History. The put is started here and awaited by the pipeline once the
// banner is up, so both are one tick's change and the answer waits for the disk.

import type { HistoryRecord } from '../../../protocol/types.js';
import type { History } from '../history/history.js';
import { speechRecord } from '../voice/speech.js';
import type { Delivery } from './delivery.js';
import type { Prepared } from './prepare.js';

/** The record: what was delivered, how its banner began (shown, held, done, or already dismissed), its speech. */
export function recordOf(prepared: Prepared, delivery: Delivery): HistoryRecord {
  const { id, app, notification, deliveredAt, imagePath, recording, fields, dismissedAt } = prepared;
  const banner =
    delivery.banner === 'dismissed'
      ? { dismissedAt: dismissedAt!, actionUsed: 'dismiss' }
      : delivery.banner === 'held'
        ? { held: delivery.held! }
        : delivery.banner === 'spokenOnly'
          ? { dismissedAt: deliveredAt } // a notification only spoken has no banner to close later
          : {};
  return {
    id,
    app,
    notification,
    deliveredAt,
    ...banner,
    ...(imagePath ? { imagePath } : {}),
    ...(recording ? { recordingPath: recording } : {}),
    fields,
    ...(delivery.speechWanted ? { speech: speechRecord(notification, delivery.speechBlocked) } : {}),
  };
}

export interface KeepParts {
  history: Pick<History, 'put'>;
}

/**
 * The record of a notification as it was delivered, put in History in place of an earlier one with its id
 * (docs/api/notifications.md#n3; the screen stops the earlier one's snooze, follow-up and speech when it presents
 * this one); `saved` settles once it is on disk.
 */
export function keep(prepared: Prepared, delivery: Delivery, parts: KeepParts): { record: HistoryRecord; saved: Promise<void> } {
  const record = recordOf(prepared, delivery);
  return { record, saved: parts.history.put(record) };
}
