// README.md is where a person learns what to run: every benchmark script of package.json has its row in README's
// table of benchmarks (docs/performance.md holds the figures).

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@jest/globals';
import { ROOT } from '../helpers/daemon.js';

test('every bench:* script of package.json has its row in README', () => {
  const scripts = Object.keys(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>);
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const benches = scripts.filter((name) => name.startsWith('bench:'));
  expect(benches.length).toBeGreaterThan(10);
  expect(benches.filter((name) => !readme.includes(`| \`${name}\` |`))).toEqual([]);
});
