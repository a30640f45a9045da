/**
 * The state one HTTP connection shares with its exchanges and its GET stream, and the one function that
 * puts a request on the wire: headers from the `HeaderBuilder`, then the request, and on a 401 or 403 the
 * authorizer is told and may have the request sent once more (S25/basic/authorization).
 */

import { Readable } from 'node:stream';
import { httpFailed, httpRequestStarted, httpResponded } from '../../diagnostics/publish.js';
import type { AuthChallenge } from '../../errors/index.js';
import { McpError } from '../../errors/index.js';
import { parseWwwAuthenticate } from '../../protocol/www-authenticate.js';
import type { Authorizer } from '../authorizer.js';
import { ERROR_BODY_LIMIT, readBounded } from './body.js';
import type { HeaderBuilder, HeaderSpec } from './headers.js';
import type { PoolResponse, RequestPool } from './pool.js';

export interface HttpShell {
  readonly pool: RequestPool;
  readonly url: URL;
  /** origin + path, for messages: never the query, which may carry secrets. */
  readonly target: string;
  readonly maxMessageBytes: number;
  readonly headers: HeaderBuilder;
  readonly authorizer: Authorizer | undefined;
  /** The connection's id in diagnostics events. */
  readonly connectionId: string;
  /** Hands a parsed message to the client (dropped once the connection is closing). */
  deliver(value: unknown): void;
  /**
   * True when the debug log is on: callers build a note only then, since a template string per request
   * is measurable on the hot path (~1 % of a loopback call).
   */
  readonly logging: boolean;
  /** A redacted note for the debug log (never header values or bodies). */
  log(text: string): void;
}

/** A response, and whether the session id went with the request that got it. */
export interface Issued {
  readonly response: PoolResponse;
  readonly sessionSent: boolean;
}

/**
 * Sends one request on the shell's pool. Never follows redirects (neither pool does).
 * Rejects with an `McpError` (`not_sent`) when the authorizer fails; network errors reject as the pool's own.
 * Each request on the wire is an `http:request` event, then `http:response` or `http:error`; `rpcMethod`
 * is the JSON-RPC method a POST carries.
 */
export async function issue(
  shell: HttpShell,
  spec: HeaderSpec,
  body: string | null,
  signal: AbortSignal,
  rpcMethod?: string,
): Promise<Issued> {
  for (let attempt = 0; ; attempt++) {
    const built = await authorized(shell, spec);
    const trace = httpRequestStarted(shell.connectionId, shell.target, spec.method, rpcMethod);
    let response: PoolResponse;
    try {
      response = await shell.pool.request({
        origin: shell.url.origin,
        path: `${shell.url.pathname}${shell.url.search}`,
        method: spec.method,
        headers: built.headers,
        body,
        signal,
      });
    } catch (error) {
      if (trace !== undefined) httpFailed(trace, error, signal.aborted);
      throw error;
    }
    const status = response.statusCode;
    if (trace !== undefined) httpResponded(trace, status);
    if ((status !== 401 && status !== 403) || shell.authorizer?.refused === undefined || attempt > 0) {
      return { response, sessionSent: built.sessionSent };
    }
    // The body is read before the authorizer runs, so the socket goes back to the pool now: an OAuth login
    // can outlast the server's keep-alive, and a socket held meanwhile looks fresh when it comes back.
    const words = await readBounded(response.body, ERROR_BODY_LIMIT).catch(() => null);
    const again = await tellRefused(shell, spec, status, response, built.authorization);
    if (!again) {
      const body = Readable.from(words === null ? [] : [words]);
      return { response: { ...response, body }, sessionSent: built.sessionSent };
    }
    if (shell.logging) shell.log(`${spec.method} -> ${status}, sending once more with a new authorization`);
  }
}

async function authorized(shell: HttpShell, spec: HeaderSpec) {
  try {
    const built = shell.headers.build(spec);
    return built instanceof Promise ? await built : built;
  } catch (cause) {
    if (cause instanceof McpError) throw cause;
    throw new McpError('auth_required', `${spec.method} to ${shell.target}: the authorizer failed`, {
      delivery: 'not_sent',
      cause,
    });
  }
}

async function tellRefused(
  shell: HttpShell,
  spec: HeaderSpec,
  status: 401 | 403,
  response: PoolResponse,
  authorization: string | undefined,
): Promise<boolean> {
  const challenges: AuthChallenge[] = parseWwwAuthenticate(response.headers['www-authenticate']);
  const challenge = challenges.find((c) => /^(bearer|dpop)$/i.test(c.scheme)) ?? challenges[0];
  try {
    const verdict = await shell.authorizer?.refused?.({
      status,
      url: shell.url,
      method: spec.method,
      challenges,
      challenge,
      authorization,
      dpopNonce: headerText(response.headers['dpop-nonce']),
    });
    return verdict === true;
  } catch (cause) {
    if (cause instanceof McpError) throw cause;
    throw new McpError('auth_required', `${spec.method} to ${shell.target}: the authorizer failed`, {
      delivery: 'delivered',
      status,
      cause,
    });
  }
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
