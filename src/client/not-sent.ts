/**
 * The error for an operation that never left because a step before it failed (connecting, the implicit
 * `tools/list` of a 2026 call): `delivery: 'not_sent'` for the operation the caller asked for, with the
 * step's own error — and its delivery — kept as `cause`. The message is the caller's operation, the step
 * and the step's own message, with no delivery note of its own: `delivery` is the one note, shown once by
 * whoever renders the error (the CLI: "(nothing was sent)").
 */
import { isMcpError, McpError, type McpErrorOptions } from '../errors/index.js';

/**
 * `tools/call echo: the tools/list it needs first failed: POST tools/list to https://h/mcp: HTTP 500: …`.
 * `target`, when given, is named after the operation for a failure that is not an `McpError` (an
 * `McpError` of a step names its server already: the engine's and every transport's errors do).
 */
export function notSent(operation: string, step: string, error: unknown, target?: string): McpError {
  if (!isMcpError(error)) {
    const subject = target === undefined ? operation : `${operation} on ${target}`;
    return new McpError('transport', `${subject}: ${step}`, {
      delivery: 'not_sent',
      cause: error,
    });
  }
  if (error.kind === 'config') return error; // a bad config or argument: nothing to add
  const options: McpErrorOptions = { delivery: 'not_sent', cause: error };
  if (error.code !== undefined) options.code = error.code;
  if (error.data !== undefined) options.data = error.data;
  if (error.status !== undefined) options.status = error.status;
  if (error.challenge !== undefined) options.challenge = error.challenge;
  if (error.stderrTail !== undefined) options.stderrTail = error.stderrTail;
  if (error.exit !== undefined) options.exit = error.exit;
  if (error.target !== undefined) options.target = error.target;
  // The step's own message says what became of its request, and names the server it failed on (every
  // request's error does): only a foreign failure is told where. Its `delivery` stays on `cause`.
  return new McpError(error.kind, `${operation}: ${step}: ${error.message}`, options);
}
