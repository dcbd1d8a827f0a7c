// docs/api/templates.md#lookups: the component schema, the symbol catalogue and the installed shortcuts.

import { execFile } from 'node:child_process';
import type { Request } from 'express';
import { componentsDocument } from '../../../templates-renderer/components-doc.js';
import { SymbolsError, type SymbolQuery, listSymbols } from '../../../templates-renderer/symbols.js';
import { errors } from '../../../protocol/errors.js';
import { SHORTCUTS_TIMEOUT_MS } from '../../../protocol/limits.js';
import { queryText } from '../params.js';
import type { ApiRoute } from '../api-route.js';
import { text } from '../../../protocol/schemas/json-schema.js';
import { componentsSchema, shortcutsSchema, symbolsSchema } from '../../../protocol/schemas/lookups.js';

/** A whole number query parameter at least 0 (`limit`, `offset`); absent gives undefined. */
function queryCount(req: Request, name: string): number | undefined {
  const text = queryText(req, name);
  if (text === undefined || text === '') return undefined;
  if (!/^\s*\d+\s*$/.test(text)) throw errors.invalidField(name, 'a whole number, 0 or more');
  return Number(text);
}

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
function listShortcuts(): Promise<{ items: string[] }> {
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

export function lookupRoutes(): ApiRoute[] {
  return [
    {
      method: 'GET',
      path: '/v1/components',
      summary: 'The reference of every template component',
      description:
        'A JSON Schema document (schemaVersion 2) of templates: every component, property, default and range, with a workflow and examples that save as they are.',
      tag: 'Lookups',
      reply: componentsSchema,
      errors: {},
      examples: [{ summary: 'The whole reference' }],
      handler: () => () => componentsDocument(),
    },
    {
      method: 'GET',
      path: '/v1/symbols',
      summary: 'Search the symbol catalogue',
      description: 'The bundled Lucide icon set; SF Symbols names such as xmark or gear find their Lucide icons.',
      tag: 'Lookups',
      query: [
        { name: 'q', schema: text(), description: 'every word must match the name, a search term or a synonym' },
        { name: 'category', schema: text(), description: 'one of the categories the reply lists (arrows, communication, alerts, ...)' },
        { name: 'limit', schema: { type: 'integer', minimum: 0 }, description: 'at most this many' },
        { name: 'offset', schema: { type: 'integer', minimum: 0 }, description: 'skip this many' },
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
      handler: () => (req) => {
        const limit = queryCount(req, 'limit');
        const offset = queryCount(req, 'offset');
        const q = queryText(req, 'q');
        const category = queryText(req, 'category');
        return symbols({
          ...(q ? { q } : {}),
          ...(category ? { category } : {}),
          ...(limit !== undefined ? { limit } : {}),
          ...(offset !== undefined ? { offset } : {}),
        });
      },
    },
    {
      method: 'GET',
      path: '/v1/shortcuts',
      summary: "The names of the person's Apple Shortcuts",
      description: 'What `shortcuts list` prints; the tool exists on macOS only.',
      tag: 'Lookups',
      reply: shortcutsSchema,
      errors: { 502: 'the shortcuts tool is not on this computer, or it failed', 504: 'the shortcuts tool did not answer in time' },
      examples: [{ summary: 'Every shortcut' }],
      handler: () => () => listShortcuts(),
    },
  ];
}
