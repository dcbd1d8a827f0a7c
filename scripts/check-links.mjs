#!/usr/bin/env node
// Every relative link in README.md and docs/ (and the other Markdown files of the repository) must resolve inside
// the repository: the file exists, and a `#fragment` names a heading or an explicit anchor of that file. Links to
// the web (http:, https:, mailto:) are not fetched. Run by `npm test`; prints each broken link and exits 1.

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The Markdown files git knows of (tracked or new), outside node_modules. */
function markdownFiles() {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], { cwd: root, encoding: 'utf8' });
  return listed.split('\n').filter((file) => file && !file.includes('node_modules/') && existsSync(path.join(root, file)));
}

/** `[text](target)` and `[text]: target` links, outside fenced code blocks and inline code. */
function linksIn(markdown) {
  const links = [];
  let fenced = false;
  markdown.split('\n').forEach((line, index) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) return;
    const text = line.replace(/`[^`]*`/g, '');
    for (const match of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ target: match[1], line: index + 1 });
    const reference = /^\s*\[[^\]]+\]:\s*(\S+)/.exec(text);
    if (reference) links.push({ target: reference[1], line: index + 1 });
  });
  return links;
}

/** GitHub's heading ids: lower case, punctuation dropped, spaces to `-`, repeats numbered. */
function anchorsOf(markdown) {
  const anchors = new Set();
  const seen = new Map();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1]);
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = heading[1]
      .replace(/<[^>]+>/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

const problems = [];
const anchorCache = new Map();
const anchorsFor = (file) => {
  if (!anchorCache.has(file)) anchorCache.set(file, anchorsOf(readFileSync(file, 'utf8')));
  return anchorCache.get(file);
};

for (const file of markdownFiles()) {
  const full = path.join(root, file);
  for (const { target, line } of linksIn(readFileSync(full, 'utf8'))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto: ... are not checked here
    const [rawPath, fragment] = target.split('#');
    const decoded = decodeURIComponent(rawPath ?? '');
    const destination = decoded === '' ? full : path.resolve(path.dirname(full), decoded);
    const where = `${file}:${line}: ${target}`;
    if (!destination.startsWith(root + path.sep) && destination !== root) problems.push(`${where} leaves the repository`);
    else if (!existsSync(destination)) problems.push(`${where} does not exist`);
    else if (fragment && destination.endsWith('.md') && statSync(destination).isFile() && !anchorsFor(destination).has(fragment)) {
      problems.push(`${where} names no heading or anchor of ${path.relative(root, destination)}`);
    }
  }
}

if (problems.length > 0) {
  process.stderr.write(`check-links: ${problems.length} broken link(s):\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
  process.exit(1);
}
