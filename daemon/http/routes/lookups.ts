// docs/api/templates.md#lookups: the component schema, the symbol catalogue and the installed shortcuts.

import { execFile } from 'node:child_process';
import type { Request } from 'express';
import { componentsDocument } from '../../../templates-renderer/components-doc.js';
import { SymbolsError, type SymbolQuery, listSymbols } from '../../../templates-renderer/symbols.js';
import { errors } from '../../../protocol/errors.js';
import { SHORTCUTS_TIMEOUT_MS } from '../../../protocol/limits.js';
import { queryText } from '../params.js';
import type { Route } from '../routes.js';

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
    throw problem.kind === 'no-symbol-list' ? errors.noSymbolList(problem.cause) : errors.unknownSymbolCategory(problem.category, problem.known);
  }
}

/**
 * docs/api/templates.md#get-v1-shortcuts: the names `shortcuts list` prints. Apple's Shortcuts exists only on
 * macOS; elsewhere the tool is missing and the answer is 502 saying so (#t27).
 */
function listShortcuts(): Promise<{ items: string[] }> {
  return new Promise((resolve, reject) => {
    execFile('shortcuts', ['list'], { timeout: SHORTCUTS_TIMEOUT_MS, maxBuffer: 1024 * 1024 }, (error, stdout) => {
      if (!error) return resolve({ items: stdout.split('\n').map((line) => line.trim()).filter(Boolean) });
      const failure = error as NodeJS.ErrnoException & { killed?: boolean };
      if (failure.killed) return reject(errors.shortcutsTimeout());
      if (failure.code === 'ENOENT') return reject(errors.shortcutsMissing());
      reject(errors.shortcutsFailed(error.message));
    });
  });
}

export function lookupRoutes(): Route[] {
  return [
    { method: 'GET', path: '/v1/components', handle: () => componentsDocument() },
    {
      method: 'GET',
      path: '/v1/symbols',
      handle: (req) => {
        const limit = queryCount(req, 'limit');
        const offset = queryCount(req, 'offset');
        const q = queryText(req, 'q');
        const category = queryText(req, 'category');
        return symbols({ ...(q ? { q } : {}), ...(category ? { category } : {}), ...(limit !== undefined ? { limit } : {}), ...(offset !== undefined ? { offset } : {}) });
      },
    },
    { method: 'GET', path: '/v1/shortcuts', handle: () => listShortcuts() },
  ];
}
