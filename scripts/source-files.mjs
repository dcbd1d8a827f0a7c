// The source files below a folder of the repository, for the checks of `npm run check` that read them as text
// (check-floors.mjs, check-sizes.mjs): what they skip (dependencies, builds, declaration files) is decided here once.

import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Top-level folders that are code (the others are data: fixtures, docs). */
export const CODE_FOLDERS = [
  'protocol',
  'common',
  'templates-renderer',
  'daemon',
  'cli',
  'tray',
  'relay',
  'app',
  'clients',
  'bench',
  'rigs',
  'test',
  'scripts',
];

/** Every source file below `folder` (relative to `root`), as a path relative to `root`; none for a missing folder. */
export function sourceFiles(root, folder, pattern) {
  let names;
  try {
    names = readdirSync(path.join(root, folder));
  } catch {
    return []; // a folder this checkout does not have
  }
  const found = [];
  for (const name of names) {
    const file = path.join(folder, name);
    if (name === 'node_modules' || name === 'dist') continue;
    if (statSync(path.join(root, file)).isDirectory()) found.push(...sourceFiles(root, file, pattern));
    else if (pattern.test(name) && !name.endsWith('.d.ts')) found.push(file);
  }
  return found;
}
