// The person's way in (docs/app.md#signing-in): one-time sign-in codes, which only the private channel mints, and
// the sessions they are traded for. Both live in memory only, as SHA-256 digests: a daemon that restarts ends
// every session, and nothing on disk or in a log can be replayed.

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppPage } from '../../../protocol/app-api.js';

/** A sign-in code: 32 random bytes (256 bits, at least the 128 the design asks), base64url. */
const CODE_BYTES = 32;
/** A sign-in code is valid once, for this long. */
export const SIGNIN_CODE_MS = 60_000;
/** A session ends after this long without a request. */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
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
  /** The value the app sends back in `X-Notifier-CSRF` with every change. */
  readonly csrf: string;
  lastUsed: number;
}

/** The person's sessions: in memory, ended after 12 hours idle, on Sign out, and when the daemon stops. */
export class Sessions {
  private readonly byDigest = new Map<string, Session>();
  /** Told when a session ends (its event streams close). */
  private readonly endListeners = new Set<(session: Session) => void>();

  constructor(private readonly clock: () => number = Date.now) {}

  /**
   * A new session: its id (for the cookie, never stored as is) and the session. Sessions idle too long end here too,
   * so the daemon does not keep every window ever opened (most cookies never come back to end their session).
   */
  create(): { id: string; session: Session } {
    for (const [key, open] of this.byDigest) if (this.clock() - open.lastUsed > SESSION_IDLE_MS) this.remove(key);
    const id = newSecret(SECRET_BYTES);
    const session: Session = { csrf: newSecret(SECRET_BYTES), lastUsed: this.clock() };
    this.byDigest.set(digest(id), session);
    return { id, session };
  }

  /** The session of a cookie's id, if it is still open (a request made with it counts as use when `touch`). */
  find(id: string | undefined, options: { touch: boolean }): Session | null {
    if (!id) return null;
    const key = digest(id);
    const session = this.byDigest.get(key);
    if (!session) return null;
    if (this.clock() - session.lastUsed > SESSION_IDLE_MS) {
      this.remove(key);
      return null;
    }
    if (options.touch) session.lastUsed = this.clock();
    return session;
  }

  /** A request made with the session counts as use: its 12 idle hours start again. */
  touch(session: Session): void {
    session.lastUsed = this.clock();
  }

  /** Is the session still open (not signed out, not idle too long)? */
  isOpen(session: Session): boolean {
    return [...this.byDigest.values()].includes(session) && this.clock() - session.lastUsed <= SESSION_IDLE_MS;
  }

  /** Sign out. */
  end(id: string): void {
    this.remove(digest(id));
  }

  onEnd(listener: (session: Session) => void): () => void {
    this.endListeners.add(listener);
    return () => this.endListeners.delete(listener);
  }

  private remove(key: string): void {
    const session = this.byDigest.get(key);
    if (!session) return;
    this.byDigest.delete(key);
    for (const listener of this.endListeners) listener(session);
  }
}

/** Compares a CSRF value in constant time. */
export function csrfMatches(given: string | undefined, session: Session): boolean {
  if (given === undefined) return false;
  const [a, b] = [Buffer.from(given), Buffer.from(session.csrf)];
  return a.length === b.length && timingSafeEqual(a, b);
}
