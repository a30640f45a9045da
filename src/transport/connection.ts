/**
 * The one connection contract every transport implements (stdio, Streamable HTTP, the in-memory pair, a
 * worker port): start receiving, send a message, hear what was negotiated, close gracefully or destroy at
 * once (undici's two verbs: `close()` drains, `destroy()` is immediate). The client above it
 * never asks which transport it has; it reads the connection's `traits` instead. See docs/extending.md.
 */
import type { McpError } from '../errors/index.js';
import type { JsonRpcMessage } from '../protocol/jsonrpc.js';

/**
 * What a transport can do, read by the client instead of the transport's name. Constant for the life of
 * a connection.
 */
export interface ConnectionTraits {
  /**
   * The transport carries per-message headers (Streamable HTTP): the client computes `MCP-Protocol-Version`,
   * `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*` for each message, and the `x-mcp-header` rules of tools apply
   * (S26/server/tools). False: `SendOptions.headers` is never given.
   */
  readonly perMessageHeaders: boolean;
  /**
   * How an abandoned 2026-07-28 request is cancelled on this transport: `'notification'` sends
   * `notifications/cancelled` (stdio), `'abort'` aborts the send signal, which ends the request's own
   * exchange (HTTP: S26/basic/patterns/cancellation). In 2025-11-25 every transport gets the notification
   * (S25/basic/utilities/cancellation); an `'abort'` transport also has its exchange aborted.
   */
  readonly cancelBy: 'notification' | 'abort';
  /**
   * A 2025-11-25 response stream that breaks can be resumed without sending the request again (SSE with
   * `Last-Event-ID`, S25/basic/transports). The client then passes `SendOptions.resumable`.
   */
  readonly resumable: boolean;
  /**
   * Server-initiated requests that belong to no call arrive on a stream the client must ask for (the
   * 2025-11-25 GET stream of Streamable HTTP). The client asks through `negotiated()`.
   */
  readonly serverStream: boolean;
  /**
   * Every request gets a transport-level answer (an HTTP status) even from a server that does not
   * understand it. False where a server may stay silent (stdio): the `auto` probe then waits less.
   */
  readonly answersEveryRequest: boolean;
}

/** What a connection reports upwards. Each callback must not throw; the client guarantees that. */
export interface ConnectionEvents {
  /**
   * One parsed JSON value arrived from the server (not yet checked to be JSON-RPC: the client does that).
   * Transports parse JSON; a line or body that is not JSON fails the connection with `kind: 'protocol'`.
   */
  message(value: unknown): void;
  /**
   * The connection ended by itself or through a fatal error (process exit, oversized or malformed
   * message, broken pipe). Called at most once, and never after `close()` or `destroy()` was called.
   */
  closed(error: McpError): void;
  /** A line of diagnostics worth surfacing through the debug log (already redacted). Optional. */
  diagnostic?(text: string): void;
}

/** Per-message choices of the client. A transport ignores what its traits say it does not do. */
export interface SendOptions {
  /**
   * Aborting gives the message up. Before any byte left, `send()` rejects with `delivery: 'not_sent'`;
   * after, an `'abort'` transport ends the exchange (rejecting with `'unknown'`) and a `'notification'`
   * transport ignores it (a written line cannot be taken back).
   */
  signal?: AbortSignal;
  /** Per-message headers computed by the client (only when `traits.perMessageHeaders`). */
  headers?: Readonly<Record<string, string>>;
  /** 2025-11-25 only, when `traits.resumable`: resume a broken response stream instead of failing. */
  resumable?: boolean;
}

/** What the client agreed with the server, told to the connection once the handshake is over. */
export interface NegotiatedTerms {
  /** The protocol version in use, for messages that carry no per-message headers (HTTP GET, DELETE). */
  readonly protocolVersion: string;
  /** Open the server stream (only when `traits.serverStream`): the client can answer server requests. */
  readonly openServerStream: boolean;
}

