// The legacy MCP era on `POST /mcp` (docs/relay-api.md#ra60, #ra61): `initialize`, `ping`, `tools/list`,
// `tools/call`. The official SDK's low-level `Server` does the protocol: message dispatch, the request and
// result schemas, `ping`, notifications, and JSON-RPC errors (-32601 for an unknown method, -32602 for bad
// params). What it does not do for this shape is hand-written, and docs/relay.md lists it: the HTTP framing
// (one JSON reply per POST, through OneShotTransport below, instead of the SDK's Streamable HTTP transport,
// which insists on an SSE-capable Accept header and converts every request to a Fetch Request), the version
// answered to `initialize`, and everything routes/mcp.ts does in front (auth, eras, refusals).

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  isJSONRPCRequest,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { RelayError } from '../../protocol/relay/errors.js';
import { log } from '../log.js';
import { RELAY_VERSION } from '../version.js';
import { negotiatedVersion } from './era.js';
import { callTool, TOOLS, UnknownTool, type ToolContext, type ToolOutcome } from './tools.js';

export const SERVER_INFO = { name: 'notifier-relay', title: 'Notifier relay', version: RELAY_VERSION };

export const INSTRUCTIONS =
  "Notifier relay: send notifications to a person's computer, where Notifier shows (and can speak) them. " +
  'Call send_notification with at least a title; give it a notificationId of your own to read its receipt later ' +
  '(get_receipt) or, with expectReply: true, to wait for the answer (wait_for_reply). herald_status says whether ' +
  'the computer is connected. Notifications carry text, a link and a picture only: no buttons, commands or scripts. ' +
  'Limits: 60 notifications per 10 minutes per key; the computer takes 500 a day.';

const CAPABILITIES = { tools: { listChanged: false } };

/**
 * A transport for exactly one message: it hands the message to the SDK server and resolves with the server's
 * answer to it. (The SDK's Transport interface; no streams, no sessions.)
 */
class OneShotTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private answer!: (message: JSONRPCMessage) => void;
  readonly answered = new Promise<JSONRPCMessage>((resolve) => (this.answer = resolve));

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if ('result' in message || 'error' in message) this.answer(message);
  }

  async close(): Promise<void> {
    this.onclose?.();
  }

  deliver(message: JSONRPCMessage): void {
    this.onmessage?.(message);
  }
}

/** RA61: a tool's answer: its route's body as text and as structured content, isError when it refused. */
export function toolResult(outcome: ToolOutcome): CallToolResult {
  const body = outcome.body as Record<string, unknown>;
  return {
    content: [{ type: 'text', text: JSON.stringify(body) }],
    structuredContent: body,
    ...(outcome.status >= 300 && { isError: true }),
  };
}

/**
 * Answers one legacy-era message: the JSON-RPC answer to a request, or undefined for a notification. A 401 or
 * 403 a tool's route gave is thrown, so the HTTP answer is that refusal itself (RA62).
 */
export async function answerLegacy(context: ToolContext, message: JSONRPCMessage): Promise<JSONRPCMessage | undefined> {
  let refusal: RelayError | undefined;
  const server = new Server(SERVER_INFO, { capabilities: CAPABILITIES, instructions: INSTRUCTIONS });
  // RA60: echo a known legacy version, else answer the newest legacy one (the SDK would offer its own list).
  server.setRequestHandler(InitializeRequestSchema, (request) => ({
    protocolVersion: negotiatedVersion(request.params.protocolVersion),
    capabilities: CAPABILITIES,
    serverInfo: SERVER_INFO,
    instructions: INSTRUCTIONS,
  }));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    try {
      return toolResult(await callTool(context, request.params.name, request.params.arguments ?? {}));
    } catch (error) {
      if (error instanceof UnknownTool) throw new McpError(ErrorCode.InvalidParams, error.message);
      if (error instanceof RelayError) refusal = error;
      else log.error(`MCP tool ${request.params.name} failed: ${(error as Error).stack ?? String(error)}`);
      throw new McpError(ErrorCode.InternalError, 'internal error (details are in the relay log)');
    }
  });

  const transport = new OneShotTransport();
  await server.connect(transport);
  try {
    transport.deliver(message);
    if (!isJSONRPCRequest(message)) return undefined; // a notification: nothing to answer
    const answer = await transport.answered;
    if (refusal) throw refusal;
    return answer;
  } finally {
    await server.close();
  }
}
