/**
 * Type guards for autos-mcp errors. They check the `Symbol.for('autos-mcp.McpError')` brand (or, for a
 * copy of autos-mcp that predates it, the shape), never `instanceof`, so errors of another realm or of
 * another bundled copy of the library are recognised.
 */
import { isErrorObject } from './data.js';
import type { McpError, RpcError } from './mcp-error.js';
import {
  type AuthChallenge,
  type ErrorKind,
  isKnownDelivery,
  isKnownKind,
  MCP_ERROR_BRAND,
} from './types.js';

/** Kinds whose errors have fields of their own in `AnyMcpError`. */
type KindsWithFields = 'rpc' | 'auth_required' | 'forbidden';

/**
 * An autos-mcp error, discriminated by `kind`, so that narrowing on `kind` gives the fields of that
 * kind without a cast: `if (e.kind === 'rpc') e.code` is a `number`. Every error autos-mcp throws, and
 * every error `McpError.fromJSON` rebuilds, fits it; an `McpError` you build yourself with kind `rpc`
 * must pass `code`. `auth_required` / `forbidden` carry `status` and `challenge` when an HTTP response
 * caused them (an authorizer that failed before sending has neither).
 */
export type AnyMcpError =
  | (McpError & { readonly kind: 'rpc'; readonly code: number })
  | (McpError & {
      readonly kind: 'auth_required' | 'forbidden';
      readonly status?: number;
      readonly challenge?: AuthChallenge;
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

/** True when `value` is an autos-mcp error of the given kind; narrows to that member of `AnyMcpError`. */
export function isErrorKind<K extends ErrorKind>(
  value: unknown,
  kind: K,
): value is AnyMcpError & { readonly kind: K } {
  return isMcpError(value) && value.kind === kind;
}

/** True when the server answered with a JSON-RPC error. */
export function isRpcError(value: unknown): value is RpcError {
  return isErrorKind(value, 'rpc');
}
