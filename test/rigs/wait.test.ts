// The rigs' polling wait (rigs/wait.ts). A loaded CI machine once stopped a test's process for longer than the wait:
// on waking, the poll ran before the timer it was waiting on and the test failed with nothing wrong.

import { spawn } from 'node:child_process';
import { expect, test } from '@jest/globals';
import { waitFor } from '../../rigs/wait.js';

test('a process stopped past the deadline still sees the timer that fell due meanwhile', async () => {
  let fired = false;
  setTimeout(() => (fired = true), 500);
  // Stopped at 0.2 s for 2 s: both the poll (every 20 ms) and the timer (0.5 s) are due when it goes on.
  spawn('sh', ['-c', `sleep 0.2; kill -STOP ${process.pid}; sleep 2; kill -CONT ${process.pid}`], { stdio: 'ignore' }).unref();
  await expect(waitFor(() => (fired ? true : undefined), 'the timer', 1000)).resolves.toBe(true);
});

test('what never comes is reported by name once the time is up', async () => {
  const started = performance.now();
  await expect(waitFor(() => undefined, 'nothing', 100)).rejects.toThrow('timed out waiting for nothing');
  expect(performance.now() - started).toBeGreaterThanOrEqual(100);
});
