import { afterAll, beforeAll } from '@jest/globals';
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { type Desktop, type DunstOptions, startDesktop as startRig } from '../../rigs/desktop.js';
import { waitFor } from '../../rigs/wait.js';
import type { DaemonProcess } from './daemon.js';

export type { Desktop, DunstOptions };

/** Desktops of this test file still up: a failing test must not leave Xvfb, a bus or dunst behind. */
const running = new Set<Desktop>();
afterAll(async () => {
  for (const desktop of running) await desktop.stop();
});

/** The desktop rig (rigs/desktop.ts), stopped after the test file whatever happens. */
export async function startDesktop(options: { dunst?: DunstOptions } = {}): Promise<Desktop> {
  const desktop = await startRig(options);
  running.add(desktop);
  const stop = desktop.stop;
  desktop.stop = async () => {
    running.delete(desktop);
    await stop();
  };
  return desktop;
}

/**
 * A desktop for the block it is called in, and the daemon `start` starts on it once it is up (with the D-Bus
 * presenter, its banners on dunst): both before the block's tests. After them the daemon stops first, then the
 * desktop: a daemon still running would be talking to a session bus that has gone.
 */
export function useDesktopDaemon<D extends DaemonProcess>(
  start: (desktop: Desktop) => Promise<D>,
  timeoutMs = 30_000,
): { desktop: () => Desktop; daemon: () => D } {
  let desktop: Desktop | undefined;
  let daemon: D | undefined;
  beforeAll(async () => {
    desktop = await startDesktop();
    daemon = await start(desktop);
  }, timeoutMs);
  afterAll(async () => {
    await daemon?.stop();
    await desktop?.stop();
  });
  return { desktop: () => desktop!, daemon: () => daemon! };
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

/** Waits for a banner on dunst and gives the one titled `summary`, closing them all (dunst's history keeps them). */
export async function bannerOnDunst(desktop: Desktop, summary: string): Promise<PastBanner> {
  await waitFor(async () => ((await displayed(desktop)) > 0 ? true : undefined), 'a banner on dunst');
  await desktop.dunstctl('close-all');
  const shown = await dunstHistory(desktop);
  const banner = shown.find((entry) => entry.summary === summary);
  if (!banner) throw new Error(`dunst did not show "${summary}": ${JSON.stringify(shown)}`);
  return banner;
}

/** A `Notify` call as it crossed the bus: what the notification server was sent. */
export interface NotifySent {
  appName: string;
  summary: string;
  body: string;
  /** The actions, as pairs flattened: id, label, id, label... */
  actions: string[];
  /** The hints by name (`image-path`, `urgency`...): the value of a string hint, '' for the others. */
  hints: Record<string, string>;
  /** The app_icon argument. */
  icon: string;
}

/**
 * dbus-monitor on the desktop's bus, noting every `Notify` call (its texts without quotes or line breaks, as the tests
 * send them). Stopped by PID with the desktop's test file.
 */
export async function watchNotify(desktop: Desktop): Promise<{ sent: NotifySent[]; stop(): void }> {
  const monitor = spawn('dbus-monitor', ["type='method_call',interface='org.freedesktop.Notifications',member='Notify'"], {
    env: { ...process.env, ...desktop.env },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const sent: NotifySent[] = [];
  let text = '';
  monitor.stdout!.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    // Each message starts at the beginning of a line; a Notify call is complete with its last argument, the timeout.
    const messages = text.split(/^(?=method call |signal |method return |error )/m);
    const complete = messages.filter((message) => /member=Notify\n[\s\S]*^ {3}int32 -?\d+$/m.test(message));
    sent.splice(0, sent.length, ...complete.map(parseNotify));
  });
  const stop = (): void => void monitor.kill();
  monitors.add(stop);
  await new Promise((resolve) => setTimeout(resolve, 300)); // dbus-monitor has registered its match
  return { sent, stop };
}

const monitors = new Set<() => void>();
afterAll(() => monitors.forEach((stop) => stop()));

function parseNotify(message: string): NotifySent {
  const strings = [...message.matchAll(/^ {3}string "(.*)"$/gm)].map((match) => match[1]!);
  const [appName = '', icon = '', summary = '', body = ''] = strings;
  const arrays = [...message.matchAll(/^ {3}array \[\n([\s\S]*?)^ {3}\]$/gm)].map((match) => match[1]!);
  const actions = [...(arrays[0] ?? '').matchAll(/^ {6}string "(.*)"$/gm)].map((match) => match[1]!);
  const entries = [...(arrays[1] ?? '').matchAll(/^ {9}string "(.*)"\n {9}variant\s+(?:string "(.*)"|.*)$/gm)];
  const hints = Object.fromEntries(entries.map((match) => [match[1]!, match[2] ?? '']));
  return { appName, icon, summary, body, actions, hints };
}

/**
 * The reply window whose title holds `title`, as the person sees it: its title, and the text above its field (the
 * `--text` zenity was started with, read from its command line, zenity's escapes undone as it draws them).
 */
export async function replyWindow(desktop: Desktop, title: string): Promise<{ title: string; text: string }> {
  const window = (await xdotool(desktop, 'search', '--sync', '--onlyvisible', '--name', title)).split('\n')[0]!;
  const pid = Number(await xdotool(desktop, 'getwindowpid', window));
  const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  const text = (argv.find((arg) => arg.startsWith('--text=')) ?? '').slice('--text='.length);
  return { title: await xdotool(desktop, 'getwindowname', window), text: text.replace(/\\\\|__/g, (escape) => escape[0]!) };
}
