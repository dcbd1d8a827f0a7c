import { execFile, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { OpenTarget } from './presenter.js';

/** How long the system's opener may take to hand the target over. */
const OPEN_TIMEOUT_MS = 10_000;

/** The platform's own way to open a link or an app, always with an argument array (never a shell). */
function command(target: OpenTarget): [string, string[]] | null {
  const platform = process.platform;
  if ('url' in target) {
    if (platform === 'darwin') return ['open', [target.url]];
    if (platform === 'win32') return ['rundll32', ['url.dll,FileProtocolHandler', target.url]];
    return ['xdg-open', [target.url]];
  }
  const { bundleId, path } = target.app;
  if (platform === 'darwin') return bundleId ? ['open', ['-b', bundleId]] : path ? ['open', [path]] : null;
  if (platform === 'win32') return path ? ['explorer', [path]] : null;
  // Linux: a desktop entry id (org.gnome.Nautilus) is launched by gtk-launch; a path by xdg-open.
  return bundleId ? ['gtk-launch', [bundleId]] : path ? ['xdg-open', [path]] : null;
}

/** Opens a target on this computer's desktop; rejects with a short reason the person can read. */
export function openOnDesktop(target: OpenTarget): Promise<void> {
  const chosen = command(target);
  if (!chosen) return Promise.reject(new Error('no installed application found'));
  const [program, args] = chosen;
  return new Promise((resolve, reject) => {
    execFile(program, args, { timeout: OPEN_TIMEOUT_MS }, (error, _stdout, stderr) => {
      if (!error) return resolve();
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
      const why = missing ? `${program} is not installed` : stderr.trim().split('\n')[0] || error.message;
      reject(new Error('app' in target ? `no installed application found (${why})` : `could not open it: ${why}`));
    });
  });
}

/** Browsers that open a page as an app window (`--app=`: no tabs, no address bar), in the order they are tried. */
export const APP_WINDOW_BROWSERS = ['chromium', 'chromium-browser', 'google-chrome'] as const;

/** The first folder of PATH holding an executable `program`, as a full path; null when none does. */
export function findOnPath(program: string, env: NodeJS.ProcessEnv = process.env): string | null {
  for (const folder of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(folder, program);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** Is there a desktop to open a window on? On Linux and the BSDs, an X or Wayland session (DISPLAY or WAYLAND_DISPLAY). */
export function hasDesktopSession(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): boolean {
  if (platform === 'darwin' || platform === 'win32') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/**
 * Opens a local page (the person's app's sign-in file) in a window of its own: the first of chromium,
 * chromium-browser and google-chrome on PATH in `--app=` mode, else xdg-open; `open` on macOS. The browser is left
 * running on its own. Only the file's path is on the command line, never what the file holds.
 */
export function openAppWindow(file: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const url = pathToFileURL(file).href;
  if (process.platform === 'darwin') return openOnDesktop({ url: file });
  if (process.platform === 'win32') return openOnDesktop({ url });
  for (const name of APP_WINDOW_BROWSERS) {
    const program = findOnPath(name, env);
    if (program) return launchDetached(program, [`--app=${url}`], env);
  }
  if (!findOnPath('xdg-open', env)) {
    return Promise.reject(
      new Error(`no browser to open it with: install chromium (or put ${APP_WINDOW_BROWSERS.join(', ')} or xdg-open on PATH)`),
    );
  }
  return launchDetached('xdg-open', [file], env);
}

/** Starts a program that lives on after the daemon (a browser): resolves once it started, rejects when it cannot. */
function launchDetached(program: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { env, detached: true, stdio: 'ignore' });
    child.once('error', (error) => reject(new Error(`could not start ${path.basename(program)}: ${error.message}`)));
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
