// `POST /mcp` (docs/relay-api.md#ra60 to #ra62, #ra200 to #ra202): MCP over plain HTTP, one JSON-RPC message per
// POST and one JSON answer, no sessions, no streams. What happens in front of the protocol, in order: the
// credential (401 with the OAuth challenge), the body (JSON, one message), a version header the relay does not
// know, then the era — legacy (the SDK's Server, legacy.ts) or 2026-07-28 (by hand, modern.ts) — and, for
// everything answered without a step of its own, one counted request against the budget, so each MCP call costs
// exactly one. Once a message was read, refusals are JSON-RPC errors (relay/core/rpc-errors.ts, and a step's
// RelayError with its status); before, the relay's own.

import type { NextFunction, Request, Response } from 'express';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { TOO_LARGE } from '../../../common/bounded-body.js';
import { answerJson } from '../../../common/json-answer.js';
import { RelayError } from '../../../protocol/relay/errors.js';
import { maxNotifyRequestBytes } from '../../../protocol/relay/notify.js';
import type { AgentCaller } from '../../core/auth.js';
import type { Relay } from '../../core/relay.js';
import { agentStep } from '../../core/requests.js';
import { RpcError, rpcInternal } from '../../core/rpc-errors.js';
import { log } from '../../log.js';
import { detectEra, isUnknownVersion, SUPPORTED_VERSIONS } from '../../mcp/era.js';
import { answerLegacy } from '../../mcp/legacy.js';
import { answerModern, readModernRequest, SELF_COUNTED_METHODS } from '../../mcp/modern.js';
import { readBody } from '../body.js';
import { sendRefusal } from '../errors.js';
import { requestOrigin } from '../origin.js';
import { route, type Call, type RouteGroup } from '../route.js';

/** JSON-RPC error codes the front uses (RA62). */
const RPC = { parseError: -32700, invalidRequest: -32600, internal: -32603, badMethod: -32000, unsupportedVersion: -32022 } as const;
/** Room for the JSON-RPC envelope around a notification's arguments. */
const ENVELOPE_BYTES = 4096;

function rpcError(res: Response, status: number, id: unknown, code: number, message: string, data?: unknown): void {
  const error = { code, message, ...(data !== undefined && { data }) };
  answerJson(res, status, { jsonrpc: '2.0', id: typeof id === 'string' || typeof id === 'number' ? id : null, error });
}

/**
 * RA62: a 401 tells the client where to start OAuth (RFC 9728); `invalid_token` when it did present one. The
 * group's error writer: the credential's refusal, and a key revoked during the call.
 */
function challenge(error: unknown, req: Request, res: Response, next: NextFunction): void {
  if (!(error instanceof RelayError) || error.status !== 401 || res.headersSent) return next(error);
  const presented = req.headers.authorization !== undefined;
  const metadata = `${requestOrigin(req)}/.well-known/oauth-protected-resource`;
  res.setHeader('WWW-Authenticate', `Bearer resource_metadata="${metadata}"${presented ? ', error="invalid_token"' : ''}`);
  sendRefusal(res, error);
}

/** The body as JSON, one message (not a batch), or undefined after answering why not (RA62). */
async function readMessage(relay: Relay, req: Request, res: Response): Promise<{ body: unknown } | undefined> {
  const raw = await readBody(req, maxNotifyRequestBytes(relay.limits.maxBodyBytes) + ENVELOPE_BYTES);
  if (raw === TOO_LARGE) return void rpcError(res, 413, null, RPC.invalidRequest, 'the request is too large');
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    return void rpcError(res, 400, null, RPC.parseError, 'Parse error: the body is not JSON');
  }
  if (Array.isArray(body)) return void rpcError(res, 400, null, RPC.invalidRequest, 'Invalid Request: batches are not supported');
  return { body };
}

/** A message without `method`: a client's answer to the server, which asked nothing (202). */
const isClientAnswer = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && !('method' in body) && ('result' in body || 'error' in body);

/** RA62: answered here, but it still costs one request (and is refused once the budget is spent). */
const countRequest = (relay: Relay, agent: AgentCaller): Promise<void> =>
  agentStep(relay, agent, { readLimited: false }, async () => undefined);

