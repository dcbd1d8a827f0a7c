// What every request to the person-only API shares, without the page: the query string, the API's refusals and
// what they say to the person. The client itself, which holds the session, is models/api.ts.

import { APP_CSRF_MISMATCH, APP_SESSION_REQUIRED } from '../../../protocol/app-api.js';

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

/** The answer of a request the session could not open: it ended (401), or this page has no CSRF value for it (403). */
export const isSessionRefusal = (status: number, code: string | undefined): boolean =>
  (status === 401 && (code ?? APP_SESSION_REQUIRED) === APP_SESSION_REQUIRED) || (status === 403 && code === APP_CSRF_MISMATCH);

export type Query = Record<string, string | number | undefined>;

export function withQuery(path: string, query: Query = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
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
