/**
 * Builds the undici dispatcher of one HTTP connection: a keep-alive `Pool` for the endpoint's origin,
 * or a `ProxyAgent` / `EnvHttpProxyAgent` when a proxy is configured. TLS uses the system CAs (undici's
 * default); `ca` adds to them, never replaces them. No redirects and no cookie jar: undici has neither.
 */
import { rootCertificates } from 'node:tls';
import { type Dispatcher, EnvHttpProxyAgent, Pool, ProxyAgent } from 'undici';
import type { HttpTransportOptions } from '../options.js';

/**
 * The engine bounds every exchange with its own timeout (through the send signal), and the GET stream may
 * legitimately idle for a long time, so undici's own 300 s header/body timeouts are turned off here.
 */
const TIMEOUTS = { headersTimeout: 0, bodyTimeout: 0 } as const;

/**
 * Sockets per origin. undici's default (`connections: null`) is unlimited: a server that had the client
 * answer 1500 of its requests at once got 1500 sockets. With the cap, requests past it wait in undici's
 * queue for a free socket (each still bounded by its call's timeout). 16 leaves room for the GET stream,
 * long SSE answers and the POSTs that answer server requests made on them; it applies to the proxy
 * agents' per-origin pools too. A caller's own `dispatcher` sets its own limits.
 */
export const MAX_CONNECTIONS_PER_ORIGIN = 16;
const LIMITS = { ...TIMEOUTS, connections: MAX_CONNECTIONS_PER_ORIGIN } as const;

/** Creates the dispatcher; the connection owns it and destroys it in `close()`. */
export function createDispatcher(options: HttpTransportOptions): Dispatcher {
  const tls =
    options.ca !== undefined && options.ca.length > 0
      ? { ca: [...rootCertificates, ...options.ca] }
      : undefined;
  if (options.proxy !== undefined) {
    return new ProxyAgent({
      uri: options.proxy,
      ...LIMITS,
      ...(tls === undefined ? {} : { requestTls: tls, proxyTls: tls }),
    });
  }
  if (options.useEnvProxy === true) {
    // Opt-in only: HTTPS_PROXY/NO_PROXY set for other tools would silently route a loopback test server or an
    // intranet endpoint through a proxy, which surprises more often than it helps.
    return new EnvHttpProxyAgent({
      ...LIMITS,
      ...(tls === undefined ? {} : { connect: tls, requestTls: tls, proxyTls: tls }),
    });
  }
  return new Pool(options.url.origin, { ...LIMITS, ...(tls === undefined ? {} : { connect: tls }) });
}
