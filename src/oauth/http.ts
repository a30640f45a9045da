/**
 * Every request the OAuth flow makes (metadata, registration, token, device) goes through `OAuthHttp`:
 * HTTPS only, except on loopback; redirects never followed; no cookies; a deadline per request; and a
 * bounded body, read in full before anyone parses it, so a hostile authorization server cannot flood us.
 * It is also the `customFetch` handed to oauth4webapi, so the library's requests obey the same rules.
 */
import type { Dispatcher } from 'undici';
import { McpError } from '../errors/index.js';

/** Largest response body read from an authorization server (metadata, tokens, errors). */
export const MAX_OAUTH_BODY_BYTES = 256 * 1024;
/** Deadline of one OAuth request. */
export const OAUTH_REQUEST_TIMEOUT_MS = 30_000;

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

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

export class OAuthHttp {
  readonly #fetch: FetchLike;

  constructor(options: { fetch?: FetchLike | undefined; dispatcher?: Dispatcher | undefined } = {}) {
    this.#fetch = options.fetch ?? (options.dispatcher ? undiciFetch(options.dispatcher) : globalThis.fetch);
  }

  /** The oauth4webapi `customFetch`: same rules as `request`. */
  readonly customFetch = (url: string, init: RequestInit): Promise<Response> => this.request(url, init);

  /**
   * One request. Rejects with `McpError` (`config` for a forbidden URL, `transport` for a network
   * failure, `timeout`, `too_large`); HTTP error statuses resolve, for the caller to judge.
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
    let response: Response;
    try {
      response = await this.#fetch(target.href, {
        ...init,
        redirect: 'manual',
        credentials: 'omit',
        signal,
      });
    } catch (cause) {
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
function undiciFetch(dispatcher: Dispatcher): FetchLike {
  return async (url, init) => {
    const undici = await import('undici');
    const response = await undici.fetch(url, { ...(init as object), dispatcher } as Parameters<
      typeof undici.fetch
    >[1]);
    return response as unknown as Response;
  };
}

function describe(cause: unknown): string {
  const inner = (cause as { cause?: { code?: unknown } })?.cause?.code;
  if (typeof inner === 'string') return inner;
  return cause instanceof Error ? cause.name : 'network error';
}

/** Reads the body up to the bound and hands back an equivalent, fully buffered Response. */
async function bounded(response: Response, url: URL, signal: AbortSignal): Promise<Response> {
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
