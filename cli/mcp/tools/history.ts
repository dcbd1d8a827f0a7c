// History: listing, searching, showing again, deleting and exporting (daemon/http/routes/history.ts).

import { ToolFailure } from '../call.js';
import { APP, APP_FILTER, ID, type Tool, annotate, call, flag, inputs, jsonResult, need, route, text, whole } from './common.js';

/** Whole records are long for an agent's context: fewer than the route's default of 50 unless `limit` asks for more. */
const HISTORY_LIMIT = 10;

const listHistoryRoute = route('list_history', 'List History', 'GET /v1/history', {
  description: `Recent notifications, newest first, with what happened to them (GET /v1/history). Default limit ${HISTORY_LIMIT}.`,
  inputSchema: inputs({ app: APP_FILTER, limit: whole(`How many. Default ${HISTORY_LIMIT}.`) }),
  kind: 'read',
  agentApp: true,
});

export const listHistory: Tool = {
  ...listHistoryRoute,
  run: (args, context) => listHistoryRoute.run({ limit: HISTORY_LIMIT, ...args }, context),
};

export const historySearch = route('history_search', 'Search History', 'GET /v1/history/search', {
  description: 'Notifications whose title, subtitle, body or app contain every word (GET /v1/history/search).',
  inputSchema: inputs({ q: text('Words to find.'), app: APP_FILTER, limit: whole('At most 1000. Default 50.') }, ['q']),
  kind: 'read',
});

export const reshowNotification = route('reshow_notification', 'Show a notification again', 'POST /v1/history/reshow', {
  description: 'Show a notification from History again (POST /v1/history/reshow).',
  inputSchema: inputs({ app: APP, id: ID }, ['app', 'id']),
  kind: 'add',
});

export const deleteHistory: Tool = {
  name: 'delete_history',
  title: 'Delete History',
  description:
    "Delete one notification from History (id; DELETE /v1/history/item; its banner closes too), or clear the app's whole " +
    'History (all: true; DELETE /v1/history).',
  routes: ['DELETE /v1/history/item', 'DELETE /v1/history'],
  inputSchema: inputs({ app: APP, id: ID, all: flag("true: clear the app's whole History.") }, ['app']),
  annotations: annotate('Delete History', 'replace'),
  run: async (args, context) => {
    const app = need(args, 'app');
    if (args.id !== undefined && args.id !== null && args.id !== '') {
      return jsonResult((await call(context, { method: 'DELETE', path: '/v1/history/item', query: { app, id: need(args, 'id') } })).json);
    }
    if (args.all === true) return jsonResult((await call(context, { method: 'DELETE', path: '/v1/history', query: { app } })).json);
    throw new ToolFailure("give id (one notification) or all: true (the app's whole History)");
  },
};

export const exportHistory = route('export_history', 'Export History', 'GET /v1/history/export', {
  description: 'History as JSON (GET /v1/history/export): written to path (a .json file whose folder exists), or returned.',
  inputSchema: inputs({ app: APP_FILTER, path: text('A .json file to write.') }),
  kind: 'replace',
});
