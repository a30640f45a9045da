/**
 * Errors about a tool name the server does not have say which names it does have: all of them when there
 * are few (up to 20), the closest otherwise (see internal/tool-names.ts). For a call the server refused
 * with -32602 (S25+26/server/tools: an unknown tool is a protocol error), the names come from the
 * current list, or from one `tools/list` sent after the refusal (read-only, never the call again); a
 * name the list does have leaves the error as it was (the -32602 was about the arguments).
 */
import { RpcError } from '../errors/index.js';
import { unknownToolHint } from '../internal/tool-names.js';
import { INVALID_PARAMS } from '../protocol/jsonrpc.js';
import type { CallOptions } from './call-options.js';

/** Where the full list is, for a hint that does not show every name. */
const LIST_WITH = '; listTools() names them';

/** The hint for `name` among the server's `names`: `did you mean: echo? (its tools: echo, fail)`. */
export function unlistedToolHint(name: string, names: readonly string[]): string {
  return unknownToolHint(name, names, LIST_WITH);
}

/**
 * The error to throw for a `tools/call` of `name` that failed with `error`: a -32602 `RpcError` for a
 * name the server does not list, again with the hint after the server's words; anything else as it was.
 * `names()` gives the server's tool names, or undefined when they cannot be had.
 */
export async function unknownToolError(
  error: unknown,
  name: string,
  target: string,
  names: () => Promise<string[] | undefined>,
): Promise<unknown> {
  if (!(error instanceof RpcError) || error.code !== INVALID_PARAMS) return error;
  const listed = await names().catch(() => undefined);
  if (listed === undefined || listed.includes(name)) return error;
  return new RpcError(
    'tools/call',
    target,
    error.code,
    error.rpcMessage,
    error.data,
    `the server has no tool ${JSON.stringify(name.slice(0, 120))}: ${unlistedToolHint(name, listed)}`,
  );
}

/** The options of the `tools/list` sent for the names: the call's signal and deadline. */
export function listOptions(options: CallOptions): CallOptions {
  const out: CallOptions = {};
  if (options.signal !== undefined) out.signal = options.signal;
  if (options.timeoutMs !== undefined) out.timeoutMs = options.timeoutMs;
  return out;
}
