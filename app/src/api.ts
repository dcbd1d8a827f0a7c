// The person-only API (/app/api): every request with the session's cookie (the browser sends it) and the
// session's CSRF value in its header. A 401 means the session ended, a 403 without the CSRF value that this page
// has no session it can use: the app then says how to open it again, and nothing else.

import { signal } from '@preact/signals';
import {
  APP_CSRF_HEADER,
  APP_CSRF_MISMATCH,
  APP_CSRF_PARAM,
  APP_CSRF_STORAGE,
  APP_SESSION_REQUIRED,
  appPaths,
  type AppError,
  type SessionAnswer,
} from '../../protocol/app-api.js';

/** An error the API answered (or the network's failure, status 0), with the field it is about. */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    /** Why the field was refused, as the API says it (`a non-empty string`). */
    readonly reason?: string,
    /** The whole answer, for a refusal that says more (the Designer's template problems, each with its place). */
    readonly answer?: unknown,
  ) {
    super(message);
  }
}

/** Why the window has no session any more: the person signed out, or it ended (12 hours idle, a restart). */
export const sessionEnded = signal<'signedOut' | 'ended' | null>(null);

/** The first reason counts: the requests a sign-out cuts off answer 401 afterwards. */
export function endSession(reason: 'signedOut' | 'ended'): void {
  sessionEnded.value ??= reason;
}
export const computerName = signal('');

/**
 * The session's CSRF value (docs/app.md#signing-in). The sign-in hands it over once, in the fragment of the address
 * it forwards to (`#csrf=…`); it is kept in this origin's storage, which browsers keep apart by port (the cookie they
 * do not), so every tab and window of the app has it and no other program's page does. Read on every request: a
 * newer sign-in, in another window, replaces the cookie and the value together. This module is the first the app
 * loads, so the fragment is taken before anything changes the address.
 */
let remembered = '';

function takeCsrfFromAddress(): void {
  const given = new URLSearchParams(location.hash.slice(1)).get(APP_CSRF_PARAM);
  if (!given) return;
  remembered = given;
  try {
    localStorage.setItem(APP_CSRF_STORAGE, given);
  } catch {
    // storage refused (a private window's rules): this page keeps it in memory
  }
  history.replaceState(history.state, '', location.pathname + location.search);
}
takeCsrfFromAddress();

function csrf(): string {
  try {
    return localStorage.getItem(APP_CSRF_STORAGE) ?? remembered;
  } catch {
    return remembered;
  }
}

/** Signed out: the value goes with the session. */
export function forgetCsrf(): void {
  remembered = '';
  try {
    localStorage.removeItem(APP_CSRF_STORAGE);
  } catch {
    // nothing was kept
  }
}

/** An address the browser asks for by itself (an EventSource, an image, a download link), with the CSRF value. */
export function withCsrf(path: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}${APP_CSRF_PARAM}=${encodeURIComponent(csrf())}`;
}

/** The answer of a request the session could not open: it ended (401), or this page has no CSRF value for it (403). */
export const isSessionRefusal = (status: number, code: string | undefined): boolean =>
  (status === 401 && (code ?? APP_SESSION_REQUIRED) === APP_SESSION_REQUIRED) || (status === 403 && code === APP_CSRF_MISMATCH);

/** GET /app/api/session: the computer's name. */
export async function startSession(): Promise<void> {
  const session = await call<SessionAnswer>('GET', appPaths.session);
  computerName.value = session.computerName;
}

export type Query = Record<string, string | number | undefined>;

export function withQuery(path: string, query: Query = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/** A request to the API; JSON in and out. `signal` cancels it (a search overtaken by the next keystroke). */
export async function call<T>(method: string, path: string, body?: unknown, options: { signal?: AbortSignal } = {}): Promise<T> {
  const reply = await send(method, path, body, options);
  return (await reply.json()) as T;
}

/** The same for an answer that is not JSON (a preview picture). */
export async function send(method: string, path: string, body?: unknown, options: { signal?: AbortSignal } = {}): Promise<Response> {
  const headers: Record<string, string> = { [APP_CSRF_HEADER]: csrf() };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let reply: Response;
  try {
    reply = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiProblem(0, 'network', 'Notifier did not answer. Is it still running?');
  }
  if (reply.ok) return reply;
  const problem = (await reply.json().catch(() => null)) as AppError | null;
  if (isSessionRefusal(reply.status, problem?.code)) endSession('ended');
  throw new ApiProblem(
    reply.status,
    problem?.code ?? 'http',
    problem?.error ?? `${reply.status} ${reply.statusText}`,
    problem?.field,
    problem?.reason,
    problem ?? undefined,
  );
}

export const isAbort = (error: unknown): boolean => (error as Error | null)?.name === 'AbortError';

export const NO_LONGER_IN_HISTORY = 'This notification is no longer in History.';

/** The refusals a person meets in the window, said for them (the API's words are written for programs). */
const IN_PLAIN_WORDS: Record<string, string> = {
  reply_expired: 'This question has expired: it takes no reply any more.',
  takes_no_reply: 'This notification takes no reply.',
  no_such_question: 'This question was already answered, or is no longer asked.',
  no_such_connector_request: 'This request was already answered, or has expired.',
  notification_not_found: NO_LONGER_IN_HISTORY,
  already_dismissed: 'This notification was already dismissed.',
};

/** A message for the person: what the refusal means for them, else the API's words as a sentence. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiProblem && IN_PLAIN_WORDS[error.code]) return IN_PLAIN_WORDS[error.code]!;
  return sentence(error instanceof Error ? error.message : String(error));
}

/** Words as a sentence: a capital letter first, a full stop last. */
export function sentence(text: string): string {
  const trimmed = text.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}
