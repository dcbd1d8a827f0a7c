// What the person does to rows from the list (a row's own actions, the selection, the keys, the groups by app):
// mark them read or unread, delete them (with Undo), mark all read (with Undo), clear an app's History (asked
// first). Each says how it went; rows whose details are open and that the person marks unread or deletes close their
// details, as Mark as unread and Delete there do.

import type { HistoryRow } from '../../../protocol/app-api.js';
import { useModels } from '../models/context.js';
import { titleOf } from '../models/history.js';
import { pageHref } from '../models/router.js';
import { focusList } from './focus.js';

const many = (count: number): string => (count === 1 ? '1 notification' : `${count.toLocaleString()} notifications`);

export interface RowActions {
  markRead(rows: HistoryRow[], read: boolean): Promise<void>;
  /** Deletes at once, offering Undo. */
  remove(rows: HistoryRow[]): Promise<void>;
  /** Mark all read, of one app or of all, offering Undo. */
  markAllRead(app?: { app: string; appName: string }): Promise<void>;
  /** Deletes every notification of one app, or of every app, asked first. */
  deleteAll(app?: { app: string; appName: string }): Promise<void>;
}

export function useRowActions(): RowActions {
  const { history, apps, confirm, status, router } = useModels();
  /** The open details go when their row is marked unread or deleted. */
  const closeDetailsOf = (rows: HistoryRow[]): void => {
    const open = router.route.peek().selected;
    if (open && rows.some((row) => row.app === open.app && row.id === open.id)) {
      router.navigate(pageHref('history'));
      focusList();
    }
  };
  return {
    async markRead(rows, read) {
      try {
        await history.setRead(rows, read);
        status.say(
          rows.length === 1 ? `Marked as ${read ? 'read' : 'unread'}.` : `${many(rows.length)} marked as ${read ? 'read' : 'unread'}.`,
        );
        if (!read) closeDetailsOf(rows);
      } catch (error) {
        status.sayError(error);
      }
    },
    async remove(rows) {
      if (rows.length === 0) return;
      try {
        // At once, with Undo for a while, rather than "Are you sure?" first.
        await history.remove(rows, rows.length === 1 ? `Deleted “${titleOf(rows[0]!)}”.` : `Deleted ${many(rows.length)}.`);
        closeDetailsOf(rows);
        history.clearSelection();
      } catch (error) {
        status.sayError(error);
      }
    },
    async markAllRead(app) {
      try {
        await history.markAllRead(app?.app, app ? `All of ${app.appName} marked as read.` : 'All marked as read.');
      } catch (error) {
        status.sayError(error);
      }
    },
    async deleteAll(app) {
      const yes = await confirm.ask({
        title: app ? `Delete all of ${app.appName}?` : 'Delete all of History?',
        message: app
          ? `Every notification from ${app.appName} will be removed from History. This cannot be undone.`
          : 'Every notification of every app will be removed from History. This cannot be undone.',
        confirm: 'Delete all',
      });
      if (!yes) return;
      try {
        await history.clear(app?.app);
        status.say(app ? `History of ${app.appName} deleted.` : 'History deleted.');
        void apps.load();
      } catch (error) {
        status.sayError(error);
      }
    },
  };
}
