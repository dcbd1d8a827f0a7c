// The processes a test file starts (daemons, relays) are stopped by its afterAll. A run that dies before that —
// killed, interrupted, out of time — would leave them running: so one keeper process per test worker holds their
// PIDs through a pipe, and when the pipe closes (the worker is gone, whichever way) it stops those still running
// and removes their folders.
// The PID is checked against the program it was given first, so a number the system has given to another
// process since is left alone.

import { spawn, type ChildProcess } from 'node:child_process';

/** How long the keeper waits after SIGTERM before SIGKILL. */
const KEEPER_GRACE_MS = 5000;

const KEEPER_SCRIPT = `
  const { readFileSync, rmSync } = require('node:fs');
  process.on('SIGINT', () => {}); process.on('SIGTERM', () => {});
  const kept = new Map();
  let input = '';
  process.stdin.on('data', (chunk) => {
    input += chunk;
    const lines = input.split('\\n');
    input = lines.pop();
    for (const line of lines) {
      const { keep, forget, marker, folder } = JSON.parse(line);
      if (keep) kept.set(keep, { marker, folder });
      else kept.delete(forget);
    }
  });
  process.stdin.on('end', () => {
    const alive = ([pid, { marker }]) => { try { return readFileSync('/proc/' + pid + '/cmdline', 'utf8').includes(marker); } catch { return false; } };
    const signal = (name) => { for (const entry of kept) if (alive(entry)) { try { process.kill(entry[0], name); } catch {} } };
    signal('SIGTERM');
    const until = Date.now() + ${KEEPER_GRACE_MS};
    const wait = () => {
      if ([...kept].some(alive) && Date.now() < until) return setTimeout(wait, 100);
      signal('SIGKILL');
      for (const [, { folder }] of kept) if (folder) rmSync(folder, { recursive: true, force: true });
      process.exit(0);
    };
    wait();
  });`;

let keeper: ChildProcess | undefined;

/**
 * Tells this worker's keeper about `child` (started with `marker` in its command line): if the run dies first, the
 * keeper stops it and removes `folder` (its temporary data). Forgotten again when it exits.
 */
export function keepTrackOf(child: ChildProcess, marker: string, folder?: string): void {
  if (child.pid === undefined) return;
  if (!keeper) {
    keeper = spawn(process.execPath, ['-e', KEEPER_SCRIPT], { stdio: ['pipe', 'ignore', 'ignore'] });
    keeper.unref();
    (keeper.stdin as unknown as { unref?: () => void }).unref?.();
    keeper.stdin!.on('error', () => undefined); // the keeper gone: nothing more to tell it
  }
  const pid = child.pid;
  keeper.stdin!.write(`${JSON.stringify({ keep: pid, marker, folder })}\n`);
  child.once('exit', () => keeper?.stdin?.writable && keeper.stdin.write(`${JSON.stringify({ forget: pid })}\n`));
}
