/**
 * The 2025-11-25 session id: checked when captured from the `initialize` response and sent on every
 * later request. S25/basic/transports "Session Management": visible ASCII (0x21–0x7E) only.
 */
import { McpError } from '../../errors/index.js';

export const SESSION_HEADER = 'mcp-session-id';
/** Longer ids are refused: the spec sets no bound, but an id is echoed on every request. */
export const MAX_SESSION_ID_CHARS = 1024;

/** Returns the session id from a response header value, undefined when absent; throws `protocol` when malformed. */
export function readSessionId(raw: string | string[] | undefined, target: string): string | undefined {
  if (raw === undefined) return undefined;
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined) return undefined;
  if (value.length === 0 || value.length > MAX_SESSION_ID_CHARS || !/^[\x21-\x7e]+$/.test(value)) {
    throw new McpError(
      'protocol',
      `initialize on ${target}: the server sent an invalid Mcp-Session-Id (must be 1–${MAX_SESSION_ID_CHARS} visible ASCII chars)`,
      { delivery: 'delivered' },
    );
  }
  return value;
}
