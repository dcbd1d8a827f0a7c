// The modern MCP era, protocol `2026-07-28`, on `POST /mcp` (docs/relay-api.md#ra200 to #ra202, #ra204). Written
// by hand: the MCP SDK does not know this era. It is stateless — no handshake; every request carries its
// protocol version and the client's capabilities in `params._meta`, and headers that repeat the version and the
// method — and every answer says `resultType: "complete"` and who the server is. The tools are the legacy era's
// (tools.ts); the reply-event methods exist only here (core/subscriptions.ts).

import { REPLY_EVENT } from '../core/reply-events.js';
import { headerMismatch, invalidParams, invalidRpcRequest, methodNotFound, missingMeta, unsupportedVersion } from '../core/rpc-errors.js';
import { subscribe, unsubscribe } from '../core/subscriptions.js';
import { META_VERSION_KEY, MODERN_VERSION, SUPPORTED_VERSIONS } from './era.js';
import { INSTRUCTIONS, SERVER_INFO, toolResult } from './legacy.js';
import { callTool, TOOLS, UnknownTool, type ToolContext } from './tools.js';

export const CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
export const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';

/** RA202: what `server/discover` says the relay can do. */
const CAPABILITIES = { tools: { listChanged: false }, events: {} };

const MODERN_INSTRUCTIONS =
  `${INSTRUCTIONS} To be called when the person answers instead of waiting: events/subscribe to ${REPLY_EVENT} with a ` +
  'webhook (an https URL of your own and a whsec_ secret); the relay posts a signed event with the notification ids, ' +
  'and you read the answer with get_receipt.';

/** RA204: the one event, as `events/list` describes it. */
const REPLY_EVENT_DEFINITION = {
  name: REPLY_EVENT,
  description:
    'The person answered one of your notifications (the first answer only). The payload holds ids, never the answer: read it with get_receipt.',
  delivery: ['webhook'],
  inputSchema: { type: 'object', additionalProperties: false, properties: {} },
  payloadSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['notificationId', 'id', 'kind'],
    properties: {
      notificationId: { type: 'string', description: 'The notificationId you sent (or the one the relay made).' },
      id: { type: 'string', description: "The relay's id of the notification (r_ and 24 hex digits)." },
      kind: { type: 'string', enum: ['text', 'voice'], description: 'Typed (text) or recorded only (voice).' },
    },
  },
};

/** The headers a modern request repeats its body in (absent ones are undefined). */
export interface ModernHeaders {
  version?: string;
  method?: string;
  name?: string;
}

export interface ModernRequest {
  /** Undefined for a notification. */
  id?: string | number;
  method: string;
  params: Record<string, unknown>;
}

/** Methods whose own step is the request counted against the budget (the others are counted by the route). */
export const SELF_COUNTED_METHODS: ReadonlySet<string> = new Set(['tools/call', 'events/subscribe', 'events/unsubscribe']);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** RA201: a header value, plain or as `=?base64?...?=` (for names that are not plain ASCII). */
function headerText(value: string | undefined): string | undefined {
  const encoded = value === undefined ? null : /^=\?base64\?(.*)\?=$/i.exec(value);
  return encoded ? Buffer.from(encoded[1]!, 'base64').toString('utf8') : value;
}

/**
 * RA201: the checks of a modern request, in order (an unknown MCP-Protocol-Version header is refused before,
 * for both eras): the JSON-RPC shape; `_meta` with the version and the client's capabilities; a version header
 * that differs from `_meta`; the version itself; then the headers every 2026-07-28 request carries —
 * `MCP-Protocol-Version`, `Mcp-Method` equal to the method, and for `tools/call` `Mcp-Name` equal to the tool. A
 * header that is missing is a header that does not match (-32020). A legacy request (era.ts) never gets here, so
 * clients of the older versions need none of these headers.
 */
export function readModernRequest(headers: ModernHeaders, body: unknown): ModernRequest {
  const id = isObject(body) ? body.id : undefined;
  if (
    !isObject(body) ||
    body.jsonrpc !== '2.0' ||
    typeof body.method !== 'string' ||
    !(id === undefined || typeof id === 'string' || typeof id === 'number')
  )
    throw invalidRpcRequest();
  const params = isObject(body.params) ? body.params : {};
  const meta = params._meta;
  if (!isObject(meta) || typeof meta[META_VERSION_KEY] !== 'string' || !isObject(meta[CAPABILITIES_KEY]))
    throw missingMeta(`params._meta must carry ${META_VERSION_KEY} (a string) and ${CAPABILITIES_KEY} (an object)`);
  const version = meta[META_VERSION_KEY] as string;
  if (headers.version !== undefined && headers.version !== version)
    throw headerMismatch(`the MCP-Protocol-Version header (${headers.version}) differs from params._meta's version (${version})`);
  if (version !== MODERN_VERSION) throw unsupportedVersion(version, SUPPORTED_VERSIONS);
  if (headers.version === undefined)
    throw headerMismatch(
      `the MCP-Protocol-Version header is missing: a ${MODERN_VERSION} request carries it, the same as params._meta's version`,
    );
  if (headers.method === undefined)
    throw headerMismatch(
      `the Mcp-Method header is missing: a ${MODERN_VERSION} request carries it, the same as the method (${body.method})`,
    );
  if (headerText(headers.method) !== body.method)
    throw headerMismatch(`the Mcp-Method header (${headers.method}) differs from the method (${body.method})`);
  if (body.method === 'tools/call' && (headers.name === undefined || headerText(headers.name) !== params.name))
    throw headerMismatch('tools/call needs the Mcp-Name header, the same as params.name');
  return { id, method: body.method, params };
}

/** RA200: every successful result says it is complete and who answered. */
const complete = (result: object): Record<string, unknown> => ({
  ...result,
  resultType: 'complete',
  _meta: { [SERVER_INFO_KEY]: SERVER_INFO },
});

/** RA202, RA204, RA61: one checked request's result; refusals are thrown (RpcError, or a step's RelayError). */
export async function answerModern(context: ToolContext, request: ModernRequest): Promise<Record<string, unknown>> {
  const { params } = request;
  switch (request.method) {
    case 'server/discover':
      return complete({
        supportedVersions: SUPPORTED_VERSIONS,
        capabilities: CAPABILITIES,
        serverInfo: SERVER_INFO,
        instructions: MODERN_INSTRUCTIONS,
      });
    case 'ping':
      return complete({});
    case 'tools/list':
      return complete({ tools: TOOLS });
    case 'tools/call':
      return complete(await callModernTool(context, params));
    case 'events/list':
      return complete({ events: [REPLY_EVENT_DEFINITION] });
    case 'events/subscribe':
      return complete(await subscribe(context.relay, context.agent, params));
    case 'events/unsubscribe':
      await unsubscribe(context.relay, context.agent, params);
      return complete({});
    default:
      throw methodNotFound(request.method);
  }
}

/** RA61: the same tools and results as the legacy era. */
async function callModernTool(context: ToolContext, params: Record<string, unknown>): Promise<object> {
  if (typeof params.name !== 'string') throw invalidParams('params.name must name a tool');
  const args = params.arguments ?? {};
  if (!isObject(args)) throw invalidParams('params.arguments must be an object');
  try {
    return toolResult(await callTool(context, params.name, args));
  } catch (error) {
    if (error instanceof UnknownTool) throw invalidParams(error.message);
    throw error;
  }
}
