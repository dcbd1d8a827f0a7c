// Calls from this computer to its relay over HTTPS (docs/api/relay-connection.md#rl3): pairing, and the device routes with
// the device token in the Authorization header only. A relay that cannot be reached, limits this computer,
// rejects its token or refuses the call becomes one of the catalogue's errors, with the relay's own message.

import { errors } from '../../../protocol/errors.js';

/** How long one call may take (connecting included) before the relay counts as unreachable. */
export const RELAY_CALL_TIMEOUT_MS = 15_000;

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
    throw errors.relayUnreachable(relayURL, networkProblem(error));
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
  if (answer.status >= 500 || answer.status < 400) throw errors.relayFailed(`it answered ${answer.status}: ${message}`);
  throw errors.relayRefused(answer.status, message);
}

/** The system's codes of the common network failures, in the words a person knows (docs/api/relay-connection.md#rl3). */
const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'its name was not found (DNS)',
  EAI_AGAIN: 'its name could not be looked up now (DNS)',
  EAI_NONAME: 'its name was not found (DNS)',
  ETIMEDOUT: 'no answer in time',
  UND_ERR_CONNECT_TIMEOUT: 'no answer in time',
  ECONNRESET: 'the connection was reset',
  UND_ERR_SOCKET: 'the connection was reset',
  EPIPE: 'the connection was reset',
  EHOSTUNREACH: 'no route to it: is the network up?',
  ENETUNREACH: 'no route to it: is the network up?',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  CERT_NOT_YET_VALID: 'its TLS certificate is not valid yet',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed, which this computer does not trust',
  SELF_SIGNED_CERT_IN_CHAIN: 'its TLS certificate is signed by an authority this computer does not trust',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its TLS certificate is signed by an authority this computer does not trust',
  UNABLE_TO_GET_ISSUER_CERT: 'its TLS certificate is signed by an authority this computer does not trust',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'its TLS certificate is signed by an authority this computer does not trust',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its TLS certificate is for another name',
  ERR_SSL_WRONG_VERSION_NUMBER: 'it does not speak TLS there: is it an http:// address?',
};

/**
 * Why the relay could not be reached, in a few words: fetch hides the system's error in `cause`, the socket's
 * library gives it as is. A failure without a known code keeps its own message.
 */
export function networkProblem(error: unknown): string {
  const failure = error as Error & { code?: string; cause?: { code?: string; message?: string } };
  if (failure.name === 'TimeoutError') return `no answer within ${RELAY_CALL_TIMEOUT_MS / 1000} s`;
  const code = failure.cause?.code ?? failure.code;
  if (code !== undefined && NETWORK_WORDS[code]) return NETWORK_WORDS[code];
  if (code !== undefined && /CERT|TLS|SSL/.test(code)) return `its TLS certificate was not accepted (${code})`;
  // The socket library's own words for a handshake that took too long.
  if (/handshake has timed out/i.test(failure.message)) return 'no answer in time';
  return failure.cause?.message ?? failure.message;
}
