// How the agent server reaches the running daemon: finding it (the support folder's `port` and `token` files, read
// again on every call) and one HTTP request on 127.0.0.1 come from cli/local-service.ts, shared with the `notifier`
// command. Here every failure becomes a ToolFailure whose message is what the agent reads; nothing here may crash
// the server.

import http from 'node:http';
import path from 'node:path';
import { defaultSupportDir } from '../../daemon/support-dir.js';
import { type HttpCall, type Query, type ServiceFiles, type ServiceOptions, findService, httpCall, parseJson } from '../local-service.js';

/** How long an ordinary call may take (a preview draws a picture; everything else answers at once). */
export const CALL_TIMEOUT_MS = 30_000;

/** A failed call, worded for the agent: the tool result carries this text with `isError: true`. */
export class ToolFailure extends Error {
  override readonly name = 'ToolFailure';
}

export interface Call {
  method: HttpCall['method'];
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

export class Notifier {
  readonly supportDir: string;

  constructor(private readonly options: ServiceOptions) {
    this.supportDir = path.resolve(options.supportDir ?? defaultSupportDir());
  }

  /** Where the daemon is, as the files say right now (a restarted daemon may listen on another port). */
  whereabouts(): Promise<ServiceFiles> {
    return findService({ ...this.options, supportDir: this.supportDir });
  }

  /** One request. A 2xx answer is returned; anything else throws a ToolFailure with the route's own message. */
  async call(call: Call): Promise<Answer> {
    const where = await this.whereabouts();
    const { port } = where;
    if (port === undefined) throw new ToolFailure(notRunningText(where));
    let answer: Answer;
    try {
      const reply = await httpCall({
        method: call.method,
        port,
        path: call.path,
        query: call.query,
        body: call.body,
        token: call.withoutToken ? undefined : where.token,
        accept: 'application/json, image/png',
        timeoutMs: call.timeoutMs ?? CALL_TIMEOUT_MS,
        signal: call.signal,
      });
      // Only a JSON answer is parsed: a preview answers with a picture's bytes.
      answer = { ...reply, json: reply.contentType.includes('json') ? parseJson(reply.bytes.toString('utf8')) : undefined };
    } catch (error) {
      if (call.signal?.aborted) throw new ToolFailure('the call was cancelled');
      throw new ToolFailure(notRunningText(where, error as NodeJS.ErrnoException));
    }
    if (answer.status >= 200 && answer.status < 300) return answer;
    throw new ToolFailure(failureText(where, answer));
  }
}

const START_HINT =
  'Start it with `notifier daemon` (or `npm start` in its folder), or point this server at its support folder with --support-dir.';

export function notRunningText(where: ServiceFiles, error?: NodeJS.ErrnoException): string {
  // A folder of its own without a port file: its instance is stopped, and nothing was called (docs/mcp.md).
  if (where.port === undefined) return `Notifier is not running: there is no port file in ${where.supportDir}. ${START_HINT}`;
  const why = error ? ` (${error.code ?? error.message})` : '';
  const portNote = where.portKnown ? '' : `; there is no port file in ${where.supportDir}`;
  return `Notifier is not running or not reachable at http://127.0.0.1:${where.port}${why}${portNote}. ${START_HINT}`;
}

function failureText(where: ServiceFiles, answer: Answer): string {
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
  return text ? text.slice(0, 500) : (http.STATUS_CODES[answer.status] ?? 'no message');
}
