// The pages of `/app` (docs/app.md#how-it-opens): the sign-in link, which trades a one-time code for a session;
// the app's pages, which are the built front end's `index.html` with a session and a short page without one; and
// the built files. The pages made here are tiny and carry no script.

import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Request, Response } from 'express';
import { escapeHtml } from '../../../common/html-escape.js';
import { APP_BASE, APP_CSRF_PARAM, APP_PAGES, HOW_TO_OPEN_NOTIFIER } from '../../../protocol/app-api.js';
import { sessionCookie, sessionCookieHeader } from './door.js';
import { describeBrowser, type Sessions, type SignInCodes } from './sessions.js';

/** The built files change name when their content changes: a year, never revalidated. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** What a person reads when the window opens without a session: how to open it, and that there is no password. */
export const NO_SESSION_TEXT = `${HOW_TO_OPEN_NOTIFIER} There is no password.`;
export const SIGNIN_FAILED_TEXT = `This sign-in link was already used or has expired. ${HOW_TO_OPEN_NOTIFIER}`;

/** The look of the pages made here: the system's font and colours, light or dark as the desktop is. */
const SERVER_PAGE_CSS = `:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
body { margin: 0; display: grid; min-height: 100vh; place-items: center; }
main { max-width: 34rem; padding: 2rem; }
h1 { font-size: 1.5rem; margin: 0 0 0.5rem; }
a { color: LinkText; }
`;
/** Where that stylesheet is served (a CSP of 'self' allows no inline style). */
export const SERVER_PAGE_CSS_PATH = '/app/server-page.css';

/**
 * A page made by the server: a heading and a few lines, no script. `styled: false` leaves the stylesheet out (the
 * browser's own look, light or dark as the desktop is), for a page that is gone as soon as it has loaded.
 */
function serverPage(title: string, body: string, head = '', styled = true): string {
  const stylesheet = styled ? `<link rel="stylesheet" href="${SERVER_PAGE_CSS_PATH}">` : '';
  return (
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark">' +
    `${stylesheet}${head}<title>${escapeHtml(title)}</title></head>\n` +
    `<body><main><h1>${escapeHtml(title)}</h1>\n${body}</main></body></html>\n`
  );
}

/** The stylesheet of the pages made here. */
export function sendServerPageCss(res: Response): void {
  res.writeHead(200, {
    'Content-Type': 'text/css; charset=utf-8',
    'Content-Length': Buffer.byteLength(SERVER_PAGE_CSS),
    'Cache-Control': 'no-cache',
  });
  res.end(SERVER_PAGE_CSS);
}

function sendHtml(res: Response, status: number, html: string): void {
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(html),
    'Cache-Control': 'no-store',
  });
  res.end(html);
}

/** Is this path one of the app's pages: `/app`, `/app/<page>`, or a notification's details `/app/history/<app>/<id>`? */
export function isPagePath(pathname: string): boolean {
  if (pathname === APP_BASE || pathname === `${APP_BASE}/`) return true;
  const parts = pathname.slice(`${APP_BASE}/`.length).split('/');
  if (parts.at(-1) === '') parts.pop(); // a trailing slash
  if (parts.length === 1) return (APP_PAGES as readonly string[]).includes(parts[0]!);
  return parts.length === 3 && parts[0] === 'history' && parts[1] !== '' && parts[2] !== '';
}

/**
 * `GET /app/signin?code=…`: a good code becomes a session cookie, and a tiny page that forwards to the page the
 * code was minted for — a navigation from this same origin, so the Strict cookie goes with it, and the code leaves
 * the address bar. The session's CSRF value rides in that address's fragment (`#csrf=…`, never sent to a server):
 * this answer, to a code used once, is the only one that ever holds it. A bad, used or expired code: 401 and what
 * to do.
 */
export function signIn(req: Request, res: Response, codes: SignInCodes, sessions: Sessions): void {
  const code = typeof req.query.code === 'string' ? req.query.code : '';
  const page = code === '' ? null : codes.consume(code);
  if (page === null) {
    sendHtml(res, 401, serverPage('Notifier', `<p>${escapeHtml(SIGNIN_FAILED_TEXT)}</p>`));
    return;
  }
  const { id, csrf } = sessions.create(describeBrowser(req.headers['user-agent']));
  const target = `/app/${page.split('/').map(encodeURIComponent).join('/')}#${APP_CSRF_PARAM}=${csrf}`;
  res.setHeader('Set-Cookie', sessionCookieHeader(id));
  sendHtml(
    res,
    200,
    serverPage(
      'Notifier',
      `<p><a href="${escapeHtml(target)}">Continue</a></p>`,
      `<meta http-equiv="refresh" content="0;url=${escapeHtml(target)}">`,
      // A refresh goes on only once its page has loaded: a stylesheet to fetch first would hold the app back.
      false,
    ),
  );
}

/**
 * One of the app's pages: with a session, the front end's `index.html` (it reads the path itself); without one,
 * a short page and 401 — no code of the app at all.
 */
export async function sendPage(req: Request, res: Response, sessions: Sessions, appDir: string): Promise<void> {
  const id = sessionCookie(req);
  if (!sessions.find(id, { touch: true })) {
    sendHtml(res, 401, serverPage('Notifier', `<p>${escapeHtml(NO_SESSION_TEXT)}</p>`));
    return;
  }
  // The cookie's 30 days start again with each page opened, as the session's do.
  res.setHeader('Set-Cookie', sessionCookieHeader(id!));
  const html = await readFile(path.join(appDir, 'index.html'), 'utf8').catch(() => null);
  if (html === null) {
    sendHtml(res, 503, serverPage('Notifier', '<p>The app is not built yet: run <code>npm run setup</code>, then open it again.</p>'));
    return;
  }
  sendHtml(res, 200, html);
}

/**
 * A built file: `/app/assets/<name>` (hashed names, cached for good) or a file at the top of the build (an
 * icon), never `index.html` and never outside the folder. Null when there is no such file.
 */
export async function sendBuiltFile(req: Request, res: Response, appDir: string): Promise<boolean> {
  const relative = safeRelative(req.path.slice(`${APP_BASE}/`.length));
  if (relative === null || relative === 'index.html') return false;
  const file = path.join(appDir, relative);
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) return false;
  const type = CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
  const body = await readFile(file);
  res.writeHead(200, {
    'Content-Type': type,
    'Content-Length': body.length,
    'Cache-Control': relative.startsWith('assets/') ? IMMUTABLE : 'no-cache',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}

/** A path under the build folder made of plain names (no `..`, no empty or hidden parts); null otherwise. */
function safeRelative(encoded: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(encoded);
  } catch {
    return null;
  }
  const parts = decoded.split('/');
  if (parts.length > 2 || (parts.length === 2 && parts[0] !== 'assets')) return null;
  if (parts.some((part) => part === '' || part.startsWith('.') || /[\\\u0000]/.test(part))) return null;
  return parts.join('/');
}

/** 404 for a path of `/app` that is neither a page, the API, nor a built file. */
export function sendNotFound(res: Response): void {
  sendHtml(res, 404, serverPage('Notifier', '<p>There is no such page. <a href="/app/history">History</a></p>'));
}
