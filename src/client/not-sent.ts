/**
 * The error for an operation that never left because a step before it failed (connecting, the implicit
 * `tools/list` of a 2026 call): `delivery: 'not_sent'` for the operation the caller asked for, with the
 * step's own error — and its delivery — kept as `cause` and in the message.
 */
import { isMcpError, McpError, type McpErrorOptions } from '../errors/index.js';

export function notSent(operation: string, step: string, error: unknown): McpError {
  if (!isMcpError(error)) {
    return new McpError('transport', `${operation} was not sent: ${step}`, {
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
  // The step's own message says what became of its request; its `delivery` stays on `cause`.
  return new McpError(error.kind, `${operation} was not sent: ${step}: ${error.message}`, options);
}
