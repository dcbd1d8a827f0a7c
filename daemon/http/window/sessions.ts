// The person's way in (docs/app.md#signing-in): one-time sign-in codes, which only the private channel mints, and
// the sessions they are traded for. Codes live in memory only; sessions also in `sessions.json`, as SHA-256 digests
// of their ids and CSRF values, so a window stays signed in across restarts and nothing on disk or in a log can be
// replayed.

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppPage } from '../../../protocol/app-api.js';

/** A sign-in code: 32 random bytes (256 bits, at least the 128 the design asks), base64url. */
const CODE_BYTES = 32;
/** A sign-in code is valid once, for this long. */
export const SIGNIN_CODE_MS = 60_000;
/** A session ends after this long without a request (issue 34: 30 days unused). */
export const SESSION_IDLE_MS = 30 * 24 * 60 * 60 * 1000;
/** Session ids and CSRF values: 32 random bytes, base64url. */
const SECRET_BYTES = 32;

const digest = (secret: string): string => createHash('sha256').update(secret).digest('base64url');
const newSecret = (bytes: number): string => randomBytes(bytes).toString('base64url');

interface PendingCode {
  page: string;
  expiresAt: number;
  timer: NodeJS.Timeout;
  /** Called once when the code is used or expires (its forwarding file goes). */
  ended: () => void;
}

/**
 * One-time sign-in codes. A new code does not end the older ones: two windows opened one after the other both
 * sign in. Each code ends when used or after 60 s, whichever comes first.
 */
export class SignInCodes {
  private readonly pending = new Map<string, PendingCode>();

  constructor(private readonly clock: () => number = Date.now) {}

  /** A new code for a page (`history`, or a deep link under it); `ended` runs once when it is used or expires. */
  mint(page: AppPage | string, ended: () => void = () => undefined): string {
    const code = newSecret(CODE_BYTES);
    const key = digest(code);
    const timer = setTimeout(() => this.end(key), SIGNIN_CODE_MS).unref();
    this.pending.set(key, { page, expiresAt: this.clock() + SIGNIN_CODE_MS, timer, ended });
    return code;
  }

  /** The page a code was minted for, once; null for a code that is unknown, used or expired. */
  consume(code: string): string | null {
    const key = digest(code);
    const pending = this.pending.get(key);
    if (!pending) return null;
    this.end(key);
    return pending.expiresAt > this.clock() ? pending.page : null;
  }

  /** Ends every code (the daemon stops). */
  clear(): void {
    for (const key of [...this.pending.keys()]) this.end(key);
  }

  private end(key: string): void {
    const pending = this.pending.get(key);
    if (!pending) return;
    this.pending.delete(key);
    clearTimeout(pending.timer);
    pending.ended();
  }
}

export interface Session {
  /** A name for the session that reveals nothing of it: the first characters of its digest (Settings lists it). */
  readonly handle: string;
  /** The digest of the value the app sends back in `X-Notifier-CSRF` with every change. */
  readonly csrfDigest: string;
  readonly createdAt: number;
  lastUsed: number;
  /** The browser that signed in, in a few words ("Chromium on Linux"), from its User-Agent. */
  readonly browser: string;
}

/** `sessions.json`: every open session under the digest of its id, never the id or the CSRF value themselves. */
interface SessionsFile {
  sessions: Record<string, Session>;
}

/** What Sessions keeps its file with (the core's store). */
export interface SessionStore {
  save(): Promise<void>;
}

/** Letters of a session's digest that name it in Settings: enough to tell sessions apart, useless to sign in. */
const HANDLE_CHARS = 12;
/** `lastUsed` is written again once it moved this much: a session's 30 days are counted to the hour, not the request. */
const LAST_USED_WRITE_MS = 60 * 60 * 1000;

/**
 * The person's sessions (docs/app.md#signing-in): kept in `sessions.json` (0600, as digests), so a window stays
 * signed in across a restart of the daemon or the computer; ended after 30 days without a request, at Sign out, or
 * by "Sign out everywhere".
 */
export class Sessions {
  private readonly byDigest = new Map<string, Session>();
  /** Told when a session ends (its event streams close). */
  private readonly endListeners = new Set<(session: Session) => void>();

  constructor(
    private readonly document: { data: SessionsFile } = { data: { sessions: {} } },
    private readonly store: SessionStore = { save: async () => undefined },
    private readonly clock: () => number = Date.now,
  ) {
    document.data.sessions ??= {};
    for (const [key, session] of Object.entries(document.data.sessions)) {
      if (typeof session?.csrfDigest === 'string' && typeof session.lastUsed === 'number') this.byDigest.set(key, session);
    }
  }

