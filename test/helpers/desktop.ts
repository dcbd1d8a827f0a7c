import { afterAll } from '@jest/globals';
import { execFile } from 'node:child_process';
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

/** How many banners dunst has on screen. */
export const displayed = async (desktop: Desktop): Promise<number> => Number(await desktop.dunstctl('count', 'displayed'));

/** Runs xdotool on the desktop's screen. */
export function xdotool(desktop: Desktop, ...args: string[]): Promise<string> {
  return new Promise<string>((resolve, reject) =>
    execFile('xdotool', args, { env: { ...process.env, ...desktop.env }, timeout: 15_000 }, (error, stdout) =>
      error ? reject(error) : resolve(stdout.trim()),
    ),
  );
}

/** Types `text` and Return into the window whose title holds `title` (the reply window), as the person would. */
export async function typeInto(desktop: Desktop, title: string, text: string): Promise<void> {
  const window = (await xdotool(desktop, 'search', '--sync', '--onlyvisible', '--name', title)).split('\n')[0]!;
  await xdotool(desktop, 'windowfocus', '--sync', window);
  await xdotool(desktop, 'type', '--delay', '20', text);
  await xdotool(desktop, 'key', 'Return');
}

/** A banner dunst no longer shows, as `dunstctl history` lists it. */
export interface PastBanner {
  appname: string;
  summary: string;
  body: string;
}

/** The banners dunst closed, newest first (`dunstctl history`). */
export async function dunstHistory(desktop: Desktop): Promise<PastBanner[]> {
  const { data } = JSON.parse(await desktop.dunstctl('history')) as { data: Array<Array<Record<string, { data: unknown }>>> };
  return (data[0] ?? []).map((item) => ({
    appname: String(item.appname?.data ?? ''),
    summary: String(item.summary?.data ?? ''),
    body: String(item.body?.data ?? ''),
  }));
}
