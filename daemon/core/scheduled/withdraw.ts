// Taking back a notification its sender sent earlier: ntfy's clear and delete of a sequence id
// (docs/api/ntfy.md#nt10), on the daemon's root or through the relay (docs/api/relay-connection.md#rl36). Clear closes
// the banner and marks the notification read; delete takes it out of History, or cancels it while it waits for
// its time. Neither is an error when the notification was never there or is gone already: senders repeat them.

import { ApiError } from '../../../protocol/errors.js';
import type { History } from '../history/history.js';
import type { ReadState } from '../history/read-state.js';
import type { ScheduledNotifications } from './scheduled.js';
import type { Records } from '../notifications/records.js';
import type { Screen } from '../notifications/screen.js';

export type Withdrawal = 'clear' | 'delete';

export interface WithdrawParts {
  screen: Pick<Screen, 'dismiss'>;
  history: Pick<History, 'get'>;
  readState: Pick<ReadState, 'mark'>;
  scheduled: Pick<ScheduledNotifications, 'cancel'>;
  records: Pick<Records, 'remove'>;
}

/** Gone already, or never there: nothing to take back. */
const unlessGone = (work: Promise<void>): Promise<void> =>
  work.catch((error: unknown) => {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
  });

export async function withdraw(parts: WithdrawParts, app: string, id: string, how: Withdrawal): Promise<void> {
  if (how === 'clear') {
    await parts.screen.dismiss(app, id);
    const record = parts.history.get(app, id);
    if (record) await parts.readState.mark(record, true);
    return;
  }
  await Promise.all([unlessGone(parts.scheduled.cancel(app, id)), unlessGone(parts.records.remove(app, id))]);
}
