// `/app/api/history…` (docs/app.md#the-api): History as the person's notification centre — the list in windows,
// a notification's details and card, read and unread, and what the person does to a notification: reply, press
// a button, show it again, dismiss, snooze, delete, export. Replies and presses take the same path as on a banner.

import {
  APP_API,
  APP_HISTORY_LIMIT,
  EXPORT_FORMATS,
  HISTORY_STATES,
  SELECTION_MAX,
  type DeleteAnswer,
  type DeleteRequest,
  type DismissAnswer,
  type ExportFormat,
  type HistoryPage,
  type MarkRequest,
  type NotificationDetails,
  type OkAnswer,
  type PressRequest,
  type ReadAllAnswer,
  type ReadAllRequest,
  type ReadAnswer,
  type ReadRequest,
  type ReplyRequest,
  type ReshowAnswer,
  type ScheduledAnswer,
  type SnoozeAnswer,
  type SnoozeRequest,
  type UndoRequest,
} from '../../../protocol/app-api.js';
import { errors } from '../../../protocol/errors.js';
import { buttonKind, isDesktopApp } from '../../../protocol/notification-rules.js';
import {
  deleteAnswerSchema,
  dismissAnswerSchema,
  historyPageSchema,
  notificationDetailsSchema,
  readAllAnswerSchema,
  readAnswerSchema,
  reshowAnswerSchema,
  snoozeAnswerSchema,
} from '../../../protocol/schemas/app-api.js';
import { okSchema } from '../../../protocol/schemas/common.js';
import type { HistoryRecord } from '../../../protocol/types.js';
import { detailsOf } from '../../core/history/details.js';
import type { PageQuery } from '../../core/history/history-pages.js';
import { idOf } from '../../core/templates/live-actions.js';
import { log } from '../../log.js';
import { bodyFlag, bodyText, optionalBodyText } from '../params.js';
import { ok, query, type Call, type PathParameter, type QueryParameter, type Route } from '../route.js';
import { snoozeMinutes } from '../routes/banners.js';
import { scheduledRoutes } from '../routes/scheduled.js';
import type { Services as AllServices } from '../services.js';
import { historyCsv } from './export.js';
import { asWindowRoute, type SentBody, v1Route, type WindowCall, windowRoute } from './window-route.js';

type Services = Pick<
  AllServices,
  | 'history'
  | 'readState'
  | 'records'
  | 'screen'
  | 'person'
  | 'cards'
  | 'names'
  | 'rows'
  | 'pages'
  | 'details'
  | 'events'
  | 'scheduled'
  | 'undo'
>;

/** The records a selection's request names (Delete, Mark read or unread): `items`, a list of `{app, id}`. */
function itemsOf(body: SentBody<DeleteRequest | MarkRequest>): Array<{ app: string; id: string }> {
  const items = (body as { items?: unknown }).items;
  if (items === undefined) throw errors.missingField('items');
  const fine =
    Array.isArray(items) &&
    items.length <= SELECTION_MAX &&
    items.every((item: { app?: unknown; id?: unknown } | null) => typeof item?.app === 'string' && typeof item.id === 'string');
  if (!fine) throw errors.invalidField('items', `a list of at most ${SELECTION_MAX} {app, id}`);
  return items as Array<{ app: string; id: string }>;
}

/** The records a selection names that are in History now (those gone already are left out). */
async function selectedRecords(services: Services, body: SentBody<DeleteRequest | MarkRequest>): Promise<HistoryRecord[]> {
  const items = itemsOf(body);
  for (const app of new Set(items.map((item) => item.app))) await services.history.load(app);
  return items.map(({ app, id }) => services.history.get(app, id)).filter((record) => record !== undefined);
}

/** The path of one notification: its app and id. */
const ITEM: Readonly<Record<string, PathParameter>> = {
  app: { description: 'the app that sent it' },
  id: { description: "the notification's id" },
};

/** The search and filters of the list (and of the export). */
const FILTERS: QueryParameter[] = [
  query.text('q', 'every word must occur, case and accents ignored'),
  query.choice('state', HISTORY_STATES, 'all, unread, waiting, replied or failed', { default: 'all' }),
  query.text('app', 'only this app'),
  query.date('from', 'from this date (its start, local time) or date-time'),
  query.date('to', 'up to this date (its end, local time) or date-time'),
];

/** The filters as the pages take them. */
const pageQuery = ({ q, state, app, from, to }: Readonly<Record<string, unknown>>): PageQuery =>
  ({ q: q ?? '', state, ...(app ? { app } : {}), ...(from ? { from } : {}), ...(to ? { to } : {}) }) as PageQuery;