/** The legacy era's answer (RA60): the SDK's Server behind a one-message transport; undefined for a notification. */
async function legacyAnswer(relay: Relay, agent: AgentCaller, req: Request, message: JSONRPCMessage): Promise<unknown> {
  if (!('method' in message && message.method === 'tools/call')) await countRequest(relay, agent);
  return answerLegacy({ relay, agent, origin: requestOrigin(req) }, message);
}

/** The modern era's answer (RA200-RA202); undefined for a notification. */
async function modernAnswer(relay: Relay, agent: AgentCaller, req: Request, body: unknown): Promise<unknown> {
  const headers = { version: req.get('mcp-protocol-version'), method: req.get('mcp-method'), name: req.get('mcp-name') };
  const request = readModernRequest(headers, body); // its refusals are not counted: nothing was called
  if (request.id === undefined || !SELF_COUNTED_METHODS.has(request.method)) await countRequest(relay, agent);
  if (request.id === undefined) return undefined;
  try {
    return { jsonrpc: '2.0', id: request.id, result: await answerModern({ relay, agent, origin: requestOrigin(req) }, request) };
  } catch (error) {
    if (error instanceof RpcError || error instanceof RelayError) throw error;
    log.error(`MCP ${request.method} failed: ${(error as Error).stack ?? String(error)}`, {
      requestId: req.res?.locals.requestId as string | undefined,
    });
    throw rpcInternal();
  }
}

/**
 * One message, answered in its era (RA60, RA200): the answer, or 202 for a notification or a client's answer. A
 * refusal is a JSON-RPC error with the message's id; a RelayError of a step keeps its status and body (`data`).
 */
async function answerMessage(relay: Relay, agent: AgentCaller, req: Request, res: Response, body: unknown): Promise<void> {
  const id = (body as { id?: unknown } | null)?.id;
  const headerVersion = req.get('mcp-protocol-version');
  if (isUnknownVersion(headerVersion)) {
    return rpcError(res, 400, id, RPC.unsupportedVersion, `unsupported protocol version: ${headerVersion}`, {
      supported: SUPPORTED_VERSIONS,
      requested: headerVersion,
    });
  }
  if (isClientAnswer(body)) return void res.status(202).end(); // an answer to us: nothing to do
  try {
    let answer: unknown;
    if (detectEra(headerVersion, body) === 'modern') answer = await modernAnswer(relay, agent, req, body);
    else {
      const parsed = JSONRPCMessageSchema.safeParse(body);
      if (!parsed.success) return rpcError(res, 400, id, RPC.invalidRequest, 'Invalid Request: not a JSON-RPC 2.0 message');
      if (!('method' in parsed.data)) return void res.status(202).end();
      answer = await legacyAnswer(relay, agent, req, parsed.data);
    }
    if (answer === undefined) return void res.status(202).end();
    answerJson(res, 200, answer);
  } catch (error) {
    if (error instanceof RpcError) return rpcError(res, error.httpStatus, id, error.code, error.message, error.data);
    // Not a RelayError: the one error handler's. The key was revoked (401: the challenge) or lacks the scope (403):
    // the HTTP answer is that refusal itself.
    if (!(error instanceof RelayError) || error.status === 401 || error.status === 403) throw error;
    if (error.details.retryAfterHeader) res.setHeader('Retry-After', String(error.details.retryAfterSeconds));
    rpcError(res, error.status, id, RPC.internal, error.message, error.body());
  }
}

export function mcpRoutes(relay: Relay): RouteGroup {
  /** RA60, RA200: one message, read and answered in its era. */
  const post = async ({ req, res, caller }: Call<'agent'>) => {
    const read = await readMessage(relay, req, res);
    if (read) await answerMessage(relay, caller, req, res, read.body);
  };

  /** RA62: no server-sent event stream and no sessions to end. */
  const otherwise = ({ req, res }: Call<'none'>) => {
    res.setHeader('Allow', 'POST');
    if (req.method === 'GET' || req.method === 'DELETE') return rpcError(res, 405, null, RPC.badMethod, 'Method Not Allowed: use POST');
    res.status(405).setHeader('Content-Type', 'text/plain; charset=utf-8').end('Method Not Allowed: use POST\n');
  };

  return {
    errors: challenge,
    routes: [
      route({ method: 'POST', path: '/mcp', caller: 'agent', handle: post }),
      route({ method: 'ALL', path: '/mcp', caller: 'none', handle: otherwise }),
    ],
  };
}
