/**
 * The one connection contract every transport implements (stdio, Streamable HTTP, later the worker port):
 * start receiving, send a message, close. The JSON-RPC engine above it knows nothing of pipes or sockets.
 */
import type { McpError } from '../errors/index.js';
import type { JsonRpcMessage } from '../protocol/jsonrpc.js';

/** What a connection reports upwards. Each callback must not throw; the engine guarantees that. */
export interface ConnectionEvents {
  /**
   * One parsed JSON value arrived from the server (not yet checked to be JSON-RPC: the engine does that).
   * Transports parse JSON; a line or body that is not JSON fails the connection with `kind: 'protocol'`.
   */
  message(value: unknown): void;
  /**
   * The connection ended by itself or through a fatal error (process exit, oversized or malformed
   * message, broken pipe). Called at most once, and never after `close()` was called.
   */
  closed(error: McpError): void;
  /** A line of diagnostics worth surfacing through the debug log (already redacted). Optional. */
  diagnostic?(text: string): void;
}

export interface SendOptions {
  /**
   * Aborting abandons the exchange where the transport can: HTTP closes the response stream (the 2026
   * way to cancel). stdio ignores it once the line is written; the engine sends `notifications/cancelled`.
   */
  signal?: AbortSignal;
  /** Per-message HTTP headers computed by the protocol layer (`Mcp-Method`, `MCP-Protocol-Version`, …). stdio ignores them. */
  headers?: Readonly<Record<string, string>>;
  /**
   * HTTP 2025-11-25 only: when the response stream breaks before the response arrived, resume it with
   * GET + `Last-Event-ID` (the same request, never sent again). False in 2026, where a break is final.
   */
  resumable?: boolean;
}

export interface CloseOptions {
  /** How long to wait after closing stdin before SIGTERM, and again before SIGKILL. Default 2000 ms. */
  graceMs?: number;
}

/** What `close()` found. */
export interface CloseReport {
  /** Processes of this connection still alive after close; 0 only when verified. Always 0 for HTTP. */
  activeProcesses: number;
  /** Exit code of the server process, when there was one and it exited normally. */
  exitCode: number | null;
  /** Signal that ended the server process, if any. */
  signal: string | null;
  /** How the process ended: by itself after stdin closed, or forced. */
  ended: 'exited' | 'sigterm' | 'sigkill' | 'not_started' | 'none';
  /** Bounded, redacted tail of the server's stderr ('' when not captured). */
  stderrTail: string;
  /** Late answers (to requests that had timed out or were cancelled) that were dropped. Filled in by the client. */
  lateResponsesDropped: number;
}

/**
 * A live link to one MCP server.
 *
 * `close()` is idempotent and safe to call concurrently: every caller gets the same report. After it
 * returns, no event is delivered any more.
 */
export interface Connection {
  readonly transport: 'stdio' | 'http';
  /** A display name for messages: the command's base name, or the URL's origin and path. Never a secret. */
  readonly target: string;
  /** The server's process id (stdio), for diagnostics. */
  readonly pid?: number | undefined;
  /** Starts the connection (spawns the process) and begins delivering events. */
  start(events: ConnectionEvents): Promise<void>;
  /**
   * Sends one message. stdio resolves once the line is handed to the pipe. HTTP resolves when the
   * exchange is over: a notification or response accepted (202), or a request's response delivered
   * through `events.message`. It rejects with an `McpError` whose `delivery` says whether it left.
   */
  send(message: JsonRpcMessage, options?: SendOptions): Promise<void>;
  /** HTTP 2025-11-25: open the GET stream for server-initiated messages. Absent elsewhere. */
  listen?(): void;
  close(options?: CloseOptions): Promise<CloseReport>;
}
