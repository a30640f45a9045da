/**
 * The errors of autos-mcp: one base class (`McpError`) with a stable string `kind` and a `delivery`,
 * two subclasses, type guards that work across realms and bundles, and a plain-data round trip
 * (`toJSON` / `McpError.fromJSON`) for crossing a thread boundary.
 */
export type { ErrorCauseSummary, McpErrorData } from './data.js';
export { type AnyMcpError, isErrorKind, isMcpError, isRpcError } from './guards.js';
export { errorFromData, McpError, RpcError, UnsupportedProtocolVersionError } from './mcp-error.js';
export {
  type AuthChallenge,
  type Delivery,
  ERROR_KINDS,
  type ErrorKind,
  type McpErrorOptions,
} from './types.js';
