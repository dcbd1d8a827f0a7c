import { afterAll } from '@jest/globals';
import { type Desktop, startDesktop as startRig } from '../../bench/rigs/desktop.js';

export type { Desktop };

/** Desktops of this test file still up: a failing test must not leave Xvfb, a bus or dunst behind. */
const running = new Set<Desktop>();
afterAll(async () => {
  for (const desktop of running) await desktop.stop();
});

/** The desktop rig (bench/rigs/desktop.ts), stopped after the test file whatever happens. */
export async function startDesktop(): Promise<Desktop> {
  const desktop = await startRig();
  running.add(desktop);
  const stop = desktop.stop;
  desktop.stop = async () => {
    running.delete(desktop);
    await stop();
  };
  return desktop;
}
