// How the agent server reaches the running daemon: the support folder's `port` and `token` files, read again on
// every call (a restarted daemon may listen on another port), and one HTTP request on 127.0.0.1.
// Every failure becomes a ToolFailure whose message is what the agent reads; nothing here may crash the server.

import http from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_PORT } from '../../daemon/limits.js';
import { defaultSupportDir } from '../../daemon/support-dir.js';

/** How long an ordinary call may take (a preview draws a picture; everything else answers at once). */
export const CALL_TIMEOUT_MS = 30_000;

/** A failed call, worded for the agent: the tool result carries this text with `isError: true`. */
export class ToolFailure extends Error {
  override readonly name = 'ToolFailure';
}

export interface ConnectionOptions {
  /** `--support-dir`, else `NOTIFIER_SUPPORT_DIR`, else the platform's default folder. */
  supportDir?: string;
  /** `--port`: beats the `port` file. */
  port?: number;
  /** `--token` or `NOTIFIER_TOKEN`: beats the `token` file. */
  token?: string;
}

export type Query = Record<string, string | number | boolean | undefined | null>;

export interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  query?: Query;
  body?: unknown;
  timeoutMs?: number;
  /** Aborted when the agent cancels the tool call. */
  signal?: AbortSignal;
  /** `GET /v1/health` needs no token. */
  withoutToken?: boolean;
}

export interface Answer {
  status: number;
  contentType: string;
  bytes: Buffer;
  /** The body parsed as JSON; undefined for a picture. */
  json: unknown;
}

/** Where the daemon is, as the files say right now. */
export interface Whereabouts {
  supportDir: string;
  port: number;
  /** True when the port came from `--port` or the `port` file (no file: the daemon is probably not running). */
  portKnown: boolean;
  tokenFile: string;
  token: string | undefined;
}

const readTrimmed = (file: string): Promise<string | undefined> =>
  readFile(file, 'utf8').then(
    (text) => text.trim() || undefined,
    () => undefined,
  );

export class Notifier {
  readonly supportDir: string;

  constructor(private readonly options: ConnectionOptions) {
    this.supportDir = path.resolve(options.supportDir ?? defaultSupportDir());
  }

  async whereabouts(): Promise<Whereabouts> {
    const portText = this.options.port === undefined ? await readTrimmed(path.join(this.supportDir, 'port')) : undefined;
    const filePort = portText !== undefined && /^\d{1,5}$/.test(portText) ? Number(portText) : undefined;
    const tokenFile = path.join(this.supportDir, 'token');
    return {
      supportDir: this.supportDir,
      port: this.options.port ?? filePort ?? DEFAULT_PORT,
      portKnown: this.options.port !== undefined || filePort !== undefined,
      tokenFile,
      token: this.options.token ?? (await readTrimmed(tokenFile)),
    };
  }

  /** One request. A 2xx answer is returned; anything else throws a ToolFailure with the route's own message. */
  async call(call: Call): Promise<Answer> {
    const where = await this.whereabouts();
    let answer: Answer;
    try {
      answer = await send(where, call);
    } catch (error) {
      if (call.signal?.aborted) throw new ToolFailure('the call was cancelled');
      throw new ToolFailure(notRunningText(where, error as NodeJS.ErrnoException));
    }
    if (answer.status >= 200 && answer.status < 300) return answer;
    throw new ToolFailure(failureText(where, answer));
  }
}

export function notRunningText(where: Whereabouts, error?: NodeJS.ErrnoException): string {
  const why = error ? ` (${error.code ?? error.message})` : '';
  const portNote = where.portKnown ? '' : `; there is no port file in ${where.supportDir}`;
  return (
    `Notifier is not running or not reachable at http://127.0.0.1:${where.port}${why}${portNote}. ` +
    'Start it with `notifier daemon` (or `npm start` in its folder), or point this server at its support folder with --support-dir.'
  );
}

function failureText(where: Whereabouts, answer: Answer): string {
  const message = routeMessage(answer);
  if (answer.status === 401) {
    return (
      `Notifier rejected the token (401: ${message}). The token is read from ${where.tokenFile}` +
      (where.token === undefined ? ', which is missing' : '') +
      '; check --support-dir, or give --token.'
    );
  }
  // The route table's own 404 for a path it does not know: the daemon is older than this agent server.
  if (answer.status === 404 && message.startsWith('not found: ')) {
    return `The running Notifier does not know this route (404: ${message}); it may be older than this agent server.`;
  }
  if (answer.status === 501) return `The running Notifier does not support this (501: ${message}).`;
  return `Notifier returned ${answer.status}: ${message}`;
}

function routeMessage(answer: Answer): string {
  const error = (answer.json as { error?: unknown } | undefined)?.error;
  if (typeof error === 'string') return error;
  const text = answer.bytes.toString('utf8').trim();
  return text ? text.slice(0, 500) : http.STATUS_CODES[answer.status] ?? 'no message';
}

function queryString(query: Query | undefined): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function send(where: Whereabouts, call: Call): Promise<Answer> {
  const payload = call.body === undefined ? undefined : Buffer.from(JSON.stringify(call.body));
  const headers: Record<string, string> = { Accept: 'application/json, image/png' };
  if (!call.withoutToken && where.token) headers.Authorization = `Bearer ${where.token}`;
  if (payload) {
    headers['Content-Type'] = 'application/json';
    headers['Content-Length'] = String(payload.length);
  }
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port: where.port, method: call.method, path: call.path + queryString(call.query), headers, signal: call.signal },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const bytes = Buffer.concat(chunks);
          const contentType = String(response.headers['content-type'] ?? '');
          let json: unknown;
          if (contentType.includes('json')) {
            try {
              json = JSON.parse(bytes.toString('utf8'));
            } catch {
              json = undefined;
            }
          }
          resolve({ status: response.statusCode ?? 0, contentType, bytes, json });
        });
      },
    );
    const timeoutMs = call.timeoutMs ?? CALL_TIMEOUT_MS;
    request.setTimeout(timeoutMs, () => request.destroy(Object.assign(new Error(`no answer within ${timeoutMs / 1000} s`), { code: 'ETIMEDOUT' })));
    request.on('error', reject);
    request.end(payload);
  });
}
