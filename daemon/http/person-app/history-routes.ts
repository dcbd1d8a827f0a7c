// `/app/api/history…` (docs/app.md#the-api): History as the person's notification centre — the list in windows,
// a notification's details and card, read and unread, and what the person does to a notification: reply, press
// a button, show it again, dismiss, snooze, delete, export. Replies and presses take the same path as on a banner.

import type { Request } from 'express';
import { APP_HISTORY_LIMIT, EXPORT_FORMATS, HISTORY_STATES, type HistoryPage, type HistoryStateFilter } from '../../../protocol/app-api.js';
import { errors } from '../../../protocol/errors.js';
import { buttonKind } from '../../../protocol/notification-rules.js';
import type { HistoryRecord } from '../../../protocol/types.js';
import { detailsOf } from '../../core/history/details.js';
import type { PageQuery } from '../../core/history/history-pages.js';
import { idOf } from '../../core/templates/live-actions.js';
import { log } from '../../log.js';
import { bodyFlag, bodyObject, queryText } from '../params.js';
import { snoozeMinutes } from '../routes/banners.js';
import type { ApiCall, AppContext, AppRoute } from './api-route.js';
import { historyCsv } from './export.js';

const ITEM = '/app/api/history/:app/:id';
/** The date of an ISO 8601 date or date-time: `2025-01-31`, and what follows it (`T…`, or nothing). */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(T.*)?$/;

/** Is this a day of the calendar (not the 30th of February, which Date would carry over into March)? */
function isCalendarDay(year: number, month: number, day: number): boolean {
  const probe = new Date(0);
  probe.setUTCFullYear(year, month - 1, day);
  return probe.getUTCFullYear() === year && probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day;
}

/** `from` and `to`: an ISO 8601 date (that day's start or end, local time) or date-time; as an ISO UTC time. */
function readDate(req: Request, name: 'from' | 'to'): string | undefined {
  const text = queryText(req, name);
  if (text === undefined || text === '') return undefined;
  const invalid = () => errors.invalidField(name, 'an ISO 8601 date (2025-01-31) or date-time');
  const parts = ISO_DATE.exec(text);
  if (!parts) throw invalid();
  const [year, month, day] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (!isCalendarDay(year, month, day)) throw invalid();
  let time: number;
  if (parts[4] === undefined) {
    const start = new Date(0);
    start.setFullYear(year, month - 1, name === 'from' ? day : day + 1); // setFullYear: year 99 is not 1999
    start.setHours(0, 0, 0, 0);
    time = name === 'from' ? start.getTime() : start.getTime() - 1;
  } else time = Date.parse(text);
  if (Number.isNaN(time)) throw invalid();
  return new Date(time).toISOString();
}

/** A whole number query parameter in a range. */
function readWhole(req: Request, name: string, range: { min: number; max: number; default: number }): number {
  const text = queryText(req, name);
  if (text === undefined || text === '') return range.default;
  if (!/^\d+$/.test(text) || Number(text) < range.min || Number(text) > range.max) {
    throw errors.invalidField(name, `a whole number from ${range.min} to ${range.max}`);
  }
  return Number(text);
}

/** The search and filters of the list (and of the export). */
function readQuery(req: Request): PageQuery {
  const state = (queryText(req, 'state') || 'all') as HistoryStateFilter;
  if (!HISTORY_STATES.includes(state)) throw errors.invalidChoice('state', HISTORY_STATES);
  const app = queryText(req, 'app') || undefined;
  const from = readDate(req, 'from');
  const to = readDate(req, 'to');
  return { q: queryText(req, 'q') ?? '', state, ...(app ? { app } : {}), ...(from ? { from } : {}), ...(to ? { to } : {}) };
}

/** The record a path names (its app's History loaded first); 404 when there is none. */
async function recordOf({ context, params }: ApiCall): Promise<HistoryRecord> {
  await context.core.history.load(params.app!);
  const record = context.core.history.get(params.app!, params.id!);
  if (!record) throw errors.notificationNotFound();
  return record;
}

