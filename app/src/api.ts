// The person-only API (/app/api): every request with the session's cookie (the browser sends it), and every
// change with the session's CSRF value in its header. A 401 means the session ended: the app then says how to
// open it again, and nothing else.

import { signal } from '@preact/signals';
import { APP_CSRF_HEADER, APP_SESSION_REQUIRED, appPaths, type AppError, type SessionAnswer } from '../../protocol/app-api.js';

/** An error the API answered (or the network's failure, status 0), with the field it is about. */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    /** Why the field was refused, as the API says it (`a non-empty string`). */
    readonly reason?: string,
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

let csrf = '';

/** GET /app/api/session: the CSRF value for the changes to come. */
export async function startSession(): Promise<void> {
  const session = await call<SessionAnswer>('GET', appPaths.session);
  csrf = session.csrf;
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
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET') headers[APP_CSRF_HEADER] = csrf;
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
  if (reply.status === 401 && (problem?.code ?? APP_SESSION_REQUIRED) === APP_SESSION_REQUIRED) endSession('ended');
  throw new ApiProblem(
    reply.status,
    problem?.code ?? 'http',
    problem?.error ?? `${reply.status} ${reply.statusText}`,
    problem?.field,
    problem?.reason,
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
