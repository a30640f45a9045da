/**
 * The names of the `node:diagnostics_channel` channels autos-mcp publishes on, and the payload of each.
 * Payloads are plain objects of the fields below and nothing else: never arguments, results, header
 * values, tokens, environment values, a URL's query or userinfo, or stderr text. See docs/diagnostics.md.
 */
import type { Delivery, ErrorKind } from '../errors/index.js';

/**
 * Every channel by name, so subscribers need no string literals:
 * `diagnostics_channel.subscribe(diagnosticsChannels.requestEnd, onEnd)`.
 */
export const diagnosticsChannels = Object.freeze({
  /** A connection starts (before the spawn or the first HTTP request). Payload: `ConnectionEvent`. */
  connectionOpen: 'autos-mcp:connection:open',
  /** The handshake is over and the client is usable. Payload: `ConnectionReadyEvent`. */
  connectionReady: 'autos-mcp:connection:ready',
  /** Connecting failed, or a ready connection ended by itself (server exit, fatal message). `ConnectionErrorEvent`. */
  connectionError: 'autos-mcp:connection:error',
  /** `close()` finished (also after a failed connect): everything started is cleaned up. `ConnectionCloseEvent`. */
  connectionClose: 'autos-mcp:connection:close',
  /** A JSON-RPC request is about to be sent (handshake requests included). Payload: `RequestStartEvent`. */
  requestStart: 'autos-mcp:request:start',
  /** A request got its result (a tool's `isError: true` included). Payload: `RequestEndEvent`. */
  requestEnd: 'autos-mcp:request:end',
  /** A request failed: an error answer, a timeout, a cancel, the connection lost. `RequestErrorEvent`. */
  requestError: 'autos-mcp:request:error',
  /** A stdio server process is running. Payload: `StdioSpawnEvent`. */
  stdioSpawn: 'autos-mcp:stdio:spawn',
  /** A stdio server process exited. Payload: `StdioExitEvent`. */
  stdioExit: 'autos-mcp:stdio:exit',
  /** One HTTP request is about to go on the wire (a retry after 401/403 is another one). `HttpRequestEvent`. */
  httpRequest: 'autos-mcp:http:request',
  /** Its response head arrived. Payload: `HttpResponseEvent`. */
  httpResponse: 'autos-mcp:http:response',
  /** It got no response (refused, reset, aborted, DNS). Payload: `HttpErrorEvent`. */
  httpError: 'autos-mcp:http:error',
} as const);

/** The name of one autos-mcp diagnostics channel. */
export type DiagnosticsChannelName = (typeof diagnosticsChannels)[keyof typeof diagnosticsChannels];

/** What every connection-scoped event carries: join events of one connection by `connectionId`. */
export interface ConnectionEvent {
  /** Opaque, unique within the process for its lifetime; the same on every event of one connection. */
  connectionId: string;
  /** The server as errors name it: the program and script (`node server.mjs`), or the URL's origin and path. */
  target: string;
  /** The connection's kind: `'stdio'`, `'http'`, `'memory'`, or what a connection of your own calls itself. */
  transport: string;
}

/** An error, summarized: the fields of `McpError` that say what happened, without its data or cause. */
export interface DiagnosticsError {
  kind: ErrorKind;
  delivery: Delivery;
  /** The error's one-sentence message: free of secrets like every error message, but it may quote server text. */
  message: string;
  /** JSON-RPC error code (`kind: 'rpc'`, or an HTTP body's JSON-RPC error). */
  code?: number;
  /** HTTP status, when one was received. */
  status?: number;
}

export interface ConnectionReadyEvent extends ConnectionEvent {
  /** The protocol revision in use. */
  protocolVersion: string;
  /** Milliseconds from `connection:open` to ready. */
  durationMs: number;
  /** The server's self-reported name and version (server text, at most 200 characters each). */
  serverName?: string;
  serverVersion?: string;
}

export interface ConnectionErrorEvent extends ConnectionEvent {
  /** `'connect'`: `connect()` rejects with this error; `'ready'`: a ready connection ended by itself. */
  phase: 'connect' | 'ready';
  /** Milliseconds since `connection:open`. */
  durationMs: number;
  error: DiagnosticsError;
}

export interface ConnectionCloseEvent extends ConnectionEvent {
  /** Milliseconds since `connection:open`. */
  durationMs: number;
  /** Late answers to requests that had timed out or were cancelled, dropped. */
  lateResponsesDropped: number;
  /** For a local server process: how it ended (the `ProcessReport` of `close()`, without the stderr tail). */
  process?: {
    pid: number | undefined;
    exitCode: number | null;
    signal: string | null;
    ended: 'exited' | 'sigterm' | 'sigkill' | 'not_started' | 'none';
    activeProcesses: number;
  };
}

/**
 * A request's start. The same object is then published on `request:end` or `request:error`, with the
 * fields of those events added: a subscriber may keep per-request state in a `WeakMap` keyed by it.
 */
export interface RequestStartEvent extends ConnectionEvent {
  /** The JSON-RPC id; unique within the connection. */
  requestId: number;
  /** The JSON-RPC method (`tools/call`, `initialize`, …). */
  method: string;
  /** For `tools/call`: the tool's name (at most 200 characters). */
  tool?: string;
}

export interface RequestEndEvent extends RequestStartEvent {
  /** Milliseconds from send to answer. */
  durationMs: number;
  /** For `tools/call`: the tool reported a failure (`isError: true`), which is a result, not an error. */
  isError?: boolean;
}

export interface RequestErrorEvent extends RequestStartEvent {
  /** Milliseconds from send to failure (0 when it was refused before it left). */
  durationMs: number;
  /** `delivery` says whether it may have run: `'unknown'` after a timeout or a lost connection. */
  error: DiagnosticsError;
}

export interface StdioSpawnEvent extends ConnectionEvent {
  pid: number;
}

export interface StdioExitEvent extends ConnectionEvent {
  pid: number;
  exitCode: number | null;
  signal: string | null;
  /** Milliseconds the process ran. */
  durationMs: number;
  /** It exited before it sent any message (during startup). */
  startup: boolean;
  /** It exited after the client began closing the connection (an expected exit). */
  closing: boolean;
}

/**
 * One HTTP request. The same object is then published on `http:response` or `http:error` with their
 * fields added. Never header values, bodies, or the URL's query (the `target` is origin and path).
 */
export interface HttpRequestEvent extends ConnectionEvent {
  /** `'POST'` (a message), `'GET'` (the server stream or a resumption), `'DELETE'` (ending the session). */
  method: string;
  /** For a POST, the JSON-RPC method of the message it carries (absent for a response to the server). */
  rpcMethod?: string;
}

export interface HttpResponseEvent extends HttpRequestEvent {
  status: number;
  /** Milliseconds from the request to the response head. */
  durationMs: number;
}

export interface HttpErrorEvent extends HttpRequestEvent {
  durationMs: number;
  /** The network error's code (`ECONNREFUSED`, `UND_ERR_SOCKET`, `ABORT_ERR`, …), when it had one. */
  errorCode?: string;
  /** The request was aborted (a cancel, a timeout, or `close()`). */
  aborted: boolean;
}
