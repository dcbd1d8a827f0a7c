import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sessionBus } from '../daemon/integrations/dbus-bus.js';
import { startSessionBus } from './session-bus.js';
import { waitFor } from './wait.js';

// Shared by the tests and the benchmarks: no test framework in here.

export interface Desktop {
  /** DISPLAY and DBUS_SESSION_BUS_ADDRESS of this desktop, for the programs started on it. */
  env: Record<string, string>;
  /** Runs dunstctl against this desktop's dunst. */
  dunstctl(...args: string[]): Promise<string>;
  /**
   * Opens dunst's context menu, as the person's shortcut does, and has the fake dmenu pick the line holding `text`
   * (none when no line holds it). Resolves once the menu was shown.
   */
  choose(text: string): Promise<void>;
  /** The context menu dunst showed last, one line per action ("#Label (summary) [id,action]"). */
  lastMenu(): Promise<string>;
  /**
   * Stops dunst and starts it again with other settings (as a person who edited the dunstrc restarts it): another
   * process takes the bus name. Resolves once the new one owns it.
   */
  restartDunst(options?: DunstOptions): Promise<void>;
  /** A PNG of the whole screen (ImageMagick's `import -window root`). */
  screenshot(file: string): Promise<void>;
  stop(): Promise<void>;
}

/** How dunst runs on the desktop. */
export interface DunstOptions {
  /**
   * Settings of its dunstrc's [global] section over the rig's own (`dmenu` is the fake menu the test steers,
   * `markup = full` as in the shipped dunstrc).
   */
  settings?: Record<string, string>;
  /** Its environment over the test's (a PATH without a program, say). */
  env?: Record<string, string>;
}

function run(program: string, args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(program, args, { env: { ...process.env, ...env }, timeout: 10_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${program} ${args.join(' ')}: ${stderr || error.message}`)) : resolve(stdout.trim()),
    ),
  );
}

/**
 * Starts Xvfb on a display it finds free itself (`-displayfd`: it takes the first number whose lock it gets, and
 * writes it to the pipe once it listens), so desktops that test files start at the same time never share one.
 */
async function startXvfb(processes: ChildProcess[]): Promise<number> {
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x800x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  });
  processes.push(xvfb);
  let written = '';
  xvfb.stdio[3]!.on('data', (chunk: Buffer) => (written += chunk.toString()));
  await waitFor(() => {
    if (xvfb.exitCode !== null) throw new Error(`Xvfb exited (${xvfb.exitCode}) before it listened`);
    return /^\d+\n/.test(written) ? true : undefined;
  }, 'Xvfb');
  return Number.parseInt(written, 10);
}

/**
 * A desktop for end-to-end tests: Xvfb (a screen with nothing attached), a private D-Bus session bus, and dunst,
 * a real notification server, whose context menu is answered by a fake dmenu the test steers. Everything is
 * stopped by PID afterwards.
 */
export async function startDesktop(options: { dunst?: DunstOptions } = {}): Promise<Desktop> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'notifier-desktop-'));
  const processes: ChildProcess[] = [];
  let display: number | undefined;
  let bus: Awaited<ReturnType<typeof startSessionBus>> | undefined;
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await Promise.all(processes.reverse().map(stopProcess));
    await bus?.stop();
    // Xvfb removes these itself when it exits cleanly; not after a SIGKILL.
    const xFiles = display === undefined ? [] : [`/tmp/.X${display}-lock`, `/tmp/.X11-unix/X${display}`];
    await Promise.all([folder, ...xFiles].map((file) => rm(file, { recursive: true, force: true })));
  };
  try {
    return await startParts();
  } catch (error) {
    await stop(); // a desktop that did not come up leaves nothing behind either
    throw error;
  }

  async function startParts(): Promise<Desktop> {
    display = await startXvfb(processes);
    bus = await startSessionBus();
    const env = { DISPLAY: `:${display}`, DBUS_SESSION_BUS_ADDRESS: bus.address };

    const pickFile = path.join(folder, 'pick.txt');
    const menuFile = path.join(folder, 'menu.txt');
    const dmenu = path.join(folder, 'dmenu.sh');
    await writeFile(pickFile, '');
    await writeFile(dmenu, `#!/bin/sh\ntee "${menuFile}" | grep -m1 -F "$(cat "${pickFile}")"\n`);
    await chmod(dmenu, 0o755);
    // As a new user's dunst reads its shipped dunstrc: body markup on (`markup = full`, so it advertises body-markup).
    const ownSettings = { dmenu, markup: 'full', mouse_left_click: 'do_action, close_current', show_age_threshold: '-1' };
    // Found on this process's PATH: the one given to dunst may not hold it.
    const dunstProgram = await run('sh', ['-c', 'command -v dunst'], {});
    let dunst: ChildProcess | null = null;
    const startDunst = async (dunstOptions: DunstOptions = {}): Promise<void> => {
      const config = path.join(folder, 'dunstrc');
      const settings = { ...ownSettings, ...dunstOptions.settings };
      await writeFile(
        config,
        `[global]\n${Object.entries(settings)
          .map(([key, value]) => `    ${key} = ${value}\n`)
          .join('')}`,
      );
      dunst = spawn(dunstProgram, ['-config', config], { env: { ...process.env, ...env, ...dunstOptions.env }, stdio: 'ignore' });
      processes.push(dunst);
      const client = sessionBus(bus!.address);
      try {
        const daemon = (await client.getProxyObject('org.freedesktop.DBus', '/org/freedesktop/DBus')).getInterface('org.freedesktop.DBus');
        const pid = dunst.pid;
        await waitFor(async () => {
          const owner = (await daemon.NameHasOwner(NOTIFICATIONS)) && (await daemon.GetConnectionUnixProcessID(NOTIFICATIONS));
          return owner === pid ? true : undefined;
        }, 'dunst on the bus');
      } finally {
        client.disconnect();
      }
    };
    await startDunst(options.dunst);

    return {
      env,
      dunstctl: (...args) => run('dunstctl', args, env),
      choose: async (text) => {
        await writeFile(pickFile, text);
        await rm(menuFile, { force: true });
        // dunst 1.9 refuses (silently, to dunstctl) to open the menu while its previous one is still winding down on
        // its own thread; the person would press the shortcut again, and so does this.
        for (let attempt = 1; ; attempt++) {
          await run('dunstctl', ['context'], env);
          const shown = await waitFor(() => (existsSync(menuFile) ? true : undefined), 'the context menu', MENU_OPEN_MS).catch(() => false);
          if (shown) return;
          if (attempt === MENU_ATTEMPTS) throw new Error(`dunst did not open its context menu (${MENU_ATTEMPTS} tries)`);
        }
      },
      lastMenu: () => readFile(menuFile, 'utf8').catch(() => ''),
      restartDunst: async (dunstOptions) => {
        if (dunst) {
          await stopProcess(dunst);
          processes.splice(processes.indexOf(dunst), 1);
        }
        await startDunst(dunstOptions);
      },
      screenshot: (file) => run('import', ['-window', 'root', file], env).then(() => undefined),
      stop,
    };
  }
}

/** SIGTERM, and wait until it has exited; SIGKILL after STOP_GRACE_MS. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}
const STOP_GRACE_MS = 3000;
const NOTIFICATIONS = 'org.freedesktop.Notifications';

/** How long one press of the menu shortcut may take to show the menu, and how many presses before giving up. */
const MENU_OPEN_MS = 2000;
const MENU_ATTEMPTS = 5;
