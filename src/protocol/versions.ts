/**
 * The protocol revisions autos-mcp speaks, and the `_meta` keys of the stateless revision.
 * Spec: S25/basic/lifecycle (negotiation), S26/basic/versioning, S26/basic/index (`_meta`).
 */

/** The two revisions this client implements. */
export type ProtocolVersion = '2025-11-25' | '2026-07-28';
/** What a config may ask for: one revision, or `auto` (dual-era detection). */
export type ProtocolVersionChoice = ProtocolVersion | 'auto';

export const LEGACY_VERSION = '2025-11-25';
export const MODERN_VERSION = '2026-07-28';

/** True for what a config's `protocolVersion` may say. */
export function isProtocolVersionChoice(value: unknown): value is ProtocolVersionChoice {
  return value === LEGACY_VERSION || value === MODERN_VERSION || value === 'auto';
}

/**
 * Versions a server may answer `initialize` with that share the 2025-11-25 lifecycle (S25/basic/lifecycle:
 * the client disconnects from anything it does not support). Older revisions are accepted for what they
 * share with 2025-11-25 (tools, ping, progress, cancellation, logging; docs/versions.md says what differs).
 * 2026-07-28 is never accepted from `initialize`: modern servers do not use it.
 */
export const LEGACY_COMPATIBLE: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

/** The first revision whose HTTP requests carry `MCP-Protocol-Version` (S25/basic/transports). */
const VERSION_HEADER_SINCE = '2025-06-18';

/** True when requests of this negotiated revision carry the `MCP-Protocol-Version` header. */
export function carriesVersionHeader(version: string): boolean {
  // Revisions are dates: their string order is their time order.
  return version >= VERSION_HEADER_SINCE;
}

/** Modern (stateless) revisions this client can send, most preferred first. */
export const MODERN_SUPPORTED: readonly string[] = [MODERN_VERSION];

export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
export const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
/** The `subscriptions/listen` request id a notification or the listen's final result belongs to (S26/basic/patterns/subscriptions). */
export const META_SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

export type Era = 'legacy' | 'modern';
