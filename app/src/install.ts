// The window as an installed app (docs/app.md#installing-the-window): the service worker that keeps the app's shell
// (app/src/sw.ts, built to /app/sw.js), and the unread count as the installed app's badge — the same count as the
// title's (history/store.ts `unreadTotal`), none once signed out.

import { effect } from '@preact/signals';
import { sessionEnded } from './api.js';
import { unreadTotal } from './history/store.js';

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
export function showUnreadBadge(): void {
  if (!('setAppBadge' in navigator)) return;
  effect(() => {
    const unread = sessionEnded.value ? 0 : unreadTotal.value;
    const shown = unread > 0 ? navigator.setAppBadge(unread) : navigator.clearAppBadge();
    void shown.catch(() => undefined); // not installed, or badges switched off: nothing to show it on
  });
}
