// The service worker of the person's app (docs/app.md#installing-the-window), served at /app/sw.js with the scope
// /app/. It keeps the app's shell — its page and the built files — so that the window opens as its own app, and
// still opens while the daemon restarts; the page then says what it can (Notifier did not answer, or Signed out).
//
// What it never keeps, nor answers from what it kept: the person-only API (/app/api: every answer is the
// session's, and fresh), the sign-in link (a one-time code, and the cookie it sets), and any answer but the shell
// page's 200 — the page without a session (401) always comes from the daemon. The shell page is the same file for
// every session (the CSRF value arrives in the address's fragment, never in the page), so keeping it leaks nothing.
//
// Built by app/installable.ts (not bundled with the app): the list of files is the build's own. The DOM's types
// know no service worker, so the few parts used are declared here.

interface ShellList {
  /** Changes with any file's name: a new build keeps its files in a new cache and removes the old one. */
  version: string;
  /** Absolute paths: /app/assets/index-<hash>.js, /app/manifest.webmanifest, the icons. */
  files: string[];
}
declare const __NOTIFIER_SHELL__: ShellList;

interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(answer: Promise<Response>): void;
}
interface WorkerScope {
  readonly location: Location;
  readonly clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
}

const worker = self as unknown as WorkerScope;
const SHELL = __NOTIFIER_SHELL__;
const CACHE_PREFIX = 'notifier-shell-';
const CACHE = `${CACHE_PREFIX}${SHELL.version}`;
/** The key the shell page is kept under: every page of the app is that one file (it reads the path itself). */
const SHELL_PAGE = '/app/';
/**
 * Paths the network alone answers, whatever happens: protocol/app-api.ts `APP_API_BASE` and `appPaths.signin`,
 * written out because the worker is built alone, without imports (app/installable.ts).
 */
const NEVER_KEPT = ['/app/api', '/app/signin'];

const neverKept = (pathname: string): boolean => NEVER_KEPT.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));

/** The built files, and the shell page as the daemon answers it now (the worker is registered by a signed-in page). */
async function keepShell(): Promise<void> {
  const cache = await caches.open(CACHE);
  await cache.addAll(SHELL.files);
  const page = await fetch(SHELL_PAGE, { credentials: 'same-origin', cache: 'no-store' }).catch(() => null);
  if (page && isShellPage(page)) await cache.put(SHELL_PAGE, page);
}

/** The daemon's answer that is the app's page: 200 and HTML. Its 401 page, a 404 or a 503 are never kept. */
const isShellPage = (answer: Response): boolean =>
  answer.status === 200 && (answer.headers.get('Content-Type') ?? '').startsWith('text/html') && answer.type === 'basic';

/** A page: the daemon's answer when it answers (kept anew when it is the shell), else the kept shell. */
async function pageOrShell(request: Request): Promise<Response> {
  try {
    const answer = await fetch(request);
    if (isShellPage(answer)) {
      const copy = answer.clone();
      void caches.open(CACHE).then((cache) => cache.put(SHELL_PAGE, copy));
    }
    return answer;
  } catch {
    // The daemon is not there (restarting, stopped): the shell, whose requests to /app/api will say so.
    return (await caches.match(SHELL_PAGE, { cacheName: CACHE })) ?? Response.error();
  }
}

/** A built file: its name changes with its content, so the kept copy is always right. */
async function keptOrNetwork(request: Request): Promise<Response> {
  return (await caches.match(request, { cacheName: CACHE })) ?? fetch(request);
}

worker.addEventListener('install', (event) => event.waitUntil(keepShell().then(() => worker.skipWaiting())));

worker.addEventListener('activate', (event) =>
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith(CACHE_PREFIX) && name !== CACHE) await caches.delete(name);
      await worker.clients.claim();
    })(),
  ),
);

worker.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== worker.location.origin || neverKept(url.pathname)) return; // the network's
  if (request.mode === 'navigate') return event.respondWith(pageOrShell(request));
  if (SHELL.files.includes(url.pathname)) event.respondWith(keptOrNetwork(request));
});
