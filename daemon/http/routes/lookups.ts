// docs/api/templates.md#lookups: the component schema, the symbol catalogue and the installed shortcuts.

import { execFile } from 'node:child_process';
import { componentsDocument } from '../../../templates-renderer/components-doc.js';
import { SymbolsError, type SymbolQuery, listSymbols } from '../../../templates-renderer/symbols.js';
import { errors } from '../../../protocol/errors.js';
import { SHORTCUTS_TIMEOUT_MS } from '../../../protocol/limits.js';
import { query, type Route } from '../route.js';
import { componentsSchema, shortcutsSchema, symbolsSchema } from '../../../protocol/schemas/lookups.js';

/**
 * docs/api/templates.md#get-v1-symbols: the renderer's catalogue; its refusals become the API's (501 no list, 400 a
 * category).
 */
async function symbols(query: SymbolQuery) {
  try {
    return await listSymbols(query);
  } catch (error) {
    if (!(error instanceof SymbolsError)) throw error;
    const { problem } = error;
    throw problem.kind === 'no-symbol-list'
      ? errors.noSymbolList(problem.cause)
      : errors.unknownSymbolCategory(problem.category, problem.known);
  }
}

/**
 * docs/api/templates.md#get-v1-shortcuts: the names `shortcuts list` prints. Apple's Shortcuts exists only on
 * macOS; elsewhere the tool is missing and the answer is 502 saying so (#t27).
 */
export function listShortcuts(): Promise<{ items: string[] }> {
  return new Promise((resolve, reject) => {
    execFile('shortcuts', ['list'], { timeout: SHORTCUTS_TIMEOUT_MS, maxBuffer: 1024 * 1024 }, (error, stdout) => {
      if (!error)
        return resolve({
          items: stdout
            .split('\n')
            .map((line) => line.trim())
            .filter(Boolean),
        });
      const failure = error as NodeJS.ErrnoException & { killed?: boolean };
      if (failure.killed) return reject(errors.shortcutsTimeout());
      if (failure.code === 'ENOENT') return reject(errors.shortcutsMissing());
      reject(errors.shortcutsFailed(error.message));
    });
  });
}

/** GET /v1/symbols (the Designer's too), its query read by the contract. */
export function symbolsOf(query: Readonly<Record<string, unknown>>) {
  const { q, category, limit, offset } = query as { q?: string; category?: string; limit?: number; offset?: number };
  return symbols({
    ...(q ? { q } : {}),
    ...(category ? { category } : {}),
    ...(limit !== undefined ? { limit } : {}),
    ...(offset !== undefined ? { offset } : {}),
  });
}

export function lookupRoutes(): Route<unknown>[] {
  return [
    {
      method: 'GET',
      door: 'token',
      path: '/v1/components',
      summary: 'The reference of every template component',
      description:
        'A JSON Schema document (schemaVersion 2) of templates: every component, property, default and range, with a workflow and examples that save as they are.',
      tag: 'Lookups',
      reply: componentsSchema,
      errors: {},
      examples: [{ summary: 'The whole reference' }],
      handle: () => componentsDocument(),
    },
    {
      method: 'GET',
      door: 'token',
      path: '/v1/symbols',
      summary: 'Search the symbol catalogue',
      description: 'The bundled Lucide icon set; SF Symbols names such as xmark or gear find their Lucide icons.',
      tag: 'Lookups',
      query: [
        query.text('q', 'every word must match the name, a search term or a synonym'),
        query.text('category', 'one of the categories the reply lists (arrows, communication, alerts, ...)'),
        query.whole('limit', 'at most this many', { min: 0 }),
        query.whole('offset', 'skip this many', { min: 0 }),
      ],
      reply: symbolsSchema,
      errors: {
        400: 'limit or offset is not a whole number of 0 or more, or the category is unknown',
        501: 'the symbol list could not be loaded on this computer',
      },
      examples: [
        { summary: 'Bells', query: { q: 'bell', limit: 5 } },
        { summary: 'A page of a category', query: { category: 'alerts', limit: 20, offset: 20 } },
      ],
      handle: ({ query }) => symbolsOf(query),
    },
    {
      method: 'GET',
      door: 'token',
      path: '/v1/shortcuts',
      summary: "The names of the person's Apple Shortcuts",
      description: 'What `shortcuts list` prints; the tool exists on macOS only.',
      tag: 'Lookups',
      reply: shortcutsSchema,
      errors: { 502: 'the shortcuts tool is not on this computer, or it failed', 504: 'the shortcuts tool did not answer in time' },
      examples: [{ summary: 'Every shortcut' }],
      handle: () => listShortcuts(),
    },
  ];
}
