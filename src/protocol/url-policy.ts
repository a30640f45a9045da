/**
 * Which MCP endpoint URLs we accept: https anywhere, plain http only on loopback, never credentials in
 * the URL. S25/basic/authorization and S26 security-considerations require HTTPS for remote servers.
 * Error messages name the origin only: a URL may carry secrets in its userinfo or query. Pure.
 */
import { McpError } from '../errors/index.js';

/**
 * Parses and checks an endpoint URL. Throws `McpError` kind `config` for an unparsable URL, a scheme
 * other than http(s), user:password in the URL, or plain http to a host that is not loopback
 * (127.0.0.0/8, ::1, `localhost`, `*.localhost`).
 */
export function checkEndpointUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch (cause) {
    throw new McpError('config', 'the endpoint is not a valid absolute URL', { cause });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new McpError(
      'config',
      `the endpoint must use https (or http on loopback), not ${url.protocol.slice(0, 20)}`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new McpError(
      'config',
      `the endpoint URL for ${url.host} contains credentials (user:password@); pass a token as authToken or a header instead`,
    );
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new McpError('config', `plain http is only allowed on loopback; use https for ${url.origin}`);
  }
  return url;
}

/** True for `localhost`, `*.localhost` (RFC 6761 §6.3), 127.0.0.0/8 and `[::1]` as `URL.hostname` spells them. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '[::1]') return true;
  // WHATWG URL normalizes IPv4 (incl. `0x7f.1`, `2130706433`) to dotted decimal, so a prefix test is exact.
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
