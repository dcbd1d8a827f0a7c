// Which MCP protocol era a request speaks (docs/relay-api.md#ra60, #ra200). The legacy era (an `initialize`
// handshake, tools only, legacy.ts) and the modern era `2026-07-28` (stateless `_meta`, `server/discover`, reply
// events, modern.ts) share one URL, so the choice is made here, in front of both.

/** The modern protocol version (RA200). */
export const MODERN_VERSION = '2026-07-28';
/** RA60: legacy versions an `initialize` gets echoed; any other is answered with the first. */
export const LEGACY_VERSIONS = ['2025-06-18', '2025-03-26', '2024-11-05'] as const;
/** RA200: every version the relay speaks, newest first. */
export const SUPPORTED_VERSIONS = [MODERN_VERSION, ...LEGACY_VERSIONS] as const;
export const META_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';

export type Era = 'legacy' | 'modern';

function metaVersion(body: unknown): unknown {
  if (typeof body !== 'object' || body === null) return undefined;
  const params = (body as { params?: unknown }).params;
  if (typeof params !== 'object' || params === null) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  return typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>)[META_VERSION_KEY] : undefined;
}

/** RA60: modern when the header says 2026-07-28 or the params carry a `_meta` protocol version. */
export function detectEra(headerVersion: string | undefined, body: unknown): Era {
  return headerVersion === MODERN_VERSION || metaVersion(body) !== undefined ? 'modern' : 'legacy';
}

/** RA60: a protocol-version header the relay knows nothing of. */
export const isUnknownVersion = (headerVersion: string | undefined): boolean =>
  headerVersion !== undefined && headerVersion !== MODERN_VERSION && !(LEGACY_VERSIONS as readonly string[]).includes(headerVersion);

/** RA60: the version an `initialize` is answered with. */
export const negotiatedVersion = (requested: string): string =>
  (LEGACY_VERSIONS as readonly string[]).includes(requested) ? requested : LEGACY_VERSIONS[0];
