/**
 * Type guards for autos-mcp errors. They check the `Symbol.for('autos-mcp.McpError')` brand (or, for a
 * copy of autos-mcp that predates it, the shape), never `instanceof`, so errors of another realm or of
 * another bundled copy of the library are recognised.
 */
import { isErrorObject } from './data.js';
import type { McpError } from './mcp-error.js';
import {
  type AuthChallenge,
  type ErrorKind,
  isKnownDelivery,
  isKnownKind,
  MCP_ERROR_BRAND,
} from './types.js';

/** Kinds whose errors have fields of their own in `AnyMcpError`. */
type KindsWithFields = 'rpc' | 'auth_required' | 'forbidden' | 'unsupported_version';

/**
 * An autos-mcp error, discriminated by `kind`, so that narrowing on `kind` (`isErrorKind(e, 'rpc')`, or
 * `e.kind === 'rpc'` after `isMcpError(e)`) gives the fields of that kind without a cast or a class:
 * - `rpc`: `code` is a `number`; `rpcMessage` is the server's own `error.message` (redacted, cut to 4 K
 *   characters) when the error is the server's answer itself, not a later step's error that wraps it;
 * - `auth_required` / `forbidden`: `status` and `challenge` when an HTTP response caused them (an
 *   authorizer that failed before sending has neither);
 * - `unsupported_version`: `requested` and the versions the server offered (`supported`).
 * Every error autos-mcp throws, and every error `McpError.fromJSON` rebuilds, fits it; an `McpError` you
 * build yourself with kind `rpc` must pass `code`.
 */
export type AnyMcpError =
  | (McpError & { readonly kind: 'rpc'; readonly code: number; readonly rpcMessage?: string })
  | (McpError & {
      readonly kind: 'auth_required' | 'forbidden';
      readonly status?: number;
      readonly challenge?: AuthChallenge;
    })
  | (McpError & {
      readonly kind: 'unsupported_version';
      readonly requested?: string;
      readonly supported?: readonly string[];
    })
  | (McpError & { readonly kind: Exclude<ErrorKind, KindsWithFields> });

/**
 * True when `value` is an autos-mcp error, of this copy of the library or of any other (another realm,
 * another bundle): it carries the brand (or is an Error with a `toJSON` method), and its `kind` and
 * `delivery` are known values. A structured-clone or JSON copy is plain data, not an error: rebuild it
 * with `McpError.fromJSON` first.
 */
export function isMcpError(value: unknown): value is AnyMcpError {
  if (typeof value !== 'object' || value === null) return false;
  try {
    const candidate = value as Record<PropertyKey, unknown>;
    const branded =
      candidate[MCP_ERROR_BRAND] === true ||
      (isErrorObject(value) && typeof candidate['toJSON'] === 'function');
    return (
      branded &&
      isKnownKind(candidate['kind']) &&
      isKnownDelivery(candidate['delivery']) &&
      typeof candidate['message'] === 'string'
    );
  } catch {
    return false;
  }
}

/**
 * True when `value` is an autos-mcp error of the given kind; narrows to that member of `AnyMcpError`.
 * The one guard for a kind: `isErrorKind(e, 'rpc')` for a JSON-RPC error answer, with its `code`.
 */
export function isErrorKind<K extends ErrorKind>(
  value: unknown,
  kind: K,
): value is AnyMcpError & { readonly kind: K } {
  return isMcpError(value) && value.kind === kind;
}
