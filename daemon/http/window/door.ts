// The door of `/app` (docs/app.md#the-three-doors): its own rules, apart from `/v1`'s. Every answer keeps the
// loopback `Host` check and carries a strict Content-Security-Policy; the API opens with the session cookie and
// the session's CSRF value together (never the API token; browsers send the cookie to every port of 127.0.0.1,
// the value only the app's own page holds); it answers only its own pages (`Sec-Fetch-Site`), and a change must
// also come from the app's own origin (`Origin`).

import type { Request, Response } from 'express';
import { APP_CSRF_HEADER, APP_CSRF_PARAM, APP_SESSION_COOKIE } from '../../../protocol/app-api.js';
import { errors } from '../../../protocol/errors.js';
import { isLoopbackHost, refuseDuplicateHost } from '../guard.js';
import { csrfMatches, SESSION_IDLE_MS, type Session, type Sessions } from './sessions.js';

/** The CSP of every `/app` answer: the app's own files only, no inline script or style, never framed. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/** Methods that change something: they need the app's own Origin and the CSRF value. */
const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function setSecurityHeaders(res: Response): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
}

/** One loopback `Host`, and a request line in origin form (`GET /app/...`, not `GET http://other/app/...`). */
export function checkHost(req: Request): void {
  refuseDuplicateHost(req);
  if (!isLoopbackHost(req.headers.host) || !req.url.startsWith('/')) throw errors.forbiddenHost();
}

/** A cookie's value from the `Cookie` header (the first of that name). */
export function cookieValue(req: Request, name: string): string | undefined {
  for (const pair of (req.headers.cookie ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

/** The session cookie's value. */
export const sessionCookie = (req: Request): string | undefined => cookieValue(req, APP_SESSION_COOKIE);

/**
 * `Set-Cookie` for a session: HttpOnly (no script reads it), SameSite=Strict (no other site sends it), `/app` only,
 * and kept by the browser as long as the session may stay unused, so a window reopened after a reboot is signed in.
 */
export const sessionCookieHeader = (id: string): string =>
  `${APP_SESSION_COOKIE}=${id}; HttpOnly; SameSite=Strict; Path=/app; Max-Age=${SESSION_IDLE_MS / 1000}`;
/** `Set-Cookie` that removes it (Sign out). */
export const endedCookieHeader = (): string => `${APP_SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/app; Max-Age=0`;

/**
 * The session's CSRF value as the request carries it: the header, or for a GET, which an EventSource, an image or
 * a download link makes without headers, the query's `csrf`.
 */
function givenCsrf(req: Request): unknown {
  const header = req.headers[APP_CSRF_HEADER.toLowerCase()];
  if (header !== undefined || (req.method !== 'GET' && req.method !== 'HEAD')) return header;
  return req.query[APP_CSRF_PARAM];
}

/** A change that sends a body, or names its type, names `application/json` (parameters such as charset allowed). */
function sendsJsonOrNothing(req: Request): boolean {
  const type = req.headers['content-type'];
  if (type !== undefined) return type.split(';')[0]!.trim().toLowerCase() === 'application/json';
  const length = req.headers['content-length'];
  return length === undefined ? req.headers['transfer-encoding'] === undefined : length === '0';
}

/**
 * The checks of an `/app/api` request, in order: a fetch from another site's page is refused (403) before the
 * session is looked at; no session is 401; a change from another origin is 403 — even when it carries the right
 * value; any request without the session's CSRF value is 403: the cookie alone, which browsers also send to other
 * programs' pages on 127.0.0.1, opens nothing. The API token opens nothing here. Last, a change's body is JSON
 * (415 otherwise): a page can send `text/plain` or a form to another origin without asking the browser first, but
 * not `application/json`, so this is one more layer under the others (OWASP's CSRF prevention, defence in depth).
 */
export function admitApiRequest(req: Request, sessions: Sessions): Session {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') throw errors.appCrossSite();
  const session = sessions.find(sessionCookie(req), { touch: false });
  if (!session) throw errors.appSessionRequired();
  if (CHANGES.has(req.method) && req.headers.origin !== `http://${req.headers.host}`) throw errors.appForeignOrigin();
  const given = givenCsrf(req);
  if (typeof given !== 'string' || !csrfMatches(given, session)) throw errors.appCsrfMismatch();
  if (CHANGES.has(req.method) && !sendsJsonOrNothing(req)) throw errors.appJsonOnly();
  sessions.touch(session); // only a request that opened the door counts as use
  return session;
}
