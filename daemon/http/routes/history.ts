import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { NotifierCore } from '../../core/notifier.js';
import { errors } from '../../../protocol/errors.js';
import { DEFAULT_HISTORY_LIMIT, MAX_SEARCH_LIMIT } from '../../../protocol/limits.js';
import { writeFileDurably } from '../../store/durable-file.js';
import { bodyObject, bodyText, queryLimit, queryText } from '../params.js';
import type { Route } from '../routes.js';
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

export function historyRoutes(core: NotifierCore): Route[] {
  return [
    {
      method: 'GET',
      path: '/v1/history',
      handle: async (req) => ({
        items: await core.records({ app: appFilter(queryText(req, 'app')), limit: queryLimit(req, DEFAULT_HISTORY_LIMIT) }),
      }),
    },
    {
      method: 'GET',
      path: '/v1/history/search',
      handle: async (req) => {
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
      handle: async (req) => {
        const body = bodyObject(req);
        return { ok: true, id: await core.reshow(bodyText(body, 'app'), bodyText(body, 'id')) };
      },
    },
    {
      method: 'DELETE',
      path: '/v1/history/item',
      handle: async (req) => {
        await core.deleteRecord(queryText(req, 'app', { required: true }), queryText(req, 'id', { required: true }));
        return { ok: true };
      },
    },
    {
      method: 'DELETE',
      path: '/v1/history',
      handle: async (req) => {
        await core.clearHistory(appFilter(queryText(req, 'app')));
        return { ok: true };
      },
    },
    {
      method: 'GET',
      path: '/v1/history/export',
      handle: async (req) => {
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
