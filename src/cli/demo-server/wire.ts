/**
 * The demo server's JSON-RPC vocabulary: the revisions it speaks, the 2026-07-28 `_meta` keys, its identity,
 * and the error a request is answered with. Written by hand (no dependency), so it runs from an installed copy.
 */

export const MODERN = '2026-07-28';
export const LEGACY = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];
export const META_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
export const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const SERVER_INFO = { name: 'autos-mcp-demo', version: '1.0.0' };

/** A JSON object as it came off the wire. */
export type Json = Record<string, unknown>;

/** `value` when it is a JSON object, else an empty one: the server reads untrusted messages field by field. */
export function object(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

/** A JSON-RPC error answer: its code, message and optional data. */
export class RpcFailure extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}
