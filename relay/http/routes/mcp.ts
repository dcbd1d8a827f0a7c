// `POST /mcp` (docs/relay-api.md#ra60 to #ra62, #ra200 to #ra202): MCP over plain HTTP, one JSON-RPC message per
// POST and one JSON answer, no sessions, no streams. What happens in front of the protocol, in order: the
// credential (401 with the OAuth challenge), the body (JSON, one message), a version header the relay does not
// know, then the era — legacy (the SDK's Server, legacy.ts) or 2026-07-28 (by hand, modern.ts) — and, for
// everything answered without a step of its own, one counted request against the budget, so each MCP call costs
// exactly one.

import { Router, type Request, type Response } from 'express';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { RelayError } from '../../../protocol/relay/errors.js';
import { maxNotifyRequestBytes } from '../../../protocol/relay/notify.js';
import { authenticateAgent, type AgentCaller } from '../../core/auth.js';
import { authorizationOf } from '../auth.js';
import { TOO_LARGE } from '../../core/notes.js';
import type { Relay } from '../../core/relay.js';
import { agentStep } from '../../core/requests.js';
import { RpcError, rpcInternal } from '../../core/rpc-errors.js';
import { log } from '../../log.js';
import { detectEra, isUnknownVersion, SUPPORTED_VERSIONS } from '../../mcp/era.js';
import { answerLegacy } from '../../mcp/legacy.js';
import { answerModern, readModernRequest, SELF_COUNTED_METHODS } from '../../mcp/modern.js';
import { readBody } from '../body.js';
import { requestOrigin } from '../origin.js';
import { sendJSON, sendRefusal } from '../respond.js';

/** JSON-RPC error codes the front uses (RA62). */
const RPC = { parseError: -32700, invalidRequest: -32600, internal: -32603, badMethod: -32000, unsupportedVersion: -32022 } as const;
/** Room for the JSON-RPC envelope around a notification's arguments. */
const ENVELOPE_BYTES = 4096;

function rpcError(res: Response, status: number, id: unknown, code: number, message: string, data?: unknown): void {
  const error = { code, message, ...(data !== undefined && { data }) };
  sendJSON(res, status, { jsonrpc: '2.0', id: typeof id === 'string' || typeof id === 'number' ? id : null, error });
}

/** RA62: a 401 tells the client where to start OAuth (RFC 9728); `invalid_token` when it did present one. */
function challenge(req: Request, res: Response, error: RelayError): void {
  const presented = req.headers.authorization !== undefined;
  const metadata = `${requestOrigin(req)}/.well-known/oauth-protected-resource`;
  res.setHeader('WWW-Authenticate', `Bearer resource_metadata="${metadata}"${presented ? ', error="invalid_token"' : ''}`);
  sendRefusal(res, error);
}

async function authenticate(relay: Relay, req: Request, res: Response): Promise<AgentCaller | undefined> {
  try {
    const caller = await authenticateAgent(relay, authorizationOf(req));
    res.locals.agent = caller; // the request's log line names the computer and key (relay/http/request-log.ts)
    return caller;
  } catch (error) {
    if (error instanceof RelayError && error.status === 401) return void challenge(req, res, error);
    throw error;
  }
}

/** The body as JSON, one message (not a batch), or undefined after answering why not (RA62). */
async function readJSONBody(relay: Relay, req: Request, res: Response): Promise<{ body: unknown } | undefined> {
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

export function mcpRoutes(relay: Relay): Router {
  const router = Router();

  router.post('/mcp', async (req, res) => {
    const agent = await authenticate(relay, req, res);
    if (!agent) return;
    const read = await readJSONBody(relay, req, res);
    if (!read) return;
    const { body } = read;
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
      sendJSON(res, 200, answer);
    } catch (error) {
      if (error instanceof RpcError) return rpcError(res, error.httpStatus, id, error.code, error.message, error.data);
      if (!(error instanceof RelayError)) throw error;
      // The key was revoked (401) or lacks the scope (403): the HTTP answer is that refusal itself.
      if (error.status === 401) return challenge(req, res, error);
      if (error.status === 403) return sendRefusal(res, error);
      if (error.details.retryAfterHeader) res.setHeader('Retry-After', String(error.details.retryAfterSeconds));
      rpcError(res, error.status, id, RPC.internal, error.message, error.body());
    }
  });

  // RA62: no server-sent event stream and no sessions to end.
  router.all('/mcp', (req, res) => {
    res.setHeader('Allow', 'POST');
    if (req.method === 'GET' || req.method === 'DELETE') return rpcError(res, 405, null, RPC.badMethod, 'Method Not Allowed: use POST');
    res.status(405).setHeader('Content-Type', 'text/plain; charset=utf-8').end('Method Not Allowed: use POST\n');
  });
  return router;
}
