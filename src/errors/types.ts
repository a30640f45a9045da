/**
 * The vocabulary of autos-mcp errors: the kinds, the delivery states, the auth challenge and the
 * constructor options. Plain types and frozen lists only; the classes live in `mcp-error.ts`.
 */

/**
 * Every `kind` an autos-mcp error can have, as a frozen runtime list (iterate it, validate with it).
 * `ErrorKind` is derived from it, so the two cannot drift apart.
 */
export const ERROR_KINDS = Object.freeze([
  'config',
  'spawn',
  'transport',
  'protocol',
  'rpc',
  'timeout',
  'cancelled',
  'closed',
  'too_large',
  'unsupported_version',
  'busy',
  'auth_required',
  'forbidden',
  'session_expired',
  'invalid_tool',
  'tool_changed',
  'invalid_arguments',
  'denied',
  'missing_capability',
  'task_cancelled',
  'skill_rejected',
] as const);

/** Why an operation failed. Stable: callers match on these strings. */
export type ErrorKind = (typeof ERROR_KINDS)[number];

/** Every `delivery` value, as a frozen runtime list (internal: used to validate error data). */
export const DELIVERIES = Object.freeze(['not_sent', 'unknown', 'delivered'] as const);

/**
 * Whether the request left this process:
 * - `not_sent`: it never left; nothing can have happened on the server.
 * - `unknown`: it was sent and no answer came; it may have run (side effects possible).
 * - `delivered`: the server answered (with an error, here).
 */
export type Delivery = (typeof DELIVERIES)[number];

/** A parsed `WWW-Authenticate` challenge (never the token). */
export interface AuthChallenge {
  /** The auth scheme, e.g. `Bearer` or `DPoP`. */
  scheme: string;
  /** The `resource_metadata` parameter (RFC 9728 protected resource metadata URL). */
  resourceMetadata?: string;
  /** The `scope` parameter. */
  scope?: string;
  /** The `error` parameter (redacted once it is on an error). */
  error?: string;
  /** The `error_description` parameter (redacted once it is on an error). */
  errorDescription?: string;
}

/** How a local server process ended (`McpError.exit`): its exit code, or the signal that killed it. */
export interface ProcessExit {
  /** The exit code, when it exited by itself; null when a signal ended it. */
  readonly code: number | null;
  /** The signal that ended it (`SIGKILL`, …), or null. */
  readonly signal: string | null;
}

/** The optional fields of `new McpError(kind, message, options)`. */
export interface McpErrorOptions {
  /** Whether the request left this process; defaults to `not_sent`. */
  delivery?: Delivery;
  /** The underlying failure; `toJSON()` carries only a redacted summary of it. */
  cause?: unknown;
  /** JSON-RPC error code, for `kind: 'rpc'` (and protocol-level JSON-RPC errors). */
  code?: number;
  /** JSON-RPC error data, kept as given. */
  data?: unknown;
  /** HTTP status, when an HTTP response caused the error. */
  status?: number;
  /** The server's auth challenge, for `auth_required` / `forbidden`. */
  challenge?: AuthChallenge;
  /** Bounded, redacted tail of the server's stderr, when it helps explain the failure. */
  stderrTail?: string;
  /**
   * The server the error is about (its display name: command base name or endpoint, never a secret), when
   * the message names it: code that wraps the error reads this, never the message, to avoid saying it twice.
   */
  target?: string;
  /** The local server process exited (that is what the error reports): how. */
  exit?: ProcessExit;
  /** What the server's answer said about the failure (the words of an HTTP error body), one line. */
  detail?: string;
}

/**
 * The brand on `McpError.prototype` (non-enumerable). `Symbol.for` makes it the same symbol in every
 * realm and in every bundled copy of autos-mcp, so `isMcpError` recognises their errors too.
 */
export const MCP_ERROR_BRAND: unique symbol = Symbol.for('autos-mcp.McpError');

const KIND_SET: ReadonlySet<string> = new Set(ERROR_KINDS);
const DELIVERY_SET: ReadonlySet<string> = new Set(DELIVERIES);

/** True when `value` is one of `ERROR_KINDS`. */
export function isKnownKind(value: unknown): value is ErrorKind {
  return typeof value === 'string' && KIND_SET.has(value);
}

/** True when `value` is one of `DELIVERIES`. */
export function isKnownDelivery(value: unknown): value is Delivery {
  return typeof value === 'string' && DELIVERY_SET.has(value);
}