/** The record a path names (its app's History loaded first); 404 when there is none. */
const recordOf = ({ services, params }: Pick<Call<Services>, 'services' | 'params'>): Promise<HistoryRecord> =>
  services.screen.requireRecord(params.app!, params.id!);

/** The text of a reply: a string with something in it besides white space. */
function replyText(body: SentBody<ReplyRequest>): string {
  const text = optionalBodyText(body, 'text');
  if (text === undefined) throw errors.missingField('text');
  if (text.trim() === '') throw errors.missingField('text', 'only white space');
  return text;
}

/**
 * A route on one notification (`…/{app}/{id}/…`), as its steps: `read` what it needs of the body (first, so a bad
 * body is refused before the path is looked up), find the record the path names (404 when there is none), `act`
 * on that record.
 */
function itemRoute<Answer, Body = Record<string, unknown>, Input = undefined>(route: {
  method?: 'GET' | 'POST';
  path: string;
  summary: string;
  query?: QueryParameter[];
  reply: Route<Services>['reply'];
  read?: (body: SentBody<Body>) => Input;
  /** It does what the notification's banner does (reply, press, show again, close, snooze): not to another program's. */
  asBanner?: true;
  act: (record: HistoryRecord, call: WindowCall<Services, Body>, input: Input) => Answer | Promise<Answer>;
}): Route<Services> {
  const { method = 'POST', read, act, asBanner, ...contract } = route;
  return windowRoute<Services, Answer, Body>({
    method,
    params: ITEM,
    ...contract,
    ...(asBanner ? { errors: { 409: "another program's notification: its banner and buttons are that program's" } } : {}),
    handle: async (call) => {
      const input = read?.(call.body) as Input;
      const record = await recordOf(call);
      if (asBanner && isDesktopApp(record.app)) throw errors.readOnly(call.services.names.name(record.app));
      return act(record, call, input);
    },
  });
}

/** The unread count now, with the number of the last change it includes (read at one instant, so they agree). */
const unreadNow = (services: Services): { unread: number; seq: number } => ({
  unread: services.readState.unreadCount(),
  seq: services.events.seq,
});

/** The person did something to this notification in the app: it is read. */
const markRead = (services: Services, record: HistoryRecord): Promise<void> => services.readState.mark(record, true);

/** `notifier-history-2025-01-31.json` */
const exportName = (format: string): string => `notifier-history-${new Date().toISOString().slice(0, 10)}.${format}`;

