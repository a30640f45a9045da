/**
 * Checks the user's extra HTTP headers: they may not replace a header the transport manages (the MCP
 * headers of S25/basic/transports and S26 streamable-http, content negotiation, framing, hop-by-hop)
 * and must be valid fields (RFC 9110 token names, no CR/LF). Messages name the header, never its value. Pure.
 */
import { McpError } from '../errors/index.js';
import { isPlainFieldValue, isToken } from './http-token.js';

/** Lowercase names the transport sets itself. `authorization` joins them when a token or OAuth is configured. */
const MANAGED = new Set([
  'mcp-session-id',
  'mcp-protocol-version',
  'mcp-method',
  'mcp-name',
  'last-event-id',
  'content-type',
  'accept',
  // framing and hop-by-hop: undici sets or refuses them; a user value would corrupt the exchange
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
]);

/**
 * Throws `McpError` kind `config` when a header would override a managed one (`Mcp-Session-Id`,
 * `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`, `Content-Type`, `Accept`, …, and
 * `Authorization` when `hasAuth`), when two names differ only in case, or when a name or value is invalid.
 */
export function checkUserHeaders(
  headers: Readonly<Record<string, string>>,
  options: { hasAuth: boolean },
): void {
  const seen = new Set<string>();
  for (const [name, value] of Object.entries(headers)) {
    if (!isToken(name)) {
      throw new McpError(
        'config',
        `header name ${JSON.stringify(name.slice(0, 64))} is not a valid HTTP field name`,
      );
    }
    const lower = name.toLowerCase();
    if (MANAGED.has(lower) || lower.startsWith('mcp-param-')) {
      throw new McpError('config', `header ${name} is managed by autos-mcp and cannot be set`);
    }
    if (lower === 'authorization' && options.hasAuth) {
      throw new McpError(
        'config',
        'header Authorization conflicts with the configured authToken/OAuth; set only one',
      );
    }
    if (seen.has(lower))
      throw new McpError('config', `header ${name} is given twice (names compare case-insensitively)`);
    seen.add(lower);
    if (typeof value !== 'string' || !isPlainFieldValue(value)) {
      throw new McpError('config', `header ${name} has a value with control or non-ASCII characters`);
    }
  }
}
