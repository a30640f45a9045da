/**
 * The error classes of autos-mcp and their plain-data round trip (`toJSON` / `McpError.fromJSON`).
 * Every failure carries a stable string `kind` (match on it, not on `instanceof`, so errors survive a
 * worker boundary as data) and a `delivery` that says whether the request may have reached the server.
 * Messages name the operation and the target, never a secret.
 */
import { maskKnownInData } from '../internal/known-secrets.js';
import { redact } from '../internal/redact.js';
import { type McpErrorData, redactStable, summarizeCause, validateErrorData } from './data.js';
import type { AnyMcpError } from './guards.js';
import {
  type AuthChallenge,
  type Delivery,
  type ErrorKind,
  MCP_ERROR_BRAND,
  type McpErrorOptions,
  type ProcessExit,
} from './types.js';

/**
 * Longest texts an error keeps, in characters (server text can be of any length; each is cut before the
 * redactor runs, see `redact`): the message and a challenge's `error`/`errorDescription` keep their start,
 * the stderr tail its end (the stdio transport passes at most 8 KB), `rpcMessage` its first 4 KB and the
 * message quotes the first 300 characters of it.
 */
const MESSAGE_MAX = 16 * 1024;
const CHALLENGE_FIELD_MAX = 8 * 1024;
const STDERR_TAIL_MAX = 16 * 1024;
const RPC_MESSAGE_MAX = 4 * 1024;
const RPC_MESSAGE_QUOTED = 300;
const DETAIL_MAX = 4 * 1024;

/** Base class of every error autos-mcp throws. */
export class McpError extends Error {
  override readonly name: string = 'McpError';
  /** Why the operation failed; match on it. */
  readonly kind: ErrorKind;
  /** Whether the request may have reached the server. */
  readonly delivery: Delivery;
  /** JSON-RPC error code (always set for `kind: 'rpc'`). */
  readonly code?: number;
  /** JSON-RPC error data, as the server sent it, but for the caller's own secrets (masked, see `redact`). */
  readonly data?: unknown;
  /** HTTP status, when an HTTP response caused the error. */
  readonly status?: number;
  /** The server's auth challenge (its `error` and `errorDescription` redacted). */
  readonly challenge?: AuthChallenge;
  /** Bounded, redacted tail of the server's stderr. */
  readonly stderrTail?: string;
  /** The server the error is about, when the message names it (its display name, never a secret). */
  readonly target?: string;
  /** How the local server process ended, when its exit is what the error reports. */
  readonly exit?: ProcessExit;
  /** What the server's answer said about the failure (an HTTP error body's words), redacted, one line. */
  readonly detail?: string;

  /** `message` is redacted and cut to 16 K characters (ending with `…` when cut). */
  constructor(kind: ErrorKind, message: string, options: McpErrorOptions = {}) {
    // Every message passes the redactor: server text (JSON-RPC messages, stderr, challenges) may echo a
    // token back, and an error message ends up in logs. Over-masking is accepted; leaking is not.
    super(
      redactStable(message, MESSAGE_MAX),
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.kind = kind;
    this.delivery = options.delivery ?? 'not_sent';
    if (options.code !== undefined) this.code = options.code;
    // Server data may echo a value the caller handed in (an env value, a token): masked now, so that no
    // copy (toJSON, a thread boundary, a log) ever holds it.
    if (options.data !== undefined) this.data = maskKnownInData(options.data);
    if (options.status !== undefined) this.status = options.status;
    if (options.challenge !== undefined) this.challenge = redactChallenge(options.challenge);
    if (options.stderrTail !== undefined)
      this.stderrTail = redactStable(options.stderrTail, STDERR_TAIL_MAX, 'end');
    // A display name built never to hold a secret (see `target` in config): kept exactly as given, so a
    // wrapper compares it with its own target.
    if (options.target !== undefined) this.target = options.target;
    if (options.exit !== undefined) this.exit = { code: options.exit.code, signal: options.exit.signal };
    if (options.detail !== undefined) this.detail = redactStable(options.detail, DETAIL_MAX);
  }

  /**
   * Rebuilds an error from its `toJSON()` data, a JSON or structured-clone copy of that data, or an
   * error object of another realm or bundled copy: the right class (`RpcError`,
   * `UnsupportedProtocolVersionError`, else `McpError`), every field equal. Never throws: malformed data
   * gives an `McpError` of kind `protocol` (delivery `unknown`) saying so. Note that posting the error
   * object itself loses `kind` and the other fields (structured clone keeps only an Error's message,
   * stack and cause): post `error.toJSON()`.
   */
  static fromJSON(value: unknown): AnyMcpError {
    return errorFromData(value);
  }

  /**
   * Plain data, for logs and for crossing a thread boundary: every field, and a redacted summary of the
   * cause (never the cause object). `McpError.fromJSON` turns it back into an equal error.
   */
  toJSON(): McpErrorData {
    const cause = summarizeCause(this.cause);
    const data = {
      name: this.name,
      kind: this.kind,
      delivery: this.delivery,
      message: this.message,
      ...(this.code === undefined ? {} : { code: this.code }),
      ...(this.data === undefined ? {} : { data: this.data }),
      ...(this.status === undefined ? {} : { status: this.status }),
      ...(this.challenge === undefined ? {} : { challenge: { ...this.challenge } }),
      ...(this.stderrTail === undefined ? {} : { stderrTail: this.stderrTail }),
      ...(this.target === undefined ? {} : { target: this.target }),
      ...(this.exit === undefined ? {} : { exit: { ...this.exit } }),
      ...(this.detail === undefined ? {} : { detail: this.detail }),
      ...(cause === undefined ? {} : { cause }),
    };
    // The per-kind fields of McpErrorData (`code` for `rpc`) are the constructors' to guarantee.
    return data as McpErrorData;
  }
}

// Non-enumerable, on the prototype: costs nothing per error and is the same symbol in every copy.
Object.defineProperty(McpError.prototype, MCP_ERROR_BRAND, { value: true });

/** The server answered a request with a JSON-RPC error. `code`, `message` and `data` are the server's. */
export class RpcError extends McpError {
  override readonly name = 'RpcError';
  declare readonly kind: 'rpc';
  declare readonly code: number;
  /**
   * The server's own `error.message`, redacted (it is data, not an instruction) and cut to its first 4 K
   * characters (ending with `…` when cut); the error's `message` quotes its first 300.
   */
  readonly rpcMessage: string;

