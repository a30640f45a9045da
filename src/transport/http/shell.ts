/**
 * The state one HTTP connection shares with its exchanges and its GET stream, and the one function that
 * puts a request on the wire. Header order: content negotiation, user headers, Authorization, the
 * per-message headers, then the session id (S25/basic/transports, S26/basic/transports/streamable-http).
 */
import type { Dispatcher } from 'undici';
import { SESSION_HEADER } from './session.js';

export interface HttpShell {
  readonly dispatcher: Dispatcher;
  readonly url: URL;
  /** origin + path, for messages: never the query, which may carry secrets. */
  readonly target: string;
  readonly maxMessageBytes: number;
  /** User headers plus `Authorization`, as configured. */
  readonly fixedHeaders: Readonly<Record<string, string>>;
  /** 2025-11-25 session id, captured from the `initialize` response. */
  sessionId: string | undefined;
  /** The last `MCP-Protocol-Version` the engine sent, reused on GET and DELETE. */
  protocolVersion: string | undefined;
  /** Hands a parsed message to the engine (dropped once the connection is closing). */
  deliver(value: unknown): void;
  /**
   * True when `NODE_DEBUG` enables our debuglog: callers build a log line only then, since a template
   * string per request is measurable on the hot path (~1 % of a loopback call).
   */
  readonly logging: boolean;
  /** Redacted debug line (method, status, duration; never header values or bodies). */
  log(text: string): void;
}

/**
 * Builds the header set of one request. Names are lowercased so a later layer replaces an earlier one
 * case-insensitively; the session id is added unless `withSession` is false (a new `initialize`).
 */
export function buildHeaders(
  shell: HttpShell,
  accept: string,
  perMessage: Readonly<Record<string, string>> | undefined,
  withSession: boolean,
  contentType: boolean,
): Record<string, string> {
  const headers: Record<string, string> = {};
  if (contentType) headers['content-type'] = 'application/json';
  headers['accept'] = accept;
  for (const [name, value] of Object.entries(shell.fixedHeaders)) headers[name.toLowerCase()] = value;
  for (const [name, value] of Object.entries(perMessage ?? {})) headers[name.toLowerCase()] = value;
  if (withSession && shell.sessionId !== undefined) headers[SESSION_HEADER] = shell.sessionId;
  return headers;
}

/** Sends one request on the shell's dispatcher. Never follows redirects (undici does not by default). */
export function issue(
  shell: HttpShell,
  method: 'POST' | 'GET' | 'DELETE',
  headers: Record<string, string>,
  body: string | null,
  signal: AbortSignal,
): Promise<Dispatcher.ResponseData> {
  return shell.dispatcher.request({
    origin: shell.url.origin,
    path: `${shell.url.pathname}${shell.url.search}`,
    method,
    headers,
    body,
    signal,
  });
}
