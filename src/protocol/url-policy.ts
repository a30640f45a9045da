/**
 * Which MCP endpoint URLs we accept: https anywhere, plain http only on loopback, never credentials in
 * the URL. S25/basic/authorization and S26 security-considerations require HTTPS for remote servers.
 * Error messages name the origin only: a URL may carry secrets in its userinfo or query. Pure.
 */
import { McpError } from '../errors/index.js';

/** C0 controls and DEL. The URL parser drops TAB/CR/LF silently; here they are a mistake, refused. */
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Parses and checks an endpoint URL. Throws `McpError` kind `config` for an unparsable URL, a scheme
 * other than http(s), user:password in the URL, or plain http to a host that is not loopback
 * (127.0.0.0/8, ::1, `localhost`, `*.localhost`).
 */
export function checkEndpointUrl(raw: string): URL {
  if (CONTROL.test(raw)) {
    throw new McpError(
      'config',
      'the endpoint URL contains a control character (such as CR, LF, TAB or NUL)',
    );
  }
  // No cause: the parser's TypeError carries the whole input (userinfo, query) in its `input` field.
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (url === undefined) throw new McpError('config', 'the endpoint is not a valid absolute URL');
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

/**
 * Parses and checks a proxy URL (`proxy` in the config). Throws `McpError` kind `config` for an
 * unparsable URL, a scheme other than http(s), no host, or a control character. `user:password@` is
 * allowed (it authenticates to the proxy). Messages name at most the proxy's scheme, never its
 * userinfo, path or query, and carry no cause (the parser's error holds the whole input).
 */
export function checkProxyUrl(raw: string): URL {
  if (CONTROL.test(raw)) {
    throw new McpError('config', 'the proxy URL contains a control character (such as CR, LF, TAB or NUL)');
  }
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (url === undefined) {
    throw new McpError(
      'config',
      'the proxy is not a valid absolute URL (want http://host:port or https://host:port)',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    const scheme = /^[a-z][a-z0-9+.-]{0,19}:$/.test(url.protocol) ? url.protocol : 'another scheme';
    throw new McpError('config', `the proxy must be an http: or https: URL, not ${scheme}`);
  }
  if (url.hostname === '') throw new McpError('config', 'the proxy URL has no host');
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
