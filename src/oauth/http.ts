/**
 * Every request the OAuth flow makes (metadata, registration, token, device) goes through `OAuthHttp`:
 * HTTPS only, except on loopback; a server-named URL only to the public internet or the MCP server's own
 * kind of network (address-guard.ts), on the very addresses checked; redirects never followed; no cookies;
 * a deadline per request; and a bounded body, read in full before anyone parses it, so a hostile
 * authorization server cannot flood us. It is also the `customFetch` handed to oauth4webapi, so the
 * library's requests obey the same rules.
 */
import type { Dispatcher } from 'undici';
import { McpError } from '../errors/index.js';
import { loadUndici } from '../internal/undici.js';
import { addressKind } from '../protocol/address-policy.js';
import { AddressGuard, AddressRefused, type Resolve } from './address-guard.js';

/** Largest response body read from an authorization server (metadata, tokens, errors). */
export const MAX_OAUTH_BODY_BYTES = 256 * 1024;
/** Deadline of one OAuth request. */
export const OAUTH_REQUEST_TIMEOUT_MS = 30_000;

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/**
 * What is read of a response before it is buffered (`bounded`): undici's own `Response` (a proxy or CA
 * dispatcher, the pinned connector) and the global one are both this, though they are types of two undici
 * copies.
 */
type FetchedResponse = Pick<Response, 'status' | 'statusText' | 'headers' | 'body'>;

/** A fetch as the transport of one request: the caller's `FetchLike`, or undici's fetch on a dispatcher. */
type Send = (url: string, init: RequestInit) => Promise<FetchedResponse>;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** True when `url` may be used: `https:`, or `http:` on a loopback host. */
export function allowedUrl(url: URL): boolean {
  if (url.protocol === 'https:') return true;
  return (
    url.protocol === 'http:' && (LOOPBACK_HOSTS.has(url.hostname) || url.hostname.endsWith('.localhost'))
  );
}

/** origin + path, for messages: never the query (codes, tokens and states live there). */
export function shown(url: URL | string): string {
  try {
    const parsed = typeof url === 'string' ? new URL(url) : url;
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '(an invalid URL)';
  }
}

export interface OAuthHttpOptions {
  /** The MCP server's URL: the kind of network it is on is the one server-named URLs may reach too. */
  readonly server: URL;
  /** URLs the user configured (not named by a server): reached wherever they are. */
  readonly configured?: readonly string[] | undefined;
  /** The caller's dispatcher (a proxy, a CA): it makes the connections, so addresses are checked, not pinned. */
  readonly dispatcher?: Dispatcher | undefined;
  /** @internal A fetch of your own (tests): addresses checked, not pinned. */
  readonly fetch?: FetchLike | undefined;
  /** @internal The resolver (tests); default the system's. */
  readonly resolve?: Resolve | undefined;
}

export class OAuthHttp {
  readonly #guard: AddressGuard;
  readonly #configured: ReadonlySet<string>;
  /** Connects through the guard's `lookup`: the connection goes to the addresses it checked. */
  readonly #pinned: Send | undefined;
  /** For configured URLs, and for server-named ones after a check when the caller brought the transport. */
  readonly #plain: Send;

