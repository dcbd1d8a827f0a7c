// The JSON-RPC errors of `/mcp`'s 2026-07-28 era and its reply-event methods (docs/relay-api.md#ra201, #ra204,
// #ra206), in one place: a code, a message, optional `data`, and the HTTP status the answer goes with. (The
// relay's HTTP refusals are RelayErrors, protocol/relay/errors.ts; a RelayError of a step — a revoked key, a
// spent budget — keeps its own status on /mcp too.)

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    readonly httpStatus = 200,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

/** -32600: not a JSON-RPC 2.0 request. */
export const invalidRpcRequest = (): RpcError => new RpcError(-32600, 'Invalid Request: not a JSON-RPC 2.0 message', undefined, 400);

/** -32601: the era has no such method (HTTP 404 in the 2026-07-28 era). */
export const methodNotFound = (method: string): RpcError => new RpcError(-32601, `Method not found: ${method}`, undefined, 404);

/** -32602: bad parameters of a call (HTTP 200), or a request without its `_meta` (HTTP 400). */
export const invalidParams = (message: string, data?: unknown): RpcError => new RpcError(-32602, message, data);
export const missingMeta = (message: string): RpcError => new RpcError(-32602, message, undefined, 400);

/** -32603: the relay failed (the details are in its log). */
export const rpcInternal = (message = 'internal error (details are in the relay log)'): RpcError => new RpcError(-32603, message);

/** -32015: the callback did not pass the verification challenge; `reason` says how. */
export const callbackFailed = (reason: 'unreachable' | 'bad_status' | 'challenge_mismatch', message: string): RpcError =>
  new RpcError(-32015, message, { reason });

/** -32020: a header says something else than the body. */
export const headerMismatch = (message: string): RpcError => new RpcError(-32020, message, undefined, 400);

/** -32022: a protocol version the relay does not speak. */
export const unsupportedVersion = (requested: string, supported: readonly string[]): RpcError =>
  new RpcError(-32022, `unsupported protocol version: ${requested}`, { supported, requested }, 400);
