import { redact } from '../internal/redact.js';

/**
 * The one error type of autos-mcp. Every failure carries a stable string `kind` (match on it, not on
 * `instanceof`, so errors survive a worker boundary as data) and a `delivery` that says whether the
 * request may have reached the server. Messages name the operation and the target, never a secret.
 */

/** Why an operation failed. Stable: callers match on these strings. */
export type ErrorKind =
  | 'config'
  | 'spawn'
  | 'transport'
  | 'protocol'
  | 'rpc'
  | 'timeout'
  | 'cancelled'
  | 'closed'
  | 'too_large'
  | 'unsupported_version'
  | 'busy'
  | 'auth_required'
  | 'forbidden'
  | 'session_expired'
  | 'invalid_tool';

/**
 * Whether the request left this process:
 * - `not_sent`: it never left; nothing can have happened on the server.
 * - `unknown`: it was sent and no answer came; it may have run (side effects possible).
 * - `delivered`: the server answered (with an error, here).
 */
export type Delivery = 'not_sent' | 'unknown' | 'delivered';

/** A parsed `WWW-Authenticate` challenge (never the token). */
export interface AuthChallenge {
  scheme: string;
  resourceMetadata?: string;
  scope?: string;
  error?: string;
  errorDescription?: string;
}

export interface McpErrorOptions {
  delivery?: Delivery;
  cause?: unknown;
  /** JSON-RPC error code, for `kind: 'rpc'` (and protocol-level JSON-RPC errors). */
  code?: number;
  /** JSON-RPC error data, kept as given. */
  data?: unknown;
  /** HTTP status, when an HTTP response caused the error. */
  status?: number;
  challenge?: AuthChallenge;
  /** Bounded, redacted tail of the server's stderr, when it helps explain the failure. */
  stderrTail?: string;
}

/** Base class of every error autos-mcp throws. */
export class McpError extends Error {
  override readonly name: string = 'McpError';
  readonly kind: ErrorKind;
  readonly delivery: Delivery;
  readonly code?: number;
  readonly data?: unknown;
  readonly status?: number;
  readonly challenge?: AuthChallenge;
  readonly stderrTail?: string;

  constructor(kind: ErrorKind, message: string, options: McpErrorOptions = {}) {
    // Every message passes the redactor: server text (JSON-RPC messages, stderr, challenges) may echo a
    // token back, and an error message ends up in logs. Over-masking is accepted; leaking is not.
    super(redact(message), options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.delivery = options.delivery ?? 'not_sent';
    if (options.code !== undefined) this.code = options.code;
    if (options.data !== undefined) this.data = options.data;
    if (options.status !== undefined) this.status = options.status;
    if (options.challenge !== undefined) this.challenge = redactChallenge(options.challenge);
    if (options.stderrTail !== undefined) this.stderrTail = redact(options.stderrTail);
  }

  /** Plain data, for logs and for crossing a thread boundary. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = {
      name: this.name,
      kind: this.kind,
      delivery: this.delivery,
      message: this.message,
    };
    if (this.code !== undefined) out['code'] = this.code;
    if (this.data !== undefined) out['data'] = this.data;
    if (this.status !== undefined) out['status'] = this.status;
    if (this.challenge !== undefined) out['challenge'] = this.challenge;
    return out;
  }
}

/** The server answered a request with a JSON-RPC error. `code`, `message` and `data` are the server's. */
export class RpcError extends McpError {
  override readonly name = 'RpcError';
  declare readonly code: number;
  /** The server's own `error.message`, redacted (it is data, not an instruction). */
  readonly rpcMessage: string;

  constructor(operation: string, target: string, code: number, rpcMessage: string, data: unknown) {
    super(
      'rpc',
      `${operation} on ${target}: server returned JSON-RPC error ${code}: ${clip(rpcMessage, 300)}`,
      {
        delivery: 'delivered',
        code,
        data,
      },
    );
    this.rpcMessage = redact(rpcMessage);
  }
}

/** A 2026-07-28 server refused the protocol version (-32022) and no common version exists. */
export class UnsupportedProtocolVersionError extends McpError {
  override readonly name = 'UnsupportedProtocolVersionError';
  readonly requested: string;
  readonly supported: readonly string[];

  constructor(
    target: string,
    requested: string,
    supported: readonly string[],
    options: McpErrorOptions = {},
  ) {
    super(
      'unsupported_version',
      `${target} does not support protocol version ${requested}; it offers ${supported.length ? supported.join(', ') : 'none'}`,
      { delivery: 'delivered', ...options },
    );
    this.requested = requested;
    this.supported = supported;
  }
}

/** True when `value` is an autos-mcp error (works across realms: checks the shape, not the prototype). */
export function isMcpError(value: unknown): value is McpError {
  return (
    value instanceof McpError ||
    (typeof value === 'object' &&
      value !== null &&
      typeof (value as { kind?: unknown }).kind === 'string' &&
      typeof (value as { delivery?: unknown }).delivery === 'string' &&
      value instanceof Error)
  );
}

/** True when `value` is an autos-mcp error of the given kind. */
export function isErrorKind<K extends ErrorKind>(value: unknown, kind: K): value is McpError & { kind: K } {
  return isMcpError(value) && value.kind === kind;
}

/** True when the server answered with a JSON-RPC error. */
export function isRpcError(value: unknown): value is RpcError {
  return isErrorKind(value, 'rpc');
}

function redactChallenge(challenge: AuthChallenge): AuthChallenge {
  const out = { ...challenge };
  if (out.errorDescription !== undefined) out.errorDescription = redact(out.errorDescription);
  if (out.error !== undefined) out.error = redact(out.error);
  return out;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
