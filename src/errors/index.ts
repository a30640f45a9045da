/**
 * The errors of autos-mcp: one base class (`McpError`) with a stable string `kind` and a `delivery`,
 * two subclasses (internal: callers narrow on `kind`, see `AnyMcpError`), type guards that work across
 * realms and bundles, and a plain-data round trip (`toJSON` / `McpError.fromJSON`, the one public way to
 * rebuild; `errorFromData` is the same function for internal callers) for crossing a thread boundary.
 */
export type { ErrorCauseSummary, McpErrorData } from './data.js';
export { type AnyMcpError, isErrorKind, isMcpError } from './guards.js';
export { errorFromData, McpError, RpcError, UnsupportedProtocolVersionError } from './mcp-error.js';
export {
  type AuthChallenge,
  type Delivery,
  ERROR_KINDS,
  type ErrorKind,
  type McpErrorOptions,
  type ProcessExit,
} from './types.js';
