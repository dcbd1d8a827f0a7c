// What the window's own parts are (the person's app, `/app`): History's rows, windows and details, the sessions,
// the live events, the approvals as the window shows them, where the daemon is, and how a window is opened on the
// desktop. The window's routes are given them beside the core's parts (daemon/http/services.ts).

import type { AppPage } from '../../../protocol/app-api.js';
import type { ApprovalsAnswer } from '../../../protocol/app-api-approvals.js';
import type { OpenResult } from '../../core/core.js';
import type { DetailSources } from '../../core/history/details.js';
import type { HistoryPages } from '../../core/history/history-pages.js';
import type { RowMaker } from '../../core/history/rows.js';
import type { EventHub } from './events.js';
import type { Sessions } from './sessions.js';
import type { UndoShelf } from './undo.js';

/** Where a script reaches this daemon (the first-run view). */
export interface DaemonPlace {
  supportDir: string;
  port: () => number;
}

export interface WindowParts {
  rows: RowMaker;
  pages: HistoryPages;
  details: DetailSources;
  sessions: Sessions;
  events: EventHub;
  /** What the person can take back for a while: deletions, Mark all read, dismissals. */
  undo: UndoShelf;
  /** What waits for the person's approval, what they granted, and the connector requests (docs/app.md#approvals). */
  approvalsView(): ApprovalsAnswer;
  place(): DaemonPlace;
  /** Opens the person's app on the desktop at a page (docs/app.md#how-it-opens). */
  openApp(page: AppPage): Promise<OpenResult>;
}
