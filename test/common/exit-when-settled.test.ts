// common/exit-when-settled.ts: a program stopped by a signal ends when its stop settles — 0 when done, 1 after
// saying why it failed — and not before; run in a real Node process kept alive by a timer, as the daemon and the
// relay are by their servers.

import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from '@jest/globals';
import { ROOT } from '../helpers/daemon.js';

const BUILT = pathToFileURL(path.join(ROOT, 'dist', 'common', 'exit-when-settled.js')).href;

/** Runs `stopping` (a Promise expression) through exitWhenSettled in a process that would otherwise never end. */
function run(stopping: string) {
  const script = [
    `import { exitWhenSettled } from ${JSON.stringify(BUILT)};`,
    'setInterval(() => {}, 1000);',
    `exitWhenSettled(${stopping}, (error) => process.stderr.write('failed: ' + error.message));`,
  ].join('\n');
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 10_000 });
}

test('a stop that is done ends the process with 0, once it has settled', () => {
  const done = run("new Promise((resolve) => setTimeout(() => { process.stdout.write('stopped'); resolve(); }, 50))");
  expect(done.stdout).toBe('stopped');
  expect(done.stderr).toBe('');
  expect(done.status).toBe(0);
});

test('a stop that fails is reported, then ends the process with 1', () => {
  const failed = run("new Promise((_resolve, reject) => setTimeout(() => reject(new Error('the store would not close')), 50))");
  expect(failed.stderr).toBe('failed: the store would not close');
  expect(failed.status).toBe(1);
});
