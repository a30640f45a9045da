/**
 * The plain-data form of an autos-mcp error (what `toJSON()` returns and `McpError.fromJSON` reads): its
 * types, the redacted cause summary and the validation of data that crossed a thread or process boundary.
 */
import { redact } from '../internal/redact.js';
import {
  type AuthChallenge,
  type Delivery,
  type ErrorKind,
  isKnownDelivery,
  isKnownKind,
  type McpErrorOptions,
  type ProcessExit,
} from './types.js';

/** A redacted summary of an error's `cause`: never the cause object itself, at most 3 levels deep. */
export interface ErrorCauseSummary {
  /** The cause's `name` (`Error`, `TypeError`, …), or `typeof` for a thrown primitive. */
  readonly name: string;
  /** The cause's message, redacted and bounded. */
  readonly message: string;
  /** The cause's `code` (e.g. `ECONNRESET`, or a JSON-RPC code), when it has one. */
  readonly code?: string | number;
  /** The cause's own cause, summarised the same way (depth bounded). */
  readonly cause?: ErrorCauseSummary;
}

/** The fields every error's data has; `McpErrorData` narrows them by `kind`. */
interface McpErrorDataFields {
  readonly name: string;
  readonly kind: ErrorKind;
  readonly delivery: Delivery;
  readonly message: string;
  readonly code?: number;
  readonly data?: unknown;
  readonly status?: number;
  readonly challenge?: AuthChallenge;
  readonly stderrTail?: string;
  readonly target?: string;
  readonly exit?: ProcessExit;
  readonly detail?: string;
  readonly cause?: ErrorCauseSummary;
}

/** Kinds whose data has fields of their own in `McpErrorData`. */
type KindsWithFields = 'rpc' | 'unsupported_version';

/**
 * The plain data of an autos-mcp error: what `toJSON()` returns, what survives `JSON.stringify` and
 * structured clone, and what `McpError.fromJSON` rebuilds an error from. A union discriminated by `kind`:
 * `rpc` always has a numeric `code` (and `rpcMessage` when `name` is `RpcError`); `unsupported_version`
 * has `requested` and `supported` when `name` is `UnsupportedProtocolVersionError`.
 */
export type McpErrorData =
  | (McpErrorDataFields & { readonly kind: 'rpc'; readonly code: number; readonly rpcMessage?: string })
  | (McpErrorDataFields & {
      readonly kind: 'unsupported_version';
      readonly requested?: string;
      readonly supported?: readonly string[];
    })
  | (McpErrorDataFields & { readonly kind: Exclude<ErrorKind, KindsWithFields> });

/** How deep `cause` summaries go (the error's cause is level 1). */
export const CAUSE_DEPTH = 3;
/** Longest cause message kept (longer ones are cut and end with `…`). */
const CAUSE_MESSAGE_MAX = 1000;
/** Longest `name` / string `code` kept, in a cause summary or in error data. */
const NAME_MAX = 100;

/**
 * `redact` repeated until the text no longer changes (at most 5 passes). One pass of `redact` is not
 * always idempotent (`https://https://<key>@h` loses a second layer on the second pass), and an error's
 * message must survive `toJSON` → `fromJSON` (which redacts again) unchanged. Usually 2 passes. With
 * `maxChars`, every pass is bounded the same way (see `redact`): the text is cut before any rule runs,
 * the result has at most `maxChars` characters, and a bounded result is redacted again unchanged.
 */
export function redactStable(text: string, maxChars?: number, keep: 'start' | 'end' = 'start'): string {
  let out = redact(text, maxChars, keep);
  for (let pass = 0; pass < 4; pass++) {
    const next = redact(out, maxChars, keep);
    if (next === out) return out;
    out = next;
  }
  return out;
}

/**
 * A redacted summary of `cause` (see `ErrorCauseSummary`), or undefined when there is none or `depth`
 * exceeds `CAUSE_DEPTH`. Never throws (a cause with throwing getters is summarised as unreadable) and is
 * idempotent: summarising a summary gives an equal summary.
 */
export function summarizeCause(cause: unknown, depth = 1): ErrorCauseSummary | undefined {
  if (cause === undefined || cause === null || depth > CAUSE_DEPTH) return undefined;
  try {
    if (typeof cause !== 'object' && typeof cause !== 'function') {
      return { name: typeof cause, message: redactStable(String(cause), CAUSE_MESSAGE_MAX) };
    }
    const source = cause as Record<string, unknown>;
    const name = source['name'];
    const message = source['message'];
    const code = source['code'];
    const summary: { -readonly [K in keyof ErrorCauseSummary]: ErrorCauseSummary[K] } = {
      name:
        typeof name === 'string' && name !== ''
          ? redactStable(name, NAME_MAX)
          : isErrorObject(cause)
            ? 'Error'
            : 'Object',
      message: typeof message === 'string' ? redactStable(message, CAUSE_MESSAGE_MAX) : '',
    };
    if (typeof code === 'string') summary.code = redactStable(code, NAME_MAX);
    else if (typeof code === 'number' && Number.isFinite(code)) summary.code = code;
    const nested = summarizeCause(source['cause'], depth + 1);
    if (nested !== undefined) summary.cause = nested;
    return summary;
  } catch {
    return { name: 'Error', message: '[the cause could not be read]' };
  }
}

/** True for an Error of any realm (`instanceof Error` is false across realms). */
export function isErrorObject(value: unknown): boolean {
  return value instanceof Error || Object.prototype.toString.call(value) === '[object Error]';
}