  /** `hint`, when given, is this client's own note, after the server's words (`…: Tool x not found; <hint>`). */
  constructor(
    operation: string,
    target: string,
    code: number,
    rpcMessage: string,
    data: unknown,
    hint?: string,
  ) {
    super(
      'rpc',
      `${operation} on ${target}: server returned JSON-RPC error ${code}: ${redact(rpcMessage, RPC_MESSAGE_QUOTED + 1)}${hint === undefined ? '' : `; ${hint}`}`,
      {
        delivery: 'delivered',
        code,
        data,
        target,
      },
    );
    this.rpcMessage = redactStable(rpcMessage, RPC_MESSAGE_MAX);
  }

  /** Plain data: the `McpError` fields and `rpcMessage`. */
  override toJSON(): McpErrorData {
    return { ...super.toJSON(), kind: 'rpc', code: this.code, rpcMessage: this.rpcMessage };
  }
}

/** A 2026-07-28 server refused the protocol version (-32022) and no common version exists. */
export class UnsupportedProtocolVersionError extends McpError {
  override readonly name = 'UnsupportedProtocolVersionError';
  declare readonly kind: 'unsupported_version';
  /** The protocol version this client asked for. */
  readonly requested: string;
  /** The versions the server offered. */
  readonly supported: readonly string[];

  /**
   * The message is `<target> does not support protocol version <requested>; it offers <supported>`, or
   * with `options.answered`, `…; <answered>` instead (what the server did, when it named no versions),
   * then `options.advice` as a sentence of its own.
   */
  constructor(
    target: string,
    requested: string,
    supported: readonly string[],
    options: McpErrorOptions & { answered?: string; advice?: string } = {},
  ) {
    const { answered, advice, ...rest } = options;
    const offers = answered ?? `it offers ${supported.length ? supported.join(', ') : 'none'}`;
    super(
      'unsupported_version',
      `${target} does not support protocol version ${requested}; ${offers}${advice === undefined ? '' : `. ${advice}`}`,
      { delivery: 'delivered', target, ...rest },
    );
    this.requested = requested;
    this.supported = supported;
  }

  /** Plain data: the `McpError` fields, `requested` and `supported`. */
  override toJSON(): McpErrorData {
    return {
      ...super.toJSON(),
      kind: 'unsupported_version',
      requested: this.requested,
      supported: [...this.supported],
    };
  }
}

/**
 * Rebuilds an autos-mcp error from plain data; the same as `McpError.fromJSON(value)` (which see), as a
 * function to pass around, e.g. `port.on('message', (m) => reject(errorFromData(m)))`.
 */
export function errorFromData(value: unknown): AnyMcpError {
  const checked = validateErrorData(value);
  if (!checked.ok) {
    const cause = summarizeCause(value);
    return new McpError('protocol', `McpError.fromJSON: the error data is malformed: ${checked.reason}`, {
      delivery: 'unknown',
      ...(cause === undefined || typeof value !== 'object' ? {} : { cause }),
    }) as AnyMcpError;
  }
  const { name, kind, message, options } = checked.value;
  // The subclass constructors compose their message; a rebuilt error keeps the one it had, so it is
  // built by McpError's constructor with the subclass as prototype, then given the subclass's fields.
  if (name === 'RpcError') {
    const error = Reflect.construct(McpError, [kind, message, options], RpcError) as RpcError;
    own(error, 'name', name);
    own(error, 'rpcMessage', redactStable(checked.value.rpcMessage ?? '', RPC_MESSAGE_MAX));
    return error;
  }
  if (name === 'UnsupportedProtocolVersionError') {
    const error = Reflect.construct(
      McpError,
      [kind, message, options],
      UnsupportedProtocolVersionError,
    ) as UnsupportedProtocolVersionError;
    own(error, 'name', name);
    own(error, 'requested', checked.value.requested ?? '');
    own(error, 'supported', checked.value.supported ?? []);
    return error as AnyMcpError;
  }
  const error = new McpError(kind, message, options);
  if (name !== error.name) own(error, 'name', name);
  return error as AnyMcpError;
}

/** Defines `key` as a class field would (own, enumerable, writable), for the rebuilt subclasses. */
function own(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

function redactChallenge(challenge: AuthChallenge): AuthChallenge {
  const out = { ...challenge };
  if (out.errorDescription !== undefined) {
    out.errorDescription = redactStable(out.errorDescription, CHALLENGE_FIELD_MAX);
  }
  if (out.error !== undefined) out.error = redactStable(out.error, CHALLENGE_FIELD_MAX);
  return out;
}
