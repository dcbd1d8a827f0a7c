// Calls from this computer to its relay over HTTPS (docs/api/relay.md#rl3): pairing, and the device routes with
// the device token in the Authorization header only. A relay that cannot be reached, limits this computer,
// rejects its token or refuses the call becomes one of the catalogue's errors, with the relay's own message.

import { errors } from '../../../protocol/errors.js';

/** How long one call may take (connecting included) before the relay counts as unreachable. */
export const RELAY_CALL_TIMEOUT_MS = 15_000;

/** The addresses a token may travel to in clear text: this computer's own (docs/api/relay.md#rl2). */
const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * RL2: a relay's address as given to `POST /v1/relay/pair`: https, or http only on a loopback host; no user name,
 * password, query or fragment. Returned without a trailing slash (the routes are added to it); null when it breaks
 * the rule.
 */
export function relayAddress(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.test(url.hostname));
  if (!secure || url.username || url.password || url.search || url.hash || url.hostname === '') return null;
  return url.href.replace(/\/+$/, '');
}

/** The device stream's address: `wss://` for an https relay, `ws://` for an http one (RL10). */
export const streamAddress = (relayURL: string): string => `${relayURL.replace(/^http/, 'ws')}/v1/device/stream`;

/** The relay's MCP endpoint, which agents and connectors are given. */
export const mcpAddress = (relayURL: string): string => `${relayURL}/mcp`;

export interface RelayCall {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface RelayAnswer {
  status: number;
  json: any;
}

/** One call; rejects only when the relay cannot be reached (errors.relayUnreachable). */
export async function callRelay(relayURL: string, call: RelayCall): Promise<RelayAnswer> {
  const headers: Record<string, string> = { accept: 'application/json', ...call.headers };
  if (call.token) headers.authorization = `Bearer ${call.token}`;
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  let text: string;
  try {
    response = await fetch(`${relayURL}${call.path}`, {
      method: call.method,
      headers,
      ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
      redirect: 'error', // a token never follows a redirect to another address
      signal: AbortSignal.timeout(RELAY_CALL_TIMEOUT_MS),
    });
    text = await response.text();
  } catch (error) {
    throw errors.relayUnreachable(reason(error));
  }
  let json: unknown;
  try {
    json = text === '' ? {} : JSON.parse(text);
  } catch {
    throw errors.relayUnreadable(response.status);
  }
  return { status: response.status, json };
}

/**
 * The answer of a call that must succeed: 2xx gives its JSON; the relay's refusals become the catalogue's errors
 * (RL3): 401 a rejected token (`onRejected` is told), 429 and 503 a limit, anything else passed on with its status.
 */
export function expectSuccess(answer: RelayAnswer, onRejected: () => void = () => undefined): any {
  if (answer.status >= 200 && answer.status < 300) return answer.json;
  const message = typeof answer.json?.message === 'string' ? answer.json.message : `status ${answer.status}`;
  if (answer.status === 401) {
    onRejected();
    throw errors.relayRejectedToken();
  }
  if (answer.status === 429 || answer.status === 503) throw errors.relayLimited(message);
  if (answer.status >= 500 || answer.status < 400) throw errors.relayUnreachable(`the relay answered ${answer.status}: ${message}`);
  throw errors.relayRefused(answer.status, message);
}

/** Why a call failed, in a few words (fetch hides the system's reason in `cause`). */
function reason(error: unknown): string {
  const failure = error as Error & { cause?: { code?: string; message?: string } };
  if (failure.name === 'TimeoutError') return `no answer within ${RELAY_CALL_TIMEOUT_MS / 1000} s`;
  return failure.cause?.message ?? failure.cause?.code ?? failure.message;
}
