/**
 * Checks the user's extra HTTP headers: they may not replace a header the transport manages (the MCP
 * headers of S25/basic/transports and S26 streamable-http, content negotiation, framing, hop-by-hop)
 * and must be valid fields (RFC 9110 token names; values of printable ASCII, space and TAB, so no CR, LF,
 * NUL, other control or non-ASCII character). Messages name the header, never its value; an invalid name
 * is shown only up to its first invalid character. `checkAuthToken` does the same for `authToken`. Pure.
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
    if (typeof name !== 'string' || !isToken(name)) throw new McpError('config', badNameMessage(name));
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
    if (typeof value !== 'string') throw new McpError('config', `header ${name} must have a string value`);
    if (!isPlainFieldValue(value)) {
      throw new McpError('config', `header ${name} has a value that ${valueFault(value)}; it cannot be sent`);
    }
  }
}

/**
 * Throws `McpError` kind `config` when `token` cannot be sent as `Authorization: Bearer <token>`: empty,
 * or holding anything but printable ASCII without spaces (the bearer-token grammar is stricter still, but
 * opaque tokens often do not follow it, so only what breaks the header is refused). A trailing newline,
 * as a token read from a file has, is the usual culprit. The message says what is wrong, never the token.
 */
export function checkAuthToken(token: string): void {
  if (token === '')
    throw new McpError('config', 'invalid server config: authToken must be a non-empty string');
  for (let i = 0; i < token.length; i++) {
    const code = token.charCodeAt(i);
    if (code > 0x20 && code < 0x7f) continue;
    const atEnd = i === token.length - 1 || /^\s+$/.test(token.slice(i));
    const edge = atEnd ? 'at its end' : i === 0 ? 'at its start' : undefined;
    const blank = code === 0x0a || code === 0x0d || code === 0x20 || code === 0x09;
    const hint =
      edge !== undefined && blank ? ' (trim a token read from a file or an environment variable)' : '';
    throw new McpError(
      'config',
      `invalid server config: authToken holds ${describeChar(code)} ${edge ?? `at position ${i}`}${hint}; it is sent in the Authorization header as a Bearer token, so it must be printable ASCII without spaces`,
    );
  }
}

/** What is wrong with a header value (CR/LF, NUL, another control character, non-ASCII), never the value. */
function valueFault(value: string): string {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code !== 0x09 && (code < 0x20 || code > 0x7e)) return `holds ${describeChar(code)}`;
  }
  return 'is invalid';
}

function describeChar(code: number): string {
  if (code === 0x0a || code === 0x0d) return 'a line break (CR or LF)';
  if (code === 0) return 'a NUL byte';
  if (code === 0x20) return 'a space';
  if (code === 0x09) return 'a TAB';
  if (code < 0x20 || code === 0x7f) return 'a control character';
  return 'a non-ASCII character';
}

/**
 * The message for an invalid header name: at most its first 32 characters before the first one that is
 * not a token character, so the rest of a name such as `X-Api-Key: secret` is never shown.
 */
function badNameMessage(name: unknown): string {
  if (typeof name !== 'string' || name === '')
    return 'a header name is empty; header names are RFC 9110 tokens';
  const at = name.search(/[^!#$%&'*+\-.^_`|~0-9A-Za-z]/);
  const code = name.charCodeAt(at);
  const fault = code > 0x20 && code < 0x7f ? JSON.stringify(name[at]) : describeChar(code);
  if (at === 0) return `a header name starts with ${fault}; header names are RFC 9110 tokens`;
  const where =
    at > 32
      ? `starting ${JSON.stringify(name.slice(0, 32))}… holds`
      : `${JSON.stringify(name.slice(0, at))} is followed by`;
  return `the header name ${where} ${fault}; header names are RFC 9110 tokens`;
}
