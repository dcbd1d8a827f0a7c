#!/usr/bin/env node
// The sizes of the house (docs/architecture.md, "Checks in `npm test`"): a source file a newcomer must read stays
// under 600 lines, and no class takes more than 8 constructor parameters (one that does is a service locator: give
// it a narrower context instead). Data tables are the exception, named below with why. Tests are not counted: a test
// file is long when its behaviour has many cases. Run by `npm run check`; only Node's own modules, reading the
// files as text (TypeScript 7 has no JavaScript API to parse them with).

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CODE_FOLDERS, sourceFiles } from './source-files.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The most lines of a source file. */
const MAX_LINES = 600;
/** The most parameters of a class's constructor. */
const MAX_CONSTRUCTOR_PARAMETERS = 8;
/** Files that are data, not logic: the renderer's component schema and its icon-name table. */
const DATA_TABLES = new Set(['templates-renderer/schema.ts', 'templates-renderer/symbols.ts']);
/** The folders of source: the code's, tests aside. */
const SOURCE_FOLDERS = CODE_FOLDERS.filter((folder) => folder !== 'test');
const SOURCE = /\.(ts|tsx|mts|mjs|cjs|js)$/;

/**
 * How many parameters each `constructor(` in `text` takes: its top-level commas, counted outside (), [], {} and <>
 * (an arrow's `=>` is not a bracket), comments and strings, and a trailing comma not counted.
 */
function constructorParameters(text) {
  const counts = [];
  for (const match of text.matchAll(/\bconstructor\s*\(/g)) {
    let depth = 1;
    let commas = 0;
    let trailing = true; // nothing but blanks and comments since the last top-level comma
    let at = match.index + match[0].length;
    while (at < text.length && depth > 0) {
      const char = text[at];
      const skip = skipped(text, at);
      if (skip > at) {
        if (!text.startsWith('/', at)) trailing = false; // a string, not a comment
        at = skip;
        continue;
      }
      if ('([{<'.includes(char)) depth++;
      else if (')]}'.includes(char) || (char === '>' && text[at - 1] !== '=')) depth--;
      if (depth === 1 && char === ',') {
        commas++;
        trailing = true;
      } else if (depth > 0 && /\S/.test(char)) trailing = false;
      at++;
    }
    const empty = commas === 0 && trailing;
    counts.push(empty ? 0 : commas + (trailing ? 0 : 1));
  }
  return counts;
}

/** Where a comment or a string that starts at `at` ends (`at` itself when none starts there). */
function skipped(text, at) {
  if (text.startsWith('//', at)) return text.indexOf('\n', at) < 0 ? text.length : text.indexOf('\n', at);
  if (text.startsWith('/*', at)) return text.indexOf('*/', at) < 0 ? text.length : text.indexOf('*/', at) + 2;
  const quote = text[at];
  if (quote !== "'" && quote !== '"' && quote !== '`') return at;
  let end = at + 1;
  while (end < text.length && text[end] !== quote) end += text[end] === '\\' ? 2 : 1;
  return end + 1;
}

let failures = 0;
for (const file of SOURCE_FOLDERS.flatMap((folder) => sourceFiles(root, folder, SOURCE))) {
  const text = readFileSync(path.join(root, file), 'utf8');
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines > MAX_LINES && !DATA_TABLES.has(file)) {
    failures++;
    console.error(`check-sizes: ${file} has ${lines} lines (at most ${MAX_LINES}): split it where its parts are read apart`);
  }
  for (const count of constructorParameters(text)) {
    if (count <= MAX_CONSTRUCTOR_PARAMETERS) continue;
    failures++;
    console.error(`check-sizes: ${file}: a constructor takes ${count} parameters (at most ${MAX_CONSTRUCTOR_PARAMETERS})`);
  }
}
process.exit(failures > 0 ? 1 : 0);