export function historyRoutes(): Route<Services>[] {
  const scheduled = scheduledRoutes();
  return [
    // What waits for its time (ntfy's delayed publishes), above the list; cancelled there.
    asWindowRoute<Services, ScheduledAnswer>(
      v1Route(scheduled, 'GET', '/v1/scheduled'),
      APP_API.historyScheduled,
      ({ services, query }) => ({
        scheduled: services.scheduled.list(query.app as string | undefined),
      }),
    ),
    asWindowRoute<Services, OkAnswer>(v1Route(scheduled, 'DELETE', '/v1/scheduled'), APP_API.historyScheduled, ({ services, query }) =>
      services.scheduled.cancel(query.app as string, query.id as string).then(() => ({ ok: true as const })),
    ),
    windowRoute<Services, HistoryPage>({
      method: 'GET',
      path: APP_API.history,
      summary: 'A window of History: the rows that match, newest first, with the total and the unread count',
      query: [
        ...FILTERS,
        query.whole('offset', 'skip this many', { min: 0, default: 0 }),
        query.whole('limit', 'at most this many', { min: 1, max: APP_HISTORY_LIMIT.max, default: APP_HISTORY_LIMIT.default }),
      ],
      reply: historyPageSchema,
      errors: { 400: 'a filter, offset or limit cannot be read' },
      handle: async ({ services, query }): Promise<HistoryPage> => {
        await services.history.ready;
        const { total, records } = services.pages.page(pageQuery(query), query.offset as number, query.limit as number);
        return { ...unreadNow(services), total, items: records.map((record) => services.rows.row(record)) };
      },
    }),
    windowRoute({
      method: 'GET',
      path: APP_API.historyExport,
      summary: 'Every record that matches, as a JSON or CSV download',
      query: [query.choice('format', EXPORT_FORMATS, 'json (the default) or csv', { default: 'json' }), ...FILTERS],
      reply: { file: 'the records, with their read state', contentType: 'application/json' },
      handle: async ({ services, query, res }) => {
        const format = query.format as ExportFormat;
        await services.history.ready;
        const records = services.pages.all(pageQuery(query));
        const isRead = (record: HistoryRecord) => services.readState.isRead(record);
        const body =
          format === 'csv'
            ? historyCsv(records, (record) => services.rows.row(record))
            : `${JSON.stringify({ exportedAt: new Date().toISOString(), count: records.length, items: records.map((record) => ({ ...record, read: isRead(record) })) }, null, 2)}\n`;
        res.writeHead(200, {
          'Content-Type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
          'Content-Disposition': `attachment; filename="${exportName(format)}"`,
          'Content-Length': Buffer.byteLength(body),
          'Cache-Control': 'no-store',
        });
        res.end(body);
      },
    }),
    windowRoute<Services, ReadAllAnswer, ReadAllRequest>({
      method: 'POST',
      path: APP_API.historyReadAll,
      summary: "Mark every record read, or one app's; its Undo puts the read state back",
      reply: readAllAnswerSchema,
      handle: async ({ services, body }) => {
        const app = body.app === undefined || body.app === null ? undefined : body.app;
        if (app !== undefined && (typeof app !== 'string' || app === '')) throw errors.invalidField('app', 'an app id');
        await services.history.ready;
        const before = services.readState.snapshot(app);
        await services.readState.markAllRead(app);
        return { ok: true, ...unreadNow(services), undo: services.undo.keep(() => services.readState.restore(before)) };
      },
    }),
    windowRoute<Services, ReadAnswer, MarkRequest>({
      method: 'POST',
      path: APP_API.historyMark,
      summary: 'Mark the records of a selection read or unread, in one request (those gone meanwhile are left out)',
      reply: readAnswerSchema,
      errors: { 400: 'items is not a list of at most 5000 {app, id}, or read is not true or false' },
      handle: async ({ services, body }) => {
        const read = bodyFlag(body, 'read');
        // Each changes at once; they reach the disk together.
        await Promise.all((await selectedRecords(services, body)).map((record) => services.readState.mark(record, read)));
        return { ok: true, ...unreadNow(services) };
      },
    }),
    windowRoute<Services, DeleteAnswer, DeleteRequest>({
      method: 'POST',
      path: APP_API.historyDelete,
      summary: 'Delete records (their banners close); its Undo puts them back as they were, read or unread',
      reply: deleteAnswerSchema,
      errors: { 400: 'items is not a list of at most 5000 {app, id}' },
      handle: async ({ services, body }) => {
        const gone: Array<{ record: HistoryRecord; read: boolean }> = [];
        for (const record of await selectedRecords(services, body)) {
          if (services.history.get(record.app, record.id) !== record) continue; // gone, or another took its id, meanwhile
          gone.push({ record, read: services.readState.isRead(record) });
          services.history.holdPicture(record); // kept while its Undo may bring the record back
          await services.records.remove(record.app, record.id, 'person');
        }
        const undo = services.undo.keep(
          async () => {
            for (const { record, read } of gone) {
              await services.history.load(record.app);
              await services.history.restore(record);
              // Restored, unless another with its id came meanwhile: it is read or unread as it was.
              if (services.history.get(record.app, record.id) === record) await services.readState.mark(record, read);
            }
          },
          () => {
            for (const { record } of gone) services.history.letGoPicture(record);
          },
        );
        return { ok: true, deleted: gone.length, undo };
      },
    }),
    windowRoute<Services, OkAnswer, UndoRequest>({
      method: 'POST',
      path: APP_API.historyUndo,
      summary: 'Take back a deletion, a Mark all read or a dismissal, by the token its answer gave (for 30 seconds)',
      reply: okSchema,
      errors: { 404: 'nothing to undo: the token was used, is older than 30 seconds, or is from before a restart' },
      handle: async ({ services, body }) => {
        if (!(await services.undo.undo(bodyText(body, 'undo')))) throw errors.nothingToUndo();
        return { ok: true };
      },
    }),
    windowRoute<Services, OkAnswer>({
      method: 'DELETE',
      path: APP_API.history,
      summary: "Clear History, or one app's",
      query: [query.text('app', "only this app's records")],
      reply: okSchema,
      handle: async ({ services, query }) => {
        const app = query.app as string | undefined;
        await services.records.clear(app, 'person');
        if (app === undefined) services.events.everythingRemoved();
        return { ok: true };
      },
    }),
    itemRoute<NotificationDetails>({
      method: 'GET',
      path: APP_API.notification,
      summary: "A notification's details; opening them reads it",
      reply: notificationDetailsSchema,
      act: async (record, { services }) => {
        await markRead(services, record); // opening it is reading it
        return detailsOf(services.history.get(record.app, record.id) ?? record, services.details);
      },
    }),
    windowRoute<Services, OkAnswer>({
      method: 'DELETE',
      path: APP_API.notification,
      summary: 'Delete one record; its banner closes',
      params: ITEM,
      reply: okSchema,
      handle: ({ services, params }) => services.records.remove(params.app!, params.id!, 'person').then(ok),
    }),
    itemRoute({
      method: 'GET',
      path: APP_API.card,
      summary: "A notification's card picture, light or dark",
      query: [query.choice('theme', ['light', 'dark'], 'light (the default) or dark', { default: 'light' })],
      reply: { file: 'the card', contentType: 'image/png' },
      act: async (record, { services, query, res }) => {
        const { cards, names } = services;
        if (!cards.hasCard(record)) throw errors.noCard();
        const png = await cards
          .render(record, names.name(record.app), names.icon(record.app), query.theme as 'light' | 'dark')
          .catch((error: Error) => Promise.reject(errors.previewFailed(error.message)));
        if (!png) throw errors.noCard();
        res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': png.length, 'Cache-Control': 'no-store' });
        res.end(png);
      },
    }),
    itemRoute<ReadAnswer, ReadRequest, boolean>({
      path: APP_API.read,
      summary: 'Mark a notification read or unread',
      reply: readAnswerSchema,
      read: (body) => bodyFlag(body, 'read'),
      act: async (record, { services }, read) => {
        await services.readState.mark(record, read);
        return { ok: true, ...unreadNow(services) };
      },
    }),
    itemRoute<OkAnswer, ReplyRequest, string>({
      path: APP_API.reply,
      asBanner: true,
      summary: 'Reply, as typed on the banner',
      reply: okSchema,
      read: replyText,
      act: async (record, { services }, text) => {
        const reply = services.rows.replyButton(record);
        if (!reply) {
          const hasReplyButton = services.rows.buttons(record).some((live) => buttonKind(live.button) === 'reply');
          throw hasReplyButton ? errors.replyExpired() : errors.takesNoReply();
        }
        // Exactly as typed on the banner: the same path stores it, wakes GET /v1/replies/wait and closes the banner.
        await services.person.act({ type: 'replied', key: { app: record.app, id: record.id }, actionId: idOf(reply), text });
        return { ok: true };
      },
    }),
    itemRoute<OkAnswer, PressRequest, string>({
      path: APP_API.press,
      asBanner: true,
      summary: 'Press a button, as on the banner',
      reply: okSchema,
      // The action a press names: a button of the notification that takes no text.
      read: (body) => bodyText(body, 'actionId'),
      act: (record, { services }, actionId) => {
        const live = services.rows.buttons(record).find((candidate) => idOf(candidate) === actionId);
        if (!live) throw errors.noSuchButton(actionId);
        if (buttonKind(live.button) === 'reply') throw errors.invalidField('actionId', 'a reply button takes text: send it to …/reply');
        // As pressed on the banner, with the same approval rules: an action that waits for the person's approval
        // goes on after this answer.
        services.person
          .act({ type: 'button', key: { app: record.app, id: record.id }, actionId })
          .catch((error: Error) => log.error(`[${record.app}] ${record.id}: the button pressed in the app failed: ${error.message}`));
        return { ok: true };
      },
    }),
    itemRoute<ReshowAnswer>({
      path: APP_API.reshow,
      asBanner: true,
      summary: 'Show a notification again',
      reply: reshowAnswerSchema,
      act: async (record, { services }) => {
        const id = await services.screen.reshow(record.app, record.id);
        const shown = services.history.get(record.app, id);
        if (shown) await markRead(services, shown); // shown again by the person: no news to them
        return { ok: true, id };
      },
    }),
    itemRoute<DismissAnswer>({
      path: APP_API.dismiss,
      asBanner: true,
      summary: "Close a notification's banner; its Undo puts the banner back",
      reply: dismissAnswerSchema,
      act: async (record, { services }) => {
        await services.screen.dismiss(record.app, record.id);
        return { ok: true, undo: services.undo.keep(() => services.screen.undismiss(record).then(() => undefined)) };
      },
    }),
    itemRoute<SnoozeAnswer, SnoozeRequest, number>({
      path: APP_API.snooze,
      asBanner: true,
      summary: 'Snooze a banner for some minutes',
      reply: snoozeAnswerSchema,
      read: snoozeMinutes,
      act: async (record, { services }, minutes) => ({ ok: true, until: await services.screen.snooze(record.app, record.id, minutes) }),
    }),
    itemRoute<OkAnswer>({
      path: APP_API.unsnooze,
      asBanner: true,
      summary: 'Bring a snoozed banner back now',
      reply: okSchema,
      act: (record, { services }) => services.screen.unsnooze(record.app, record.id).then(ok),
    }),
  ];
}
