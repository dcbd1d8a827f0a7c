import { expect } from '@jest/globals';
import net from 'node:net';
import http from 'node:http';

/** A port nobody listens on right now: the system hands out a free one, and it is closed again. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Reply<T = any> {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The body's bytes as received (for binary replies such as PNG pictures). */
  raw: Buffer;
  /** The body parsed as JSON (undefined when it is not JSON). */
  json: T;
}

export interface RequestOptions {
  /** A JSON value to send, or a raw string/Buffer sent as is. */
  body?: unknown;
  headers?: Record<string, string | string[]>;
  /** Use this token; `null` sends no Authorization header. Default: the daemon's token. */
  token?: string | null;
  timeoutMs?: number;
}

/**
 * A plain node:http request, so tests control every header (Host, Origin, Authorization) and the raw body.
 * A fresh connection per request (no agent) keeps each test's requests independent.
 */
export function request(port: number, method: string, path: string, options: RequestOptions = {}): Promise<Reply> {
  const payload =
    options.body === undefined
      ? undefined
      : typeof options.body === 'string' || Buffer.isBuffer(options.body)
        ? Buffer.from(options.body as string | Buffer)
        : Buffer.from(JSON.stringify(options.body));
  const headers: Record<string, string | string[]> = { ...options.headers };
  if (options.token) headers.Authorization ??= `Bearer ${options.token}`;
  if (payload) {
    headers['Content-Type'] ??= 'application/json';
    headers['Content-Length'] ??= String(payload.length);
  }
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const text = raw.toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, raw, json });
      });
      res.on('error', reject);
    });
    req.setTimeout(options.timeoutMs ?? 20_000, () => req.destroy(new Error(`${method} ${path} timed out`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * The daemon's error body with this message (docs/api/README.md#errors): `error` exactly, a stable `code`, and
 * where the error names a field, `field` and `reason` (checked by the tests of the routes that name them).
 */
export const apiError = (message: string) =>
  expect.objectContaining({ error: message, code: expect.stringMatching(/^[a-z][a-z0-9_]*$/) }) as unknown as { error: string };

/** The daemon's refusal: this status, a JSON body, and its error this message (or one matching this pattern). */
export function expectError(reply: Reply, status: number, message: string | RegExp): void {
  expect({ status: reply.status, type: reply.headers['content-type'] }).toEqual({
    status,
    type: expect.stringMatching(/^application\/json/),
  });
  if (typeof message === 'string') expect(reply.json).toEqual(apiError(message));
  else expect(reply.json.error).toMatch(message);
}

/** The daemon's whole error body for a request that leaves out `field` (docs/api/README.md#errors), written out. */
export const missingField = (field: string) => ({ error: `missing field: ${field}`, code: 'missing_field', field });
