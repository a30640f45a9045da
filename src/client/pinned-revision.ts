/**
 * The error for a server that does not speak the revision the client is pinned to, in place of the raw
 * answer that shows it: a pinned 2025-11-25 `initialize` refused with -32022 (or -32601: 2026-07-28 has no
 * `initialize`), or a pinned 2026-07-28 request answered with HTTP 400 and no JSON-RPC error for it. A 2026
 * server answers every request it refuses with a JSON-RPC error for that request
 * (S26/basic/transports/streamable-http); a 400 without one is how a 2025 server answers a request that did
 * not follow `initialize`, or carries an `MCP-Protocol-Version` it does not support (S25/basic/transports).
 * A pinned 2026 stdio server that exits at its first request gets the same advice on its `closed` error.
 * Each names the setting that works: `auto`, or the other revision.
 */
import {
  isMcpError,
  McpError,
  type McpErrorOptions,
  RpcError,
  UnsupportedProtocolVersionError,
} from '../errors/index.js';
import { METHOD_NOT_FOUND, UNSUPPORTED_PROTOCOL_VERSION } from '../protocol/jsonrpc.js';
import { LEGACY_VERSION, MODERN_SUPPORTED, MODERN_VERSION } from '../protocol/versions.js';

/** At most this many of the server's versions are named, each cut to this many characters. */
const MAX_VERSIONS = 8;
const MAX_VERSION_CHARS = 40;

/** "The client is pinned to A: use protocol version 'auto' or 'B' (…)". */
function advice(pinned: string, other: string): string {
  return `The client is pinned to ${pinned}: use protocol version 'auto' or '${other}' (protocolVersion in the config, --protocol on the command line)`;
}

/**
 * For a pinned 2025-11-25 `initialize` that failed with `error`: the `unsupported_version` error when the
 * server refused the version (-32022, naming the versions it offers) or has no `initialize` (-32601);
 * else undefined (the error stands as it is).
 */
export function legacyPinRefused(
  error: unknown,
  target: string,
): UnsupportedProtocolVersionError | undefined {
  if (!(error instanceof RpcError)) return undefined;
  if (error.code === METHOD_NOT_FOUND) {
    return new UnsupportedProtocolVersionError(target, LEGACY_VERSION, [], {
      cause: error,
      answered: `it answered initialize with JSON-RPC error ${METHOD_NOT_FOUND} (method not found): a server of ${MODERN_VERSION} has no initialize`,
      advice: advice(LEGACY_VERSION, MODERN_VERSION),
    });
  }
  if (error.code !== UNSUPPORTED_PROTOCOL_VERSION) return undefined;
  const data = error.data as { supported?: unknown } | undefined;
  const supported = (Array.isArray(data?.supported) ? data.supported : [])
    .filter((v): v is string => typeof v === 'string')
    .slice(0, MAX_VERSIONS)
    .map((v) => v.slice(0, MAX_VERSION_CHARS));
  const modern = MODERN_SUPPORTED.find((v) => supported.includes(v));
  return new UnsupportedProtocolVersionError(target, LEGACY_VERSION, supported, {
    cause: error,
    ...(modern === undefined ? {} : { advice: advice(LEGACY_VERSION, modern) }),
  });
}

/**
 * For a pinned 2026-07-28 request (`method`) that failed with `error` before the server had answered any:
 * the `unsupported_version` error when the answer was an HTTP 400 without a JSON-RPC error for the request,
 * as a 2025 server answers; the same `closed` error with the advice when the server exited instead (not
 * closed by the caller, `closedByCaller`), as servers built on some 2025 SDKs (Rust's rmcp) do at any
 * request before `initialize`; else undefined.
 */
export function modernPinRefused(
  error: unknown,
  target: string,
  method: string,
  closedByCaller = false,
): McpError | undefined {
  if (!isMcpError(error)) return undefined;
  if (error.kind === 'closed' && !closedByCaller) {
    const options: McpErrorOptions = { delivery: error.delivery, cause: error };
    if (error.stderrTail !== undefined) options.stderrTail = error.stderrTail;
    return new McpError(
      'closed',
      `${error.message}. A server of 2025 may end at a request that does not follow initialize: ${advice(MODERN_VERSION, LEGACY_VERSION)}`,
      options,
    );
  }
  if (error.kind !== 'transport' || error.status !== 400) return undefined;
  // What the server said, as the transport quoted it after the status (`…: HTTP 400: <said>`).
  const said = error.detail === undefined ? '' : ` (${error.detail})`;
  return new UnsupportedProtocolVersionError(target, MODERN_VERSION, [], {
    cause: error,
    delivery: error.delivery,
    status: 400,
    ...(error.code === undefined ? {} : { code: error.code }),
    answered: `it answered ${method} with HTTP 400${said}, as a 2025 server answers a request that did not follow initialize`,
    advice: advice(MODERN_VERSION, LEGACY_VERSION),
  });
}
