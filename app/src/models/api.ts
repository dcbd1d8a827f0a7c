// The person-only API (/app/api): every request with the session's cookie (the browser sends it) and the session's
// CSRF value in its header. A 401 means the session ended, a 403 without the CSRF value that this page has no
// session it can use: the window then says how to open it again, and nothing else.

import { createModel, signal } from '@preact/signals';
import {
  APP_CSRF_HEADER,
  APP_CSRF_PARAM,
  APP_CSRF_STORAGE,
  appPaths,
  HOW_TO_OPEN_NOTIFIER,
  type AppError,
  type SessionAnswer,
} from '../../../protocol/app-api.js';
import { ApiProblem, isSessionRefusal } from './requests.js';

/** Why the window has no session any more: the person signed out (here or everywhere), or it ended (30 days idle). */
export type SessionEnd = 'signedOut' | 'ended';

/** What of the page the client uses: its address, the CSRF value's storage, and fetch. */
export type ApiPage = Pick<Window, 'location' | 'history' | 'localStorage' | 'fetch'>;

export const ApiModel = createModel((page: ApiPage) => {
  const sessionEnded = signal<SessionEnd | null>(null);
  const computerName = signal('');

  /**
   * The session's CSRF value (docs/app.md#signing-in). The sign-in hands it over once, in the fragment of the address
   * it forwards to (`#csrf=…`); it is kept in this origin's storage, which browsers keep apart by port (the cookie
   * they do not), so every tab and window of the app has it and no other program's page does. Read on every
   * request: a newer sign-in, in another window, replaces the cookie and the value together. The client is made
   * first (main.tsx), so the fragment is taken before anything changes the address; kept here too where storage is
   * refused (a private window's rules).
   */
  let remembered = '';
  const given = new URLSearchParams(page.location.hash.slice(1)).get(APP_CSRF_PARAM);
  if (given) {
    remembered = given;
    try {
      page.localStorage.setItem(APP_CSRF_STORAGE, given);
    } catch {
      // storage refused: this page keeps it in memory
    }
    page.history.replaceState(page.history.state, '', page.location.pathname + page.location.search);
  }

  function csrf(): string {
    try {
      return page.localStorage.getItem(APP_CSRF_STORAGE) ?? remembered;
    } catch {
      return remembered;
    }
  }

  /** The first reason counts: the requests a sign-out cuts off answer 401 afterwards. */
  function endSession(reason: SessionEnd): void {
    sessionEnded.value ??= reason;
  }

  /** A request to the API. `signal` cancels it (a search overtaken by the next keystroke). */
  async function send(method: string, path: string, body?: unknown, options: { signal?: AbortSignal } = {}): Promise<Response> {
    const headers: Record<string, string> = { [APP_CSRF_HEADER]: csrf() };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let reply: Response;
    try {
      reply = await page.fetch(path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'same-origin',
        signal: options.signal,
      });
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      // It may have stopped, or now answer at another port: opening it again the person's way finds it wherever it is.
      throw new ApiProblem(0, 'network', `Notifier did not answer. Is it still running? ${HOW_TO_OPEN_NOTIFIER}`);
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

  /** The same for a JSON answer. */
  async function call<Answer, Body = never>(
    method: string,
    path: string,
    body?: NoInfer<Body>,
    options: { signal?: AbortSignal } = {},
  ): Promise<Answer> {
    const reply = await send(method, path, body, options);
    return (await reply.json()) as Answer;
  }

  return {
    sessionEnded,
    computerName,
    endSession,
    send,
    call,
    /** An address the browser asks for by itself (an EventSource, an image, a download link), with the CSRF value. */
    withCsrf(path: string): string {
      return `${path}${path.includes('?') ? '&' : '?'}${APP_CSRF_PARAM}=${encodeURIComponent(csrf())}`;
    },
    /** GET /app/api/session: the computer's name. */
    async startSession(): Promise<void> {
      computerName.value = (await call<SessionAnswer>('GET', appPaths.session)).computerName;
    },
    /** Signed out: the value goes with the session. */
    forgetCsrf(): void {
      remembered = '';
      try {
        page.localStorage.removeItem(APP_CSRF_STORAGE);
      } catch {
        // nothing was kept
      }
    },
  };
});
export type ApiModel = InstanceType<typeof ApiModel>;
