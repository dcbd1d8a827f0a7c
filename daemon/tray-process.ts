import { type ChildProcess, spawn } from 'node:child_process';
import { log } from './log.js';

/**
 * Starts the tray companion (tray/main.ts) as its own process when there is a desktop session to show it on.
 * What it says goes to the daemon's log; if it cannot start, the daemon carries on without it.
 */
export function startTray(script: string, supportDir: string): { stop(): void } | null {
  if (!process.env.DISPLAY && !process.env.WAYLAND_DISPLAY && process.platform === 'linux') return null;
  const child: ChildProcess = spawn(process.execPath, [script, '--support-dir', supportDir], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr!.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) log.info(`tray: ${line}`);
  });
  child.once('error', (error) => log.warn(`the tray could not start: ${error.message}`));
  return { stop: () => void child.kill('SIGTERM') };
}