  constructor(options: OAuthHttpOptions) {
    this.#guard = new AddressGuard(options.server, options.resolve);
    this.#configured = new Set((options.configured ?? []).map((url) => new URL(url).href));
    this.#plain = options.fetch ?? (options.dispatcher ? undiciFetch(options.dispatcher) : globalThis.fetch);
    this.#pinned =
      options.fetch === undefined && options.dispatcher === undefined ? pinnedFetch(this.#guard) : undefined;
  }

  /** The oauth4webapi `customFetch`: same rules as `request`. */
  readonly customFetch = (url: string, init: RequestInit): Promise<Response> => this.request(url, init);

  /**
   * One request. Rejects with `McpError` (`config` for a forbidden URL or address, `transport` for a
   * network failure, `timeout`, `too_large`); HTTP error statuses resolve, for the caller to judge.
   */
  async request(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const target = typeof url === 'string' ? new URL(url) : url;
    if (!allowedUrl(target))
      throw new McpError(
        'config',
        `refusing ${shown(target)}: OAuth endpoints must use https (http only on loopback)`,
      );
    const deadline = AbortSignal.timeout(OAUTH_REQUEST_TIMEOUT_MS);
    const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    const configured = this.#configured.has(target.href);
    // Literal hosts are never looked up by a connector, so they are checked here; names are checked here
    // only when the connection is not ours to pin (the caller's dispatcher or fetch).
    if (!configured && (this.#pinned === undefined || addressKind(target.hostname) !== undefined))
      await this.#check(target, signal, deadline);
    let response: FetchedResponse;
    try {
      const send = configured ? this.#plain : (this.#pinned ?? this.#plain);
      response = await send(target.href, {
        ...init,
        redirect: 'manual',
        credentials: 'omit',
        signal,
      });
    } catch (cause) {
      const refused = refusal(cause);
      if (refused !== undefined) throw refusedError(target, refused);
      if (deadline.aborted)
        throw new McpError(
          'timeout',
          `${init.method ?? 'GET'} ${shown(target)} did not answer in ${OAUTH_REQUEST_TIMEOUT_MS / 1000} s`,
          { delivery: 'unknown', cause },
        );
      throw new McpError('transport', `${init.method ?? 'GET'} ${shown(target)} failed: ${describe(cause)}`, {
        delivery: 'unknown',
        cause,
      });
    }
    return bounded(response, target, signal);
  }

  /** Resolves and checks the host of `target` before the request; nothing is sent when this throws. */
  async #check(target: URL, signal: AbortSignal, deadline: AbortSignal): Promise<void> {
    try {
      await untilAborted(this.#guard.addresses(target.hostname), signal);
    } catch (cause) {
      if (cause instanceof AddressRefused) throw refusedError(target, cause);
      if (deadline.aborted)
        throw new McpError(
          'timeout',
          `resolving ${target.hostname} took over ${OAUTH_REQUEST_TIMEOUT_MS / 1000} s`,
          {
            cause,
          },
        );
      throw new McpError(
        'transport',
        `resolving ${target.hostname} for ${shown(target)} failed: ${describe(cause)}`,
        {
          cause,
        },
      );
    }
  }

  /** GETs a JSON document; `undefined` for a 4xx/5xx (the caller tries the next candidate). */
  async getJson(url: URL): Promise<{ status: number; json: Record<string, unknown> | undefined }> {
    const response = await this.request(url, { headers: { accept: 'application/json' } });
    if (response.status !== 200) return { status: response.status, json: undefined };
    let parsed: unknown;
    try {
      parsed = await response.json();
    } catch {
      throw new McpError('protocol', `${shown(url)} did not answer with JSON`, { delivery: 'delivered' });
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new McpError('protocol', `${shown(url)} did not answer with a JSON object`, {
        delivery: 'delivered',
      });
    return { status: 200, json: parsed as Record<string, unknown> };
  }
}

/** undici's own fetch on the caller's dispatcher (Node's global fetch may be another undici version). */
function undiciFetch(dispatcher: Dispatcher): Send {
  return async (url, init) => {
    const undici = loadUndici();
    const response = await undici.fetch(url, { ...(init as object), dispatcher } as Parameters<
      typeof undici.fetch
    >[1]);
    return response;
  };
}

/**
 * undici's fetch on an Agent of our own whose connector resolves through the guard: the address checked
 * is the address connected to (no DNS rebinding between the two). Made on first use; idle sockets do not
 * hold the process open.
 */
function pinnedFetch(guard: AddressGuard): Send {
  let dispatcher: Dispatcher | undefined;
  return (url, init) => {
    dispatcher ??= new (loadUndici().Agent)({ connect: { lookup: guard.lookup } });
    return undiciFetch(dispatcher)(url, init);
  };
}

function refusedError(target: URL, refused: AddressRefused): McpError {
  return new McpError(
    'config',
    `refusing ${shown(target)}: ${refused.message}; a server may name OAuth URLs on the public internet, or on the kind of network the MCP server is on (docs/oauth.md)`,
  );
}

/** The guard's refusal, carried as the cause of a failed fetch. */
function refusal(error: unknown): AddressRefused | undefined {
  for (let at = error, depth = 0; at !== undefined && at !== null && depth < 4; depth++) {
    if (at instanceof AddressRefused) return at;
    at = (at as { cause?: unknown }).cause;
  }
  return undefined;
}

/** `promise`, or a rejection once `signal` aborts (a resolver cannot be cancelled, only left behind). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const abort = (): void => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

function describe(cause: unknown): string {
  const inner = (cause as { cause?: { code?: unknown } })?.cause?.code;
  if (typeof inner === 'string') return inner;
  const own = (cause as { code?: unknown })?.code;
  if (typeof own === 'string') return own;
  return cause instanceof Error ? cause.name : 'network error';
}

/** Reads the body up to the bound and hands back an equivalent, fully buffered Response. */
async function bounded(response: FetchedResponse, url: URL, signal: AbortSignal): Promise<Response> {
  const headers = new Headers(response.headers);
  headers.delete('set-cookie');
  if (response.body === null || response.status === 204 || response.status === 304)
    return new Response(null, { status: response.status, headers });
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > MAX_OAUTH_BODY_BYTES) {
    await response.body.cancel().catch(() => {});
    throw tooLarge(url);
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_OAUTH_BODY_BYTES) {
        await reader.cancel().catch(() => {});
        throw tooLarge(url);
      }
      chunks.push(value);
    }
  } catch (cause) {
    if (cause instanceof McpError) throw cause;
    const what = signal.aborted ? 'timeout' : 'transport';
    throw new McpError(what, `reading the answer of ${shown(url)} failed`, { delivery: 'unknown', cause });
  }
  const body = Buffer.concat(chunks);
  // A redirect status keeps its Location header for the caller; Response() accepts 200-599 only.
  const status = response.status < 200 ? 502 : response.status;
  return new Response(body, { status, statusText: response.statusText, headers });
}

function tooLarge(url: URL): McpError {
  return new McpError('too_large', `the answer of ${shown(url)} is over ${MAX_OAUTH_BODY_BYTES / 1024} KiB`, {
    delivery: 'delivered',
  });
}
