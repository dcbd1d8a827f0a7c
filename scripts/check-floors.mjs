#!/usr/bin/env node
// The floors of the house (docs/architecture.md, "Floors"): inside each area below, the folders import one another
// in one direction only — the folder-level import graph has no cycle, so every folder stands on the ones it
// imports and none of them reaches back up to it. A cycle is printed with every import that makes it, and the
// check fails. It also fails on a dynamic `import()` that crosses from one top-level folder into another: what one
// part loads from another it imports where everyone can see it. Run by `npm run check`.
// Only Node's own modules: it reads the files as text (relative imports, `import … from`, `export … from` and
// `import()`), the same way for .ts, .tsx and .mjs.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CODE_FOLDERS, sourceFiles } from './source-files.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The areas whose folders must stand in floors; '' is the repository's top level. */
const AREAS = ['', 'daemon/', 'daemon/core/', 'daemon/http/', 'relay/', 'app/src/', 'cli/', 'tray/'];
/** The product's folders: a dynamic import() from one of them into another is refused (tests and benchmarks may). */
const PRODUCT = new Set(['protocol', 'common', 'templates-renderer', 'daemon', 'cli', 'tray', 'relay', 'app']);
const SOURCE = /\.(ts|tsx|mts|mjs)$/;
const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'";]*?from\s+['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** Every relative import: from which file to which module (its path without extension), and whether dynamic. */
function imports() {
  const all = [];
  for (const folder of CODE_FOLDERS) {
    for (const file of sourceFiles(root, folder, SOURCE)) {
      const text = readFileSync(path.join(root, file), 'utf8');
      for (const match of text.matchAll(IMPORT)) {
        const spec = match[1] ?? match[2];
        const target = path.normalize(path.join(path.dirname(file), spec)).replace(/\.(js|ts|tsx|mjs)$/, '');
        all.push({ from: file.replace(SOURCE, ''), to: target, dynamic: match[2] !== undefined });
      }
    }
  }
  return all;
}

/** The unit a module belongs to inside an area: its first folder there, or the file itself at the area's root. */
function unitOf(area, module) {
  if (!module.startsWith(area)) return undefined;
  const rest = module.slice(area.length);
  const slash = rest.indexOf('/');
  return slash < 0 ? rest : `${rest.slice(0, slash)}/`;
}

/** The strongly connected groups of more than one unit (Tarjan). */
function cycles(edges) {
  const nodes = new Set(edges.flatMap(([a, b]) => [a, b]));
  const next = new Map([...nodes].map((node) => [node, edges.filter(([a]) => a === node).map(([, b]) => b)]));
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  let counter = 0;
  const visit = (node) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const other of next.get(node)) {
      if (!index.has(other)) {
        visit(other);
        low.set(node, Math.min(low.get(node), low.get(other)));
      } else if (onStack.has(other)) low.set(node, Math.min(low.get(node), index.get(other)));
    }
    if (low.get(node) !== index.get(node)) return;
    const group = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) groups.push(group);
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return groups;
}

const found = imports();
let failures = 0;
for (const area of AREAS) {
  const edges = new Map();
  for (const { from, to } of found) {
    const [a, b] = [unitOf(area, from), unitOf(area, to)];
    if (a === undefined || b === undefined || a === b) continue;
    const key = `${a} -> ${b}`;
    edges.set(key, [...(edges.get(key) ?? []), `${from} -> ${to}`]);
  }
  for (const group of cycles([...edges.keys()].map((key) => key.split(' -> ')))) {
    failures++;
    console.error(`check-floors: ${area || 'the top level'}: ${group.join(', ')} import one another in a circle:`);
    for (const [key, lines] of edges) {
      const [a, b] = key.split(' -> ');
      if (group.includes(a) && group.includes(b))
        console.error(`  ${key}: ${lines.slice(0, 3).join('; ')}${lines.length > 3 ? ` (+${lines.length - 3})` : ''}`);
    }
  }
}
for (const { from, to, dynamic } of found) {
  const [fromArea, toArea] = [from.split('/')[0], to.split('/')[0]];
  if (!dynamic || fromArea === toArea || !PRODUCT.has(fromArea)) continue;
  failures++;
  console.error(`check-floors: ${from} loads ${to} with import(): import it statically, or move what it needs to where both may import it`);
}
process.exit(failures > 0 ? 1 : 0);
