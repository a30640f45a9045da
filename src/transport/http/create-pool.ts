/**
 * Builds the request pool of one HTTP connection. The default path (no proxy, no `ca`, no dispatcher of
 * the caller's) is `NodePool`, on node:http / node:https with a keep-alive Agent: it needs no undici, so a
 * fresh process neither loads undici nor compiles its llhttp WebAssembly (see node-pool.ts). A proxy
 * (`ProxyAgent` / `EnvHttpProxyAgent`) or a custom CA uses an undici pool, loaded then. TLS uses the system
 * CAs either way; `ca` adds to them, never replaces them. No redirects and no cookie jar on either path.
 */
import { createRequire } from 'node:module';
import { loadUndici } from '../../internal/undici.js';
import type { HttpTransportOptions } from '../options.js';
import { NodePool } from './node-pool.js';
import type { RequestPool } from './pool.js';

/**
 * The engine bounds every exchange with its own timeout (through the send signal), and the GET stream may
 * legitimately idle for a long time, so undici's own 300 s header/body timeouts are turned off here.
 */
const TIMEOUTS = { headersTimeout: 0, bodyTimeout: 0 } as const;

/**
 * Sockets per origin. undici's default (`connections: null`) is unlimited: a server that had the client
 * answer 1500 of its requests at once got 1500 sockets. With the cap, requests past it wait in the pool's
 * queue for a free socket (each still bounded by its call's timeout). 16 leaves room for the GET stream,
 * long SSE answers and the POSTs that answer server requests made on them; it applies to the node:http
 * Agent and to the proxy agents' per-origin pools too. A caller's own `dispatcher` sets its own limits.
 */
export const MAX_CONNECTIONS_PER_ORIGIN = 16;
const LIMITS = { ...TIMEOUTS, connections: MAX_CONNECTIONS_PER_ORIGIN } as const;

/** node:tls, loaded on first use only: the default path needs it only for the system CAs beside `ca`. */
const load = createRequire(import.meta.url);

/** Whether `options` need undici (a proxy or a custom CA); otherwise the node:http pool serves them. */
export function needsUndici(options: HttpTransportOptions): boolean {
  return (
    options.proxy !== undefined ||
    options.useEnvProxy === true ||
    (options.ca !== undefined && options.ca.length > 0)
  );
}

/** Creates the pool; the connection owns it and destroys it in `close()`. */
export function createPool(options: HttpTransportOptions): RequestPool {
  if (!needsUndici(options)) return new NodePool(options.url, MAX_CONNECTIONS_PER_ORIGIN);
  const { EnvHttpProxyAgent, Pool, ProxyAgent } = loadUndici();
  const tls =
    options.ca !== undefined && options.ca.length > 0
      ? { ca: [...(load('node:tls') as typeof import('node:tls')).rootCertificates, ...options.ca] }
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
