import { execFile } from 'node:child_process';
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
