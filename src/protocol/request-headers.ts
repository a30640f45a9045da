/**
 * The per-message HTTP headers of each revision, computed from the JSON-RPC message: what the client
 * hands to `Connection.send()` as `options.headers`. Spec: S26/basic/transports/streamable-http
 * "Standard headers"; S25/basic/transports "Protocol Version Header". Pure.
 */
import { McpError } from '../errors/index.js';
import { encodeHeaderValue } from './header-value.js';
import { isToken } from './http-token.js';
import type { JsonRpcNotification, JsonRpcRequest } from './jsonrpc.js';
import { type HeaderParam, paramHeaders } from './tool-headers.js';
import { carriesVersionHeader } from './versions.js';

/**
 * 2026-07-28 headers for one POST: `MCP-Protocol-Version` (equal to `_meta` protocolVersion, else the
 * server answers -32020), `Mcp-Method`, `Mcp-Name` for `tools/call`/`prompts/get` (`params.name`) and
 * `resources/read` (`params.uri`), and for `tools/call` the `Mcp-Param-*` headers of `params`.
 * Throws `McpError` kind `config` when a value cannot be sent (see `paramHeaders`). `routeName` is the
 * `Mcp-Name` of a method the core does not name (an extension's: `tasks/get` carries the task id).
 */
export function modernRequestHeaders(
  message: JsonRpcRequest | JsonRpcNotification,
  protocolVersion: string,
  params?: readonly HeaderParam[],
  routeName?: string,
): Record<string, string> {
  // Mcp-Method may not use the Base64 form (only Mcp-Name and Mcp-Param-* may): refuse what is not a token-ish value.
  if (!/^[\x21-\x7e]+$/.test(message.method)) {
    throw new McpError(
      'config',
      `method ${JSON.stringify(message.method.slice(0, 100))} cannot be sent as an Mcp-Method header`,
    );
  }
  if (!isToken(protocolVersion)) throw new McpError('config', 'protocol version is not a header-safe token');
  const headers: Record<string, string> = {
    'MCP-Protocol-Version': protocolVersion,
    'Mcp-Method': message.method,
  };
  const body = message.params;
  const nameKey =
    message.method === 'resources/read' ? 'uri' : NAMED_METHODS.has(message.method) ? 'name' : null;
  if (nameKey !== null) {
    const name = body?.[nameKey];
    if (typeof name === 'string') headers['Mcp-Name'] = encodeHeaderValue(name);
  } else if (routeName !== undefined) headers['Mcp-Name'] = encodeHeaderValue(routeName);
  if (message.method === 'tools/call' && params !== undefined && params.length > 0) {
    Object.assign(headers, paramHeaders(params, body?.['arguments']));
  }
  return headers;
}

const NAMED_METHODS = new Set(['tools/call', 'prompts/get']);

/**
 * 2025-11-25 headers: `MCP-Protocol-Version` once negotiated (every request after `initialize`,
 * S25/basic/transports); nothing before, and nothing for a revision that predates the header (2025-03-26,
 * 2024-11-05). The session id is added by the transport.
 */
export function legacyRequestHeaders(protocolVersion?: string): Record<string, string> {
  if (protocolVersion === undefined || !carriesVersionHeader(protocolVersion)) return {};
  if (!isToken(protocolVersion)) throw new McpError('config', 'protocol version is not a header-safe token');
  return { 'MCP-Protocol-Version': protocolVersion };
}