/** Error data that passed validation: what the constructors need to rebuild the error. */
export interface ValidErrorData {
  readonly name: string;
  readonly kind: ErrorKind;
  readonly message: string;
  /** Constructor options: delivery, code, data, status, challenge, stderrTail, target, exit, detail and the cause summary. */
  readonly options: McpErrorOptions & { delivery: Delivery };
  /** `RpcError` only. */
  readonly rpcMessage?: string;
  /** `UnsupportedProtocolVersionError` only. */
  readonly requested?: string;
  /** `UnsupportedProtocolVersionError` only. */
  readonly supported?: readonly string[];
}

/** The result of `validateErrorData`: the valid fields, or why the data is malformed. */
export type ValidationResult =
  | { readonly ok: true; readonly value: ValidErrorData }
  | { readonly ok: false; readonly reason: string };

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * Checks `value` (an error's `toJSON()` data, a structured-clone or JSON copy of it, or an error object
 * of any realm) field by field. Never throws: a hostile object (throwing getters, a Proxy) is malformed.
 */
export function validateErrorData(value: unknown): ValidationResult {
  try {
    return validate(value);
  } catch {
    return { ok: false, reason: 'its fields could not be read' };
  }
}

function validate(value: unknown): ValidationResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return bad(`expected an object, got ${describe(value)}`);
  }
  const source = value as Record<string, unknown>;
  const { kind, delivery, message } = source;
  const name = source['name'] ?? 'McpError';
  if (kind === undefined) return bad('kind is missing');
  if (!isKnownKind(kind)) return bad(`kind ${describe(kind)} is not an ErrorKind`);
  if (!isKnownDelivery(delivery)) return bad(`delivery ${describe(delivery)} is not a Delivery`);
  if (typeof message !== 'string') return bad(`message is ${describe(message)}, not a string`);
  if (typeof name !== 'string' || name.length > NAME_MAX || !IDENTIFIER.test(name)) {
    return bad(`name ${describe(name)} is not an identifier`);
  }
  const options: McpErrorOptions & { delivery: Delivery } = { delivery };
  const { code, status, stderrTail, challenge, target, exit, detail } = source;
  if (code !== undefined) {
    if (typeof code !== 'number' || Number.isNaN(code)) return bad(`code is ${describe(code)}, not a number`);
    options.code = code;
  } else if (kind === 'rpc') {
    return bad('kind rpc has no code');
  }
  if ('data' in source && source['data'] !== undefined) options.data = source['data'];
  if (status !== undefined) {
    if (!Number.isInteger(status)) return bad(`status is ${describe(status)}, not an integer`);
    options.status = status as number;
  }
  if (stderrTail !== undefined) {
    if (typeof stderrTail !== 'string') return bad(`stderrTail is ${describe(stderrTail)}, not a string`);
    options.stderrTail = stderrTail;
  }
  if (target !== undefined) {
    if (typeof target !== 'string') return bad(`target is ${describe(target)}, not a string`);
    options.target = target;
  }
  if (detail !== undefined) {
    if (typeof detail !== 'string') return bad(`detail is ${describe(detail)}, not a string`);
    options.detail = detail;
  }
  if (exit !== undefined) {
    const parsed = readExit(exit);
    if (parsed === undefined) return bad('exit is not a ProcessExit');
    options.exit = parsed;
  }
  if (challenge !== undefined) {
    const parsed = readChallenge(challenge);
    if (parsed === undefined) return bad('challenge is not an AuthChallenge');
    options.challenge = parsed;
  }
  const cause = summarizeCause(source['cause']);
  if (cause !== undefined) options.cause = cause;
  const valid: ValidErrorData = { name, kind, message, options };
  if (name === 'RpcError') {
    const { rpcMessage } = source;
    if (kind !== 'rpc') return bad(`an RpcError has kind ${kind}, not rpc`);
    if (typeof rpcMessage !== 'string') return bad(`rpcMessage is ${describe(rpcMessage)}, not a string`);
    return { ok: true, value: { ...valid, rpcMessage } };
  }
  if (name === 'UnsupportedProtocolVersionError') {
    const { requested, supported } = source;
    if (kind !== 'unsupported_version') {
      return bad(`an UnsupportedProtocolVersionError has kind ${kind}, not unsupported_version`);
    }
    if (typeof requested !== 'string') return bad(`requested is ${describe(requested)}, not a string`);
    if (!Array.isArray(supported) || !supported.every((v) => typeof v === 'string')) {
      return bad('supported is not an array of strings');
    }
    return { ok: true, value: { ...valid, requested, supported: [...supported] as string[] } };
  }
  return { ok: true, value: valid };
}

function readChallenge(value: unknown): AuthChallenge | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const source = value as Record<string, unknown>;
  if (typeof source['scheme'] !== 'string') return undefined;
  const out: AuthChallenge = { scheme: source['scheme'] };
  for (const key of ['resourceMetadata', 'scope', 'error', 'errorDescription'] as const) {
    const field = source[key];
    if (field === undefined) continue;
    if (typeof field !== 'string') return undefined;
    out[key] = field;
  }
  return out;
}

function readExit(value: unknown): ProcessExit | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { code, signal } = value as Record<string, unknown>;
  if (code !== null && !Number.isInteger(code)) return undefined;
  if (signal !== null && typeof signal !== 'string') return undefined;
  return { code: code as number | null, signal: signal as string | null };
}

function bad(reason: string): ValidationResult {
  return { ok: false, reason };
}

/** A short, redacted description of an untrusted value for a "malformed" message. */
function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(redactStable(value, 60));
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : typeof value === 'undefined' ? 'missing' : typeof value;
}
