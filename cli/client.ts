// The `notifier` command's requests (docs/cli.md): finding the service and sending it one request
// (cli/local-service.ts, shared with the agent server), the tool's own words when nothing answers, and printing.

import { sortedJson } from './args.js';
import { type HttpCall, NoAnswer, type Query, findService, httpCall, parseJson } from './local-service.js';

export { portFromFile } from './local-service.js';

/** How long the tool waits for an answer before it says nothing answered. */
const ANSWER_TIMEOUT_MS = 60_000;

/** What the command line says about the service: `--support-dir`, `--port`, `--token`. */
export interface Target {
  /** The folder whose `port` and `token` files point at the service (as `notifier daemon --support-dir`). */
  supportDir?: string;
  port?: number;
  token?: string;
}

export interface ServiceRequest {
  method: HttpCall['method'];
  path: string;
  query?: Query;
  body?: unknown;
  /** false: no Authorization header (GET /v1/health). */
  auth?: boolean;
  /** How long to wait for the answer; default 60 s. A long wait (GET /v1/replies/wait) gives its own. */
  timeoutMs?: number;
}

export interface ServiceReply {
  status: number;
  text: string;
  /** The body parsed as JSON; undefined when it is not JSON. */
  json: unknown;
}

const START_HINT = "Start it with 'npm start' or 'notifier daemon'.";

/** Nothing answered, or there is nothing to call: the service is not running (exit 2). */
export class ServiceUnavailable extends Error {
  override name = 'ServiceUnavailable';

  /** Nothing answered on this port. */
  static silent(port: number, reason: string): ServiceUnavailable {
    return new ServiceUnavailable(`Notifier is not running: nothing answered on 127.0.0.1:${port} (${reason}). ${START_HINT}`);
  }

  /** A support folder of its own without a port file: its instance is stopped; the default port is not tried. */
  static noPortFile(supportDir: string): ServiceUnavailable {
    return new ServiceUnavailable(`Notifier is not running: there is no port file in ${supportDir}. ${START_HINT}`);
  }
}

/** One request to the service the support folder's files (or `--port`, `--token`) point at. */
export async function callService(request: ServiceRequest, target: Target): Promise<ServiceReply> {
  const service = await findService(target);
  const { port } = service;
  if (port === undefined) throw ServiceUnavailable.noPortFile(service.supportDir);
  const { method, path, query, body } = request;
  let answer;
  try {
    answer = await httpCall({
      method,
      port,
      path,
      query,
      body,
      token: request.auth === false ? undefined : service.token,
      timeoutMs: request.timeoutMs ?? ANSWER_TIMEOUT_MS,
    });
  } catch (error) {
    if (!(error instanceof NoAnswer)) throw error;
    throw ServiceUnavailable.silent(port, error.code === 'ECONNREFUSED' ? 'connection refused' : error.message);
  }
  const text = answer.bytes.toString('utf8');
  return { status: answer.status, text, json: parseJson(text) };
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
