import { stat } from 'node:fs/promises';
import path from 'node:path';
import { errors } from '../../../protocol/errors.js';
import { DEFAULT_HISTORY_LIMIT, MAX_SEARCH_LIMIT } from '../../../protocol/limits.js';
import { writeFileDurably } from '../../store/durable-file.js';
import type { Core } from '../../core/core.js';
import { bodyText } from '../params.js';
import { APP_QUERY, ok, onlyApp, query, type QueryParameter, type Route } from '../route.js';
import { okSchema } from '../../../protocol/schemas/common.js';
import {
  historyExportSchema,
  historyListSchema,
  historySearchSchema,
  reshowReplySchema,
  reshowSchema,
} from '../../../protocol/schemas/history.js';
import { expandHome } from '../../paths.js';

type Services = Pick<Core, 'records' | 'screen'>;

/**
 * docs/api/history.md#get-v1-history-export: `path` must end in `.json` and its folder must exist. `~` is the home
 * folder.
 */
async function exportTarget(given: string): Promise<string> {
  const expanded = expandHome(given);
  if (!expanded.toLowerCase().endsWith('.json')) throw errors.invalidField('path', 'must end in .json');
  if (!path.isAbsolute(expanded)) throw errors.invalidField('path', 'must be an absolute path');
  const folder = await stat(path.dirname(expanded)).catch(() => null);
  if (!folder?.isDirectory()) throw errors.invalidField('path', 'the folder does not exist');
  return expanded;
}

/** The query parameters that pick records: an app (absent or empty: every app) and how many, newest first. */
const APP: QueryParameter = onlyApp("only this app's records");
const limit = (max?: number): QueryParameter =>
  query.whole('limit', `at most this many, newest first (default ${DEFAULT_HISTORY_LIMIT})${max ? `; at most ${max}` : ''}`, {
    min: 0,
    default: DEFAULT_HISTORY_LIMIT,
    ...(max ? { max, cut: true as const } : {}),
  });
const RECORD: QueryParameter[] = [
  { ...APP_QUERY, description: 'the app that sent it' },
  query.text('id', "the notification's id", { required: true }),
];

export function historyRoutes(): Route<Services>[] {
  return [
    {
      method: 'GET',
      door: 'token',
      path: '/v1/history',
      summary: 'The notifications delivered, newest first',
      tag: 'History',
      query: [APP, limit()],
      reply: historyListSchema,
      errors: { 400: 'limit is not a whole number of 0 or more' },
      examples: [
        { summary: 'Everything (up to the default limit)' },
        { summary: "One app's latest", query: { app: 'com.example.build', limit: 5 } },
      ],
      handle: async ({ services, query }) => ({ items: await services.records.list(query as { app?: string; limit: number }) }),
    },
    {
      method: 'GET',
      door: 'token',
      path: '/v1/history/search',
      summary: 'Search History',
      description: "Every word must occur, ignoring case and accents, in the title, subtitle or body, the app id or the app's name.",
      tag: 'History',
      query: [query.text('q', 'the words'), APP, limit(MAX_SEARCH_LIMIT)],
      reply: historySearchSchema,
      errors: { 400: 'limit is not a whole number of 0 or more' },
      examples: [{ summary: 'Builds that passed', query: { q: 'build passed', limit: 10 } }],
      handle: async ({ services, query }) => {
        const q = (query.q as string | undefined) ?? '';
        const items = await services.records.list({ app: query.app as string | undefined, limit: query.limit as number, q });
        return { query: q, count: items.length, items };
      },
    },
    {
      method: 'POST',
      door: 'token',
      path: '/v1/history/reshow',
      summary: 'Show a notification again',
      description: 'Its record moves to the top of History with a fresh delivery time, and its banner shows with sound.',
      tag: 'History',
      body: reshowSchema,
      reply: reshowReplySchema,
      errors: { 400: 'app or id is missing', 404: 'no such notification in History' },
      examples: [{ summary: 'A dismissed build result', body: { app: 'com.example.build', id: 'build-42' } }],
      handle: async ({ services, body }) => ({ ok: true, id: await services.screen.reshow(bodyText(body, 'app'), bodyText(body, 'id')) }),
    },
    {
      method: 'DELETE',
      door: 'token',
      path: '/v1/history/item',
      summary: 'Delete one record',
      description: 'Its banner, if still on screen, closes.',
      tag: 'History',
      query: RECORD,
      reply: okSchema,
      errors: { 400: 'app or id is missing', 404: 'no such notification in History' },
      examples: [{ summary: 'One build result', query: { app: 'com.example.build', id: 'build-42' } }],
      handle: ({ services, query }) => services.records.remove(query.app as string, query.id as string).then(ok),
    },
    {
      method: 'DELETE',
      door: 'token',
      path: '/v1/history',
      summary: "Clear History, or one app's",
      description: 'The banners of the records removed close too. Apps stay registered.',
      tag: 'History',
      query: [{ ...APP, description: "only this app's records; absent: every app's" }],
      reply: okSchema,
      errors: {},
      examples: [{ summary: "One app's History", query: { app: 'com.example.chat' } }],
      handle: ({ services, query }) => services.records.clear(query.app as string | undefined).then(ok),
    },
    {
      method: 'GET',
      door: 'token',
      path: '/v1/history/export',
      summary: 'Every record, or write them to a file',
      tag: 'History',
      query: [
        APP,
        query.text('path', 'write the records to this .json file (absolute or ~/, in an existing folder) instead of answering them'),
      ],
      reply: historyExportSchema,
      errors: { 400: 'path does not end in .json, is not absolute, or its folder does not exist' },
      examples: [
        { summary: "One app's records", query: { app: 'com.example.build' } },
        { summary: 'To a file in the home folder', query: { app: 'com.example.build', path: '~/build-history.json' } },
      ],
      handle: async ({ services, query }) => {
        const given = query.path as string | undefined;
        const target = given ? await exportTarget(given) : undefined;
        const items = await services.records.list({ app: query.app as string | undefined, limit: Number.MAX_SAFE_INTEGER });
        if (!target) return { count: items.length, items };
        const text = JSON.stringify(items, null, 2) + '\n';
        await writeFileDurably(target, text);
        return { count: items.length, path: target, bytes: Buffer.byteLength(text, 'utf8') };
      },
    },
  ];
}
