import { stat } from 'node:fs/promises';
import path from 'node:path';
import { errors } from '../../../protocol/errors.js';
import { DEFAULT_HISTORY_LIMIT, MAX_SEARCH_LIMIT } from '../../../protocol/limits.js';
import { writeFileDurably } from '../../store/durable-file.js';
import { bodyObject, bodyText, queryLimit, queryText } from '../params.js';
import { APP_QUERY, onlyApp, type ApiRoute, type QueryParameter } from '../api-route.js';
import { okSchema } from '../../../protocol/schemas/common.js';
import { text } from '../../../protocol/schemas/json-schema.js';
import {
  historyExportSchema,
  historyListSchema,
  historySearchSchema,
  reshowReplySchema,
  reshowSchema,
} from '../../../protocol/schemas/history.js';
import { expandHome } from '../../paths.js';

/** An app filter: absent or empty means every app. */
const appFilter = (text: string | undefined): string | undefined => text || undefined;

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

/** The query parameters that pick records. */
const APP: QueryParameter = onlyApp("only this app's records");
const LIMIT: QueryParameter = {
  name: 'limit',
  schema: { type: 'integer', minimum: 0 },
  description: `at most this many, newest first (default ${DEFAULT_HISTORY_LIMIT})`,
};
const RECORD: QueryParameter[] = [
  { ...APP_QUERY, description: 'the app that sent it' },
  { name: 'id', schema: text(), required: true, description: "the notification's id" },
];

export function historyRoutes(): ApiRoute[] {
  return [
    {
      method: 'GET',
      path: '/v1/history',
      summary: 'The notifications delivered, newest first',
      tag: 'History',
      query: [APP, LIMIT],
      reply: historyListSchema,
      errors: { 400: 'limit is not a whole number of 0 or more' },
      examples: [
        { summary: 'Everything (up to the default limit)' },
        { summary: "One app's latest", query: { app: 'com.example.build', limit: 5 } },
      ],
      handler: (core) => async (req) => ({
        items: await core.records({ app: appFilter(queryText(req, 'app')), limit: queryLimit(req, DEFAULT_HISTORY_LIMIT) }),
      }),
    },
    {
      method: 'GET',
      path: '/v1/history/search',
      summary: 'Search History',
      description: "Every word must occur, ignoring case and accents, in the title, subtitle or body, the app id or the app's name.",
      tag: 'History',
      query: [
        { name: 'q', schema: text(), description: 'the words' },
        APP,
        { ...LIMIT, description: `${LIMIT.description}; at most ${MAX_SEARCH_LIMIT}` },
      ],
      reply: historySearchSchema,
      errors: { 400: 'limit is not a whole number of 0 or more' },
      examples: [{ summary: 'Builds that passed', query: { q: 'build passed', limit: 10 } }],
      handler: (core) => async (req) => {
        const query = queryText(req, 'q') ?? '';
        const items = await core.records({
          app: appFilter(queryText(req, 'app')),
          limit: queryLimit(req, DEFAULT_HISTORY_LIMIT, MAX_SEARCH_LIMIT),
          q: query,
        });
        return { query, count: items.length, items };
      },
    },
    {
      method: 'POST',
      path: '/v1/history/reshow',
      summary: 'Show a notification again',
      description: 'Its record moves to the top of History with a fresh delivery time, and its banner shows with sound.',
      tag: 'History',
      body: reshowSchema,
      reply: reshowReplySchema,
      errors: { 400: 'app or id is missing', 404: 'no such notification in History' },
      examples: [{ summary: 'A dismissed build result', body: { app: 'com.example.build', id: 'build-42' } }],
      handler: (core) => async (req) => {
        const body = bodyObject(req);
        return { ok: true, id: await core.reshow(bodyText(body, 'app'), bodyText(body, 'id')) };
      },
    },
    {
      method: 'DELETE',
      path: '/v1/history/item',
      summary: 'Delete one record',
      description: 'Its banner, if still on screen, closes.',
      tag: 'History',
      query: RECORD,
      reply: okSchema,
      errors: { 400: 'app or id is missing', 404: 'no such notification in History' },
      examples: [{ summary: 'One build result', query: { app: 'com.example.build', id: 'build-42' } }],
      handler: (core) => async (req) => {
        await core.deleteRecord(queryText(req, 'app', { required: true }), queryText(req, 'id', { required: true }));
        return { ok: true };
      },
    },
    {
      method: 'DELETE',
      path: '/v1/history',
      summary: "Clear History, or one app's",
      description: 'The banners of the records removed close too. Apps stay registered.',
      tag: 'History',
      query: [{ ...APP, description: "only this app's records; absent: every app's" }],
      reply: okSchema,
      errors: {},
      examples: [{ summary: "One app's History", query: { app: 'com.example.chat' } }],
      handler: (core) => async (req) => {
        await core.clearHistory(appFilter(queryText(req, 'app')));
        return { ok: true };
      },
    },
    {
      method: 'GET',
      path: '/v1/history/export',
      summary: 'Every record, or write them to a file',
      tag: 'History',
      query: [
        APP,
        {
          name: 'path',
          schema: text(),
          description: 'write the records to this .json file (absolute or ~/, in an existing folder) instead of answering them',
        },
      ],
      reply: historyExportSchema,
      errors: { 400: 'path does not end in .json, is not absolute, or its folder does not exist' },
      examples: [
        { summary: "One app's records", query: { app: 'com.example.build' } },
        { summary: 'To a file in the home folder', query: { app: 'com.example.build', path: '~/build-history.json' } },
      ],
      handler: (core) => async (req) => {
        const given = queryText(req, 'path');
        const target = given ? await exportTarget(given) : undefined;
        const items = await core.records({ app: appFilter(queryText(req, 'app')), limit: Number.MAX_SAFE_INTEGER });
        if (!target) return { count: items.length, items };
        const text = JSON.stringify(items, null, 2) + '\n';
        await writeFileDurably(target, text);
        return { count: items.length, path: target, bytes: Buffer.byteLength(text, 'utf8') };
      },
    },
  ];
}
