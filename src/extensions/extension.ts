/**
 * The contract between the client and an extension module (SEP-2133): an extension is turned on per
 * connection, declares its settings in `capabilities.extensions[id]`, and may claim results the core
 * protocol does not know (a `resultType` of its own) and follow them to the method's final result through
 * a small port. The client calls these hooks at fixed seams and never looks at an extension's id.
 */
import type { Clock } from '../internal/clock.js';

/** One extension module, as the client sees it. */
export interface Extension {
  /** The extension identifier, e.g. `io.modelcontextprotocol/tasks` (the `_meta` key rules, with a prefix). */
  readonly id: string;
  /** What the client declares in `capabilities.extensions[id]` (`{}`: supported, no settings). */
  readonly settings: Readonly<Record<string, unknown>>;
  /**
   * True when a result of `method` with this `resultType` is this extension's to follow. The client
   * accepts such a result from the wire (else it is a protocol error) and hands it to `follow`.
   */
  claims?(method: string, resultType: string): boolean;
  /** Follows a claimed result to the final result of the request that got it (e.g. a `CallToolResult`). */
  follow?(claimed: ClaimedResult, port: ExtensionPort): Promise<Record<string, unknown>>;
}

/** A result an extension claimed, and the request it answered. */
export interface ClaimedResult {
  /** The method of the request (`tools/call`). */
  readonly method: string;
  /** The request's params as sent (without `_meta`). */
  readonly params: Readonly<Record<string, unknown>>;
  /** What the server answered. */
  readonly result: Readonly<Record<string, unknown>>;
  /** The caller's options of this call, as given: an extension reads its own hooks there (`onTask`). */
  readonly callOptions: object;
  /** What the call is called in messages: `tools/call echo on <target>`. */
  readonly operation: string;
}

/** What an extension may do while it follows a result: requests on the same connection, the caller's handlers. */
export interface ExtensionPort {
  /** The server's display name (never a secret). */
  readonly target: string;
  /** Aborted when the caller's signal aborts or the client closes. */
  readonly signal: AbortSignal;
  /** When the call must be over, in the clock's ms (`Infinity`: no deadline). */
  readonly deadline: number;
  /** The deadline of one request (the call's `timeoutMs`, else the config's), in ms. */
  readonly requestTimeoutMs: number;
  /** Most input rounds one call may take (`maxInputRounds`, the same bound MRTR uses). */
  readonly maxInputRounds: number;
  /** The time source (tests move it). */
  readonly clock: Clock;
  /**
   * Sends one request on the connection's negotiated terms (2026: `_meta` and headers); `routeName` is the
   * request's `Mcp-Name` on Streamable HTTP. Rejects with an `McpError` as any request does.
   */
  request(
    method: string,
    params: Record<string, unknown>,
    options: { timeoutMs: number; routeName?: string; signal?: AbortSignal },
  ): Promise<Record<string, unknown>>;
  /** True when the caller's handlers can answer this server→client request (MRTR's rule). */
  canAnswer(method: string, params?: Record<string, unknown>): boolean;
  /** Answers it with those handlers; undefined when none can. */
  answerInput(
    method: string,
    params: Record<string, unknown> | undefined,
  ): Promise<Record<string, unknown>> | undefined;
}