/** What a connection's `close()` found about the local server process, when it ran one (stdio). */
export interface ProcessReport {
  /** The server's process id, when it was started. */
  pid: number | undefined;
  /** Processes of this server still alive after close; 0 only when verified. */
  activeProcesses: number;
  /** Exit code of the server process, when it exited normally. */
  exitCode: number | null;
  /** Signal that ended the server process, if any. */
  signal: string | null;
  /** How the process ended: by itself after stdin closed, forced, never started, or already gone unseen. */
  ended: 'exited' | 'sigterm' | 'sigkill' | 'not_started' | 'none';
  /** Bounded, redacted tail of the server's stderr ('' when not captured). */
  stderrTail: string;
  /** stdout lines that were not MCP messages and were skipped (absent when there were none). */
  skippedStdout?: SkippedStdout;
}

/** What a stdio server wrote to stdout besides MCP messages. */
export interface SkippedStdout {
  /** Lines skipped in all. */
  lines: number;
  /** Bytes of those lines in all. */
  bytes: number;
  /** The last few, each cut to ~80 characters, redacted, control characters removed, quoted. */
  last: string[];
}

/** What a connection's `close()` found. Transport-specific parts are present only where they apply. */
export interface ConnectionCloseReport {
  /** Present when the connection ran a local server process (stdio). */
  process?: ProcessReport;
}

/** A local process behind a connection (stdio), for diagnostics. */
export interface ConnectionProcess {
  readonly pid: number | undefined;
}

/** A transport's display label: the built-in ones, or whatever a connection of your own calls itself. */
export type TransportKind = 'stdio' | 'http' | 'memory' | (string & {});

/**
 * A live link to one MCP server.
 *
 * `send()` means the same on every transport: it resolves once the message is handed over — written to
 * the pipe (stdio), or for HTTP once its exchange is over (a notification or response accepted, or a
 * request's response delivered through `events.message`). It rejects with an `McpError` whose `delivery`
 * is honest: `'not_sent'` only when no byte of the message left (closed, refused connection, aborted
 * first). Messages are sent in call order.
 *
 * `close()` is idempotent and safe to call concurrently: every caller gets the same report. After it is
 * called, no event is delivered any more and `send()` rejects with `'not_sent'`.
 *
 * `destroy()` ends the connection now: no close handshake, no waiting. It returns at once, is idempotent,
 * and may be called at any time — before `start()`, while a `close()` runs (which it cuts short: that
 * close still resolves, with what it found), or after. Afterwards it is as closed: nothing is delivered,
 * `send()` rejects with `'not_sent'`, and `close()` resolves with the report of what was ended.
 */
export interface Connection {
  /** A label for display (`'stdio'`, `'http'`, `'memory'`, …). Never branched on: read `traits`. */
  readonly kind: TransportKind;
  readonly traits: ConnectionTraits;
  /** A display name for messages: the command's base name, or the URL's origin and path. Never a secret. */
  readonly target: string;
  /** The local server process, when the connection runs one (stdio). */
  readonly process?: ConnectionProcess | undefined;
  /** Starts the connection (spawns the process) and begins delivering events. */
  start(events: ConnectionEvents): Promise<void>;
  send(message: JsonRpcMessage, options?: SendOptions): Promise<void>;
  /** The handshake is over; called once, before any call of the user's. */
  negotiated(terms: NegotiatedTerms): void;
  /**
   * Opens the server stream after the handshake when `negotiated()` did not (only when `traits.serverStream`):
   * a 2025-11-25 client that later wants the server's notifications (a tool change listener). Idempotent;
   * optional for a transport without such a stream.
   */
  listen?(): void;
  /**
   * One sentence on what the connection tolerated that may explain a failure (e.g. stdout lines skipped),
   * added to the messages of calls that time out or fail with the connection; undefined when there is none.
   */
  note?(): string | undefined;
  /** Ends the connection gracefully (stdio: the spec's shutdown sequence; HTTP: the session DELETE). */
  close(): Promise<ConnectionCloseReport>;
  /**
   * Ends the connection immediately: stdio SIGKILLs the server's whole process tree, HTTP aborts every
   * exchange and destroys its pool without the session DELETE. Returns at once; never throws.
   */
  destroy(): void;
}
