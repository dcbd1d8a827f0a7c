// Finding the running service and sending it one request: what the `notifier` command (cli/client.ts) and the
// MCP agent server (cli/mcp/call.ts) share. Each of them words its own failures and reads the answer its own way.
// Only Node's built-ins and two light daemon modules here: every `notifier` command loads this at its cold start.

import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { DEFAULT_PORT } from '../protocol/limits.js';
import { defaultSupportDir, usesDefaultPort } from '../daemon/support-dir.js';

/** What the caller was told; each beats the support folder's files. */
export interface ServiceOptions {
  /** `--support-dir`, else `NOTIFIER_SUPPORT_DIR`, else the platform's default folder. */
  supportDir?: string;
  /** `--port`: beats the `port` file. */
  port?: number;
  /** `--token` (or `NOTIFIER_TOKEN` for the agent server): beats the `token` file. */
  token?: string;
}

/** Where the service is, as the files say right now. */
export interface ServiceFiles {
  supportDir: string;
  /**
   * `--port`, else the `port` file's, else the default port for the platform's own folder only. Undefined: a folder
   * of its own without a port file, whose service is not running (nothing is called).
   */
  port: number | undefined;
  /** True when the port came from `--port` or the `port` file (no file: the service is probably not running). */
  portKnown: boolean;
  tokenFile: string;
  token: string | undefined;
}

/** The `port` file's port: its text trimmed, digits only and 1..65535; anything else is no port. */
export function portFromFile(text: string | undefined): number | undefined {
  const trimmed = text?.trim() ?? '';
  if (!/^\d{1,5}$/.test(trimmed)) return undefined;
  const port = Number(trimmed);
  return port >= 1 && port <= 65535 ? port : undefined;
}

const readText = (file: string): Promise<string | undefined> =>
  readFile(file, 'utf8').then(
    (text) => text,
    () => undefined,
  );

/**
 * Where the service is (docs/cli.md#how-it-finds-the-service): the options first, then the support folder's
 * `port` and `token` files. Without a port file the default port is used for the platform's own folder only
 * (docs/api/README.md#g2): a stopped instance's folder must not lead to another instance listening there. Read
 * again on every call, so a restarted service on another port or with a new token is found.
 */
export async function findService(options: ServiceOptions, env: NodeJS.ProcessEnv = process.env): Promise<ServiceFiles> {
  const supportDir = path.resolve(options.supportDir ?? defaultSupportDir(env));
  const tokenFile = path.join(supportDir, 'token');
  const [portText, tokenText] = await Promise.all([
    options.port === undefined ? readText(path.join(supportDir, 'port')) : undefined,
    options.token === undefined ? readText(tokenFile) : undefined,
  ]);
  const filePort = portFromFile(portText);
  return {
    supportDir,
    port: options.port ?? filePort ?? (usesDefaultPort(supportDir, env) ? DEFAULT_PORT : undefined),
    portKnown: options.port !== undefined || filePort !== undefined,
    tokenFile,
    token: options.token ?? (tokenText?.trim() || undefined),
  };
}

/** Query parameters; undefined and null ones are left out. */
export type Query = Record<string, string | number | boolean | undefined | null>;

export interface HttpCall {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  port: number;
  path: string;
  query?: Query;
  /** Sent as JSON; undefined: no body. */
  body?: unknown;
  /** Sent as a bearer token; undefined or empty: no Authorization header. */
  token?: string | undefined;
  accept?: string;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

export interface HttpAnswer {
  status: number;
  contentType: string;
  bytes: Buffer;
}

/**
 * Nothing answered: the connection was refused or closed without an answer, or no answer came in time. `code` is
 * Node's (ECONNREFUSED, ECONNRESET, ETIMEDOUT, …) when it gave one; the message is Node's own.
 */
export class NoAnswer extends Error {
  override readonly name = 'NoAnswer';
  readonly code: string | undefined;

  constructor(cause: NodeJS.ErrnoException) {
    super(cause.message, { cause });
    this.code = cause.code;
  }
}

function queryString(query: Query | undefined): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined && value !== null) params.append(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * One request to 127.0.0.1 on a fresh connection (closed afterwards, so a command's process can end at once).
 * Rejects with NoAnswer when nothing answers, or with the signal's own AbortError when the signal aborted it.
 */
export function httpCall(call: HttpCall): Promise<HttpAnswer> {
  const payload = call.body === undefined ? undefined : Buffer.from(JSON.stringify(call.body));
  const headers: Record<string, string> = {};
  if (call.accept) headers.Accept = call.accept;
  if (call.token) headers.Authorization = `Bearer ${call.token}`;
  if (payload) {
    headers['Content-Type'] = 'application/json';
    headers['Content-Length'] = String(payload.length);
  }
  return new Promise((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException): void => reject(call.signal?.aborted ? error : new NoAnswer(error));
    const request = http.request(
      {
        host: '127.0.0.1',
        port: call.port,
        method: call.method,
        path: call.path + queryString(call.query),
        headers,
        agent: false,
        signal: call.signal,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', failed);
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            contentType: String(response.headers['content-type'] ?? ''),
            bytes: Buffer.concat(chunks),
          }),
        );
      },
    );
    request.setTimeout(call.timeoutMs, () =>
      request.destroy(Object.assign(new Error(`no answer within ${call.timeoutMs / 1000} s`), { code: 'ETIMEDOUT' })),
    );
    request.on('error', failed);
    request.end(payload);
  });
}

/** The text parsed as JSON; undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
