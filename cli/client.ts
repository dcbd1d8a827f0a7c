// Finding the running service and sending it one request (spec 2, "Command-line tool"): the support folder is
// NOTIFIER_SUPPORT_DIR or the platform's default; `port` there (digits only) else 48617; `token` there. Both
// files are read on every call, so a restarted service on another port or with a new token is found.

import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { DEFAULT_PORT } from '../daemon/limits.js';
import { defaultSupportDir } from '../daemon/support-dir.js';
import { sortedJson } from './args.js';

/** How long the tool waits for an answer before it says nothing answered. */
const ANSWER_TIMEOUT_MS = 60_000;

/** What the command line says about the service: `--port`, `--token`. */
export interface Target {
  port?: number;
  token?: string;
}

export interface Service {
  supportDir: string;
  port: number;
  token: string | undefined;
}

export interface ServiceRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** Query parameters; undefined ones are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** false: no Authorization header (GET /v1/health). */
  auth?: boolean;
}

export interface ServiceReply {
  status: number;
  text: string;
  /** The body parsed as JSON; undefined when it is not JSON. */
  json: unknown;
}

/** Nothing answered: the service is not running (exit 2). */
export class ServiceUnavailable extends Error {
  override name = 'ServiceUnavailable';
  constructor(readonly port: number, readonly reason: string) {
    super(`Notifier is not running: nothing answered on 127.0.0.1:${port} (${reason}). Start it with 'npm start' or 'notifier daemon'.`);
  }
}

/** The `port` file's port: its text trimmed, digits only and 1..65535; anything else is no port. */
export function portFromFile(text: string | undefined): number | undefined {
  const trimmed = text?.trim() ?? '';
  if (!/^\d{1,5}$/.test(trimmed)) return undefined;
  const port = Number(trimmed);
  return port >= 1 && port <= 65535 ? port : undefined;
}

const readText = (file: string): Promise<string | undefined> => readFile(file, 'utf8').then((text) => text, () => undefined);

/** Where the service is, from the options first, then the support folder's files, then the default port. */
export async function findService(target: Target, env: NodeJS.ProcessEnv = process.env): Promise<Service> {
  const supportDir = defaultSupportDir(env);
  const [portText, tokenText] = await Promise.all([
    target.port === undefined ? readText(path.join(supportDir, 'port')) : undefined,
    target.token === undefined ? readText(path.join(supportDir, 'token')) : undefined,
  ]);
  const token = target.token ?? (tokenText?.trim() || undefined);
  return { supportDir, port: target.port ?? portFromFile(portText) ?? DEFAULT_PORT, token };
}

function queryString(query: ServiceRequest['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) params.append(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** One request on a fresh connection (closed afterwards, so the process can end at once). */
export async function callService(request: ServiceRequest, target: Target): Promise<ServiceReply> {
  const service = await findService(target);
  const payload = request.body === undefined ? undefined : Buffer.from(JSON.stringify(request.body));
  const headers: Record<string, string> = {};
  if (request.auth !== false && service.token) headers.Authorization = `Bearer ${service.token}`;
  if (payload) {
    headers['Content-Type'] = 'application/json';
    headers['Content-Length'] = String(payload.length);
  }
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: service.port, method: request.method, path: request.path + queryString(request.query), headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, text, json });
        });
        res.on('error', (error) => reject(new ServiceUnavailable(service.port, error.message)));
      },
    );
    req.setTimeout(ANSWER_TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${ANSWER_TIMEOUT_MS / 1000} s`)));
    req.on('error', (error: NodeJS.ErrnoException) => reject(new ServiceUnavailable(service.port, error.code === 'ECONNREFUSED' ? 'connection refused' : error.message)));
    req.end(payload);
  });
}

/**
 * Prints a reply as the tool does (sorted-key JSON on standard output, or the text when it is not JSON) and
 * returns the exit code: 0 for a 2xx status, 1 for an error status (a 401 adds a hint on standard error).
 */
export function printReply(reply: ServiceReply): number {
  process.stdout.write(`${reply.json === undefined ? reply.text : sortedJson(reply.json)}\n`);
  if (reply.status >= 200 && reply.status < 300) return 0;
  if (reply.status === 401) process.stderr.write('notifier: unauthorized (check the token file or --token)\n');
  return 1;
}