  /**
   * A new session: its id (for the cookie, never stored as is), its CSRF value (for the page, once), and the
   * session. Sessions idle too long end here too, so the file does not keep every window ever opened.
   */
  create(browser: string): { id: string; csrf: string; session: Session } {
    for (const [key, open] of this.byDigest) if (this.expired(open)) this.remove(key);
    const id = newSecret(SECRET_BYTES);
    const csrf = newSecret(SECRET_BYTES);
    const key = digest(id);
    const now = this.clock();
    const session: Session = { handle: key.slice(0, HANDLE_CHARS), csrfDigest: digest(csrf), createdAt: now, lastUsed: now, browser };
    this.byDigest.set(key, session);
    this.persist();
    return { id, csrf, session };
  }

  /** The session of a cookie's id, if it is still open (a request made with it counts as use when `touch`). */
  find(id: string | undefined, options: { touch: boolean }): Session | null {
    if (!id) return null;
    const key = digest(id);
    const session = this.byDigest.get(key);
    if (!session) return null;
    if (this.expired(session)) {
      this.remove(key);
      return null;
    }
    if (options.touch) this.touch(session);
    return session;
  }

  /** A request made with the session counts as use: its 30 idle days start again. */
  touch(session: Session): void {
    const before = session.lastUsed;
    session.lastUsed = this.clock();
    if (session.lastUsed - before >= LAST_USED_WRITE_MS) this.persist();
  }

  /** Is the session still open (not signed out, not idle too long)? */
  isOpen(session: Session): boolean {
    return [...this.byDigest.values()].includes(session) && !this.expired(session);
  }

  /** The open sessions, newest use first. */
  list(): Session[] {
    return [...this.byDigest.values()].filter((session) => !this.expired(session)).sort((a, b) => b.lastUsed - a.lastUsed);
  }

  /** Sign out. */
  end(id: string): void {
    this.remove(digest(id));
  }

  /** Signs out the session of this handle (Settings); false when there is none. */
  endHandle(handle: string): boolean {
    const key = [...this.byDigest.keys()].find((candidate) => candidate.slice(0, HANDLE_CHARS) === handle);
    if (key === undefined) return false;
    this.remove(key);
    return true;
  }

  /** "Sign out everywhere": every session ends, this one too. */
  endAll(): void {
    for (const key of [...this.byDigest.keys()]) this.remove(key);
  }

  onEnd(listener: (session: Session) => void): () => void {
    this.endListeners.add(listener);
    return () => this.endListeners.delete(listener);
  }

  private expired(session: Session): boolean {
    return this.clock() - session.lastUsed > SESSION_IDLE_MS;
  }

  private remove(key: string): void {
    const session = this.byDigest.get(key);
    if (!session) return;
    this.byDigest.delete(key);
    this.persist();
    for (const listener of this.endListeners) listener(session);
  }

  /** Written in the background: a lost write at worst signs a window out, or keeps one an hour longer. */
  private persist(): void {
    this.document.data = { sessions: Object.fromEntries(this.byDigest) };
    void this.store.save().catch(() => undefined);
  }
}

/** The browser of a User-Agent in a few words ("Chromium on Linux"), for the list of signed-in windows. */
export function describeBrowser(userAgent: string | undefined): string {
  const ua = userAgent ?? '';
  const browser =
    [
      ['Edg/', 'Edge'],
      ['Firefox/', 'Firefox'],
      ['Chromium/', 'Chromium'],
      ['Chrome/', 'Chrome'],
      ['Safari/', 'Safari'],
    ].find(([mark]) => ua.includes(mark!))?.[1] ?? 'A browser';
  const system = [
    ['Android', 'Android'],
    ['Linux', 'Linux'],
    ['Mac OS X', 'macOS'],
    ['Windows', 'Windows'],
  ].find(([mark]) => ua.includes(mark!))?.[1];
  return system ? `${browser} on ${system}` : browser;
}

/** Compares a CSRF value in constant time. */
export function csrfMatches(given: string | undefined, session: Session): boolean {
  if (given === undefined) return false;
  const [a, b] = [Buffer.from(digest(given)), Buffer.from(session.csrfDigest)];
  return a.length === b.length && timingSafeEqual(a, b);
}
