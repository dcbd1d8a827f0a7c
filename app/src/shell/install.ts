// The window as an installed app (docs/app.md#installing-the-window): the service worker that keeps the app's shell
// (app/src/sw.ts, built to /app/sw.js), and the unread count as the installed app's badge — the same count as the
// title's (the History model's `unreadTotal`), none once signed out. main.tsx starts both once the window is drawn.

import { effect, type ReadonlySignal } from '@preact/signals';

/** Where the build puts the worker (app/installable.ts), and the part of the origin it serves. */
const WORKER_URL = '/app/sw.js';
const WORKER_SCOPE = '/app/';

/** How long the worker waits for the window to be idle after its first paint (a busy window still gets it then). */
const REGISTER_IDLE_TIMEOUT_MS = 3000;

/**
 * Registers the worker once the window is drawn and idle: installing it fetches every file of the shell, which on a
 * small machine would otherwise compete with the first paint for the processor and the daemon.
 */
export function keepShell(): void {
  if (!('serviceWorker' in navigator)) return;
  // A refusal (a browser's settings, a private window) only means no installed window: the page works as before.
  const register = (): void => void navigator.serviceWorker.register(WORKER_URL, { scope: WORKER_SCOPE }).catch(() => undefined);
  if ('requestIdleCallback' in window) requestIdleCallback(register, { timeout: REGISTER_IDLE_TIMEOUT_MS });
  else setTimeout(register, 0);
}

/** The badge follows the unread count where the browser draws one (an installed app on Chromium, Edge, Safari). */
export function showUnreadBadge(unread: ReadonlySignal<number>, signedOut: ReadonlySignal<unknown>): void {
  if (!('setAppBadge' in navigator)) return;
  effect(() => {
    const count = signedOut.value ? 0 : unread.value;
    const shown = count > 0 ? navigator.setAppBadge(count) : navigator.clearAppBadge();
    void shown.catch(() => undefined); // not installed, or badges switched off: nothing to show it on
  });
}