/** The text of a reply: a string with something in it besides white space. */
function replyText(body: Record<string, unknown>): string {
  const text = body.text;
  if (text === undefined || text === null) throw errors.missingField('text');
  if (typeof text !== 'string') throw errors.invalidField('text', 'must be a string');
  if (text.trim() === '') throw errors.missingField('text', 'only white space');
  return text;
}

const unreadNow = (context: AppContext) => context.core.readState.unreadCount();

/** The person did something to this notification in the app: it is read. */
const markRead = (context: AppContext, record: HistoryRecord): Promise<void> => context.core.readState.mark(record, true);

/** `notifier-history-2025-01-31.json` */
const exportName = (format: string): string => `notifier-history-${new Date().toISOString().slice(0, 10)}.${format}`;

export function historyRoutes(): AppRoute[] {
  return [
    {
      method: 'GET',
      path: '/app/api/history',
      handle: async ({ req, context }): Promise<HistoryPage> => {
        const query = readQuery(req);
        const offset = readWhole(req, 'offset', { min: 0, max: Number.MAX_SAFE_INTEGER, default: 0 });
        const limit = readWhole(req, 'limit', { min: 1, max: APP_HISTORY_LIMIT.max, default: APP_HISTORY_LIMIT.default });
        await context.core.history.ready;
        const { total, records } = context.pages.page(query, offset, limit);
        return { seq: context.events.seq, total, unread: unreadNow(context), items: records.map((record) => context.rows.row(record)) };
      },
    },
    {
      method: 'GET',
      path: '/app/api/history/export',
      handle: async ({ req, res, context }) => {
        const format = queryText(req, 'format') || 'json';
        if (!(EXPORT_FORMATS as readonly string[]).includes(format)) throw errors.invalidChoice('format', EXPORT_FORMATS);
        const query = readQuery(req);
        await context.core.history.ready;
        const records = context.pages.all(query);
        const isRead = (record: HistoryRecord) => context.core.readState.isRead(record);
        const body =
          format === 'csv'
            ? historyCsv(records, (record) => context.rows.row(record))
            : `${JSON.stringify({ exportedAt: new Date().toISOString(), count: records.length, items: records.map((record) => ({ ...record, read: isRead(record) })) }, null, 2)}\n`;
        res.writeHead(200, {
          'Content-Type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
          'Content-Disposition': `attachment; filename="${exportName(format)}"`,
          'Content-Length': Buffer.byteLength(body),
          'Cache-Control': 'no-store',
        });
        res.end(body);
      },
    },
    {
      method: 'POST',
      path: '/app/api/history/read-all',
      handle: async ({ req, context }) => {
        const body = bodyObject(req);
        const app = body.app === undefined || body.app === null ? undefined : body.app;
        if (app !== undefined && (typeof app !== 'string' || app === '')) throw errors.invalidField('app', 'an app id');
        await context.core.history.ready;
        await context.core.readState.markAllRead(app);
        return { ok: true, unread: unreadNow(context) };
      },
    },
    {
      method: 'DELETE',
      path: '/app/api/history',
      handle: async ({ req, context }) => {
        const app = queryText(req, 'app') || undefined;
        await context.core.clearHistory(app);
        if (app === undefined) context.events.everythingRemoved();
        return { ok: true };
      },
    },
    {
      method: 'GET',
      path: ITEM,
      handle: async (call) => {
        const record = await recordOf(call);
        await markRead(call.context, record); // opening it is reading it
        return detailsOf(call.context.core.history.get(record.app, record.id) ?? record, call.context.details);
      },
    },
    {
      method: 'DELETE',
      path: ITEM,
      handle: async (call) => {
        await call.context.core.deleteRecord(call.params.app!, call.params.id!);
        return { ok: true };
      },
    },
    {
      method: 'GET',
      path: `${ITEM}/card.png`,
      handle: async (call) => {
        const record = await recordOf(call);
        const theme = queryText(call.req, 'theme') || 'light';
        if (theme !== 'light' && theme !== 'dark') throw errors.invalidChoice('theme', ['light', 'dark']);
        const { core } = call.context;
        if (!core.cards.hasCard(record)) throw errors.noCard();
        const png = await core.cards
          .render(record, core.appName(record.app), core.appIcon(record.app), theme)
          .catch((error: Error) => Promise.reject(errors.previewFailed(error.message)));
        if (!png) throw errors.noCard();
        call.res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': png.length, 'Cache-Control': 'no-store' });
        call.res.end(png);
      },
    },
    {
      method: 'POST',
      path: `${ITEM}/read`,
      handle: async (call) => {
        const read = bodyFlag(bodyObject(call.req), 'read');
        const record = await recordOf(call);
        await call.context.core.readState.mark(record, read);
        return { ok: true, unread: unreadNow(call.context) };
      },
    },
    {
      method: 'POST',
      path: `${ITEM}/reply`,
      handle: async (call) => {
        const text = replyText(bodyObject(call.req));
        const record = await recordOf(call);
        const { rows, core } = call.context;
        const reply = rows.replyButton(record);
        if (!reply) {
          const hasReplyButton = rows.buttons(record).some((live) => buttonKind(live.button) === 'reply');
          throw hasReplyButton ? errors.replyExpired() : errors.takesNoReply();
        }
        // Exactly as typed on the banner: the same path stores it, wakes GET /v1/replies/wait and closes the banner.
        await core.person.act({ type: 'replied', key: { app: record.app, id: record.id }, actionId: idOf(reply), text });
        return { ok: true };
      },
    },
    {
      method: 'POST',
      path: `${ITEM}/press`,
      handle: async (call) => {
        const body = bodyObject(call.req);
        const actionId = body.actionId;
        if (actionId === undefined || actionId === null || actionId === '') throw errors.missingField('actionId');
        if (typeof actionId !== 'string') throw errors.invalidField('actionId', 'must be a string');
        const record = await recordOf(call);
        const live = call.context.rows.buttons(record).find((candidate) => idOf(candidate) === actionId);
        if (!live) throw errors.noSuchButton(actionId);
        if (buttonKind(live.button) === 'reply') throw errors.invalidField('actionId', 'a reply button takes text: send it to …/reply');
        // As pressed on the banner, with the same approval rules: an action that waits for the person's approval
        // goes on after this answer.
        const key = { app: record.app, id: record.id };
        call.context.core.person
          .act({ type: 'button', key, actionId })
          .catch((error: Error) => log.error(`[${record.app}] ${record.id}: the button pressed in the app failed: ${error.message}`));
        return { ok: true };
      },
    },
    {
      method: 'POST',
      path: `${ITEM}/reshow`,
      handle: async (call) => {
        const record = await recordOf(call);
        const id = await call.context.core.reshow(record.app, record.id);
        const shown = call.context.core.history.get(record.app, id);
        if (shown) await markRead(call.context, shown); // shown again by the person: no news to them
        return { ok: true, id };
      },
    },
    {
      method: 'POST',
      path: `${ITEM}/dismiss`,
      handle: async (call) => {
        const record = await recordOf(call);
        await call.context.core.dismiss(record.app, record.id);
        return { ok: true };
      },
    },
    {
      method: 'POST',
      path: `${ITEM}/snooze`,
      handle: async (call) => {
        const minutes = snoozeMinutes(bodyObject(call.req));
        const record = await recordOf(call);
        return { ok: true, until: await call.context.core.snooze(record.app, record.id, minutes) };
      },
    },
    {
      method: 'POST',
      path: `${ITEM}/unsnooze`,
      handle: async (call) => {
        const record = await recordOf(call);
        await call.context.core.unsnooze(record.app, record.id);
        return { ok: true };
      },
    },
  ];
}
