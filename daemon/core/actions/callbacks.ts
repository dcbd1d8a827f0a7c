import { CALLBACK_ATTEMPT_MS, CALLBACK_RETRY_DELAY_MS } from '../../../protocol/limits.js';
import { VERSION } from '../../version.js';

/** docs/api/replies.md#r10: the body of the callback request. */
export interface CallbackBody {
  notificationId: string;
  app: string;
  action: string;
  payload?: unknown;
  event?: 'unattended';
  unattendedSeconds?: number;
}

export type Outcome = { ok: true } | { ok: false; reason: string };

/** docs/api/replies.md#r10a: a request its sender wrote out (ntfy's `http` action), sent as it is. */
export interface WrittenRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** docs/api/replies.md#r13: a callback to the computer itself needs no approval. */
export function isLoopback(target: URL): boolean {
  const host = target.hostname.toLowerCase();
  return host === 'localhost' || host === '[::1]' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Statuses after which the one retry follows (docs/api/replies.md#r12). */
const RETRIED = (status: number): boolean => status === 408 || status === 429 || status >= 500;

/**
 * Sends the callback request: POST with a JSON body and `X-Notifier-Attempt`, 5 s per attempt, redirects never
 * followed, one retry after a network error or 408, 429, 5xx. Only a 2xx is success.
 */
export async function sendCallback(url: string, body: CallbackBody | WrittenRequest): Promise<Outcome> {
  const first = await attempt(url, body, 1);
  if (first.ok || !first.retry) return first.outcome;
  await new Promise((resolve) => setTimeout(resolve, CALLBACK_RETRY_DELAY_MS));
  return (await attempt(url, body, 2)).outcome;
}

/** The request of one attempt: Notifier's JSON (R10), or the sender's own request with Notifier's two headers added. */
function requestOf(body: CallbackBody | WrittenRequest, number: 1 | 2): RequestInit {
  const ours = { 'X-Notifier-Attempt': String(number), 'User-Agent': `Notifier/${VERSION}` };
  if ('method' in body) {
    const sendsBody = body.body !== undefined && body.method !== 'GET' && body.method !== 'HEAD';
    return { method: body.method, headers: { ...body.headers, ...ours }, ...(sendsBody ? { body: body.body } : {}) };
  }
  return { method: 'POST', headers: { 'Content-Type': 'application/json', ...ours }, body: JSON.stringify(body) };
}

async function attempt(
  url: string,
  body: CallbackBody | WrittenRequest,
  number: 1 | 2,
): Promise<{ ok: boolean; retry: boolean; outcome: Outcome }> {
  try {
    const response = await fetch(url, { ...requestOf(body, number), redirect: 'manual', signal: AbortSignal.timeout(CALLBACK_ATTEMPT_MS) });
    await response.body?.cancel(); // the body is ignored (docs/api/replies.md#r11)
    if (response.status >= 200 && response.status < 300) return { ok: true, retry: false, outcome: { ok: true } };
    return { ok: false, retry: RETRIED(response.status), outcome: { ok: false, reason: `HTTP ${response.status}` } };
  } catch (error) {
    const reason =
      (error as Error).name === 'TimeoutError' ? `timed out after ${CALLBACK_ATTEMPT_MS / 1000} s` : networkFailure(error, url);
    return { ok: false, retry: true, outcome: { ok: false, reason } };
  }
}

/**
 * A request that got no answer, in plain words for the note and the banner (docs/api/replies.md#r11): fetch says
 * only "fetch failed"; the reason is the code of its cause.
 */
function networkFailure(error: unknown, url: string): string {
  const cause = (error as { cause?: { code?: string } }).cause;
  const code = cause?.code ?? '';
  const host = new URL(url).host;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `the host ${host} was not found`;
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'the connection was cut before an answer came';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return `the host ${host} cannot be reached`;
  if (/CERT|SSL|TLS/.test(code)) return `the certificate of ${host} is not valid`;
  return `no answer from ${host}${code ? ` (${code})` : ''}`;
}
