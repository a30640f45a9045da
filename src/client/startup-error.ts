/**
 * The error `connect()` rejects with when the connect phase failed: one sentence about the server's
 * startup (it exited, it stayed silent) naming the handshake step it did not answer, with its stderr tail.
 */
import { type AnyMcpError, isMcpError, McpError, type McpErrorOptions } from '../errors/index.js';
import { boundedTail } from '../internal/redact.js';
import type { ConnectionCloseReport } from '../transport/connection.js';

/** The stderr tail a connect error carries, at most this many characters (the close report keeps more). */
const ERROR_TAIL_CHARS = 8 * 1024;

/** What `connect()` knows when the connect phase failed. */
export interface StartupFacts {
  target: string;
  /** The server's pid, when the connection runs a local process. */
  pid: number | undefined;
  /** Why the connection ended by itself (the server exited, …), if it did. */
  failure: McpError | undefined;
  /** What the connection tolerated (skipped stdout lines), as a clause; '' when nothing. */
  note: string;
  report: ConnectionCloseReport | undefined;
  /** The handshake methods sent, in order. */
  steps: readonly string[];
  connectMs: number;
  /** This was the server's second start: its first ended on `auto`'s `server/discover` probe. */
  restarted: boolean;
}

/** Said of a failed second start, so the first is not a mystery. */
const RESTARTED = ' (its second start, in legacy mode: the first ended on the server/discover probe)';

/**
 * The error `connect()` rejects with: one sentence about the server's startup where that is what went
 * wrong, and `delivery` about the caller's operation — `not_sent` unless the server answered
 * (`delivered`), since only the handshake left. The handshake's own error stays the `cause`.
 */
export function startupError(error: unknown, facts: StartupFacts): unknown {
  if (!isMcpError(error) || error.kind === 'config') return error;
  const step = facts.steps.at(-1);
  const again = facts.restarted ? RESTARTED : '';
  // The server process exited (the write found the pipe broken, or every pending call was told): the
  // exit, said the same way.
  const exit = [error, error.cause].find((e): e is AnyMcpError => isMcpError(e) && e.exit !== undefined);
  if (exit !== undefined && step !== undefined) {
    return new McpError('closed', `${exit.message}, before it answered ${step}${again}`, {
      delivery: 'not_sent',
      cause: error,
      target: facts.target,
      ...(exit.exit === undefined ? {} : { exit: exit.exit }),
      ...(exit.stderrTail === undefined ? {} : { stderrTail: exit.stderrTail }),
    });
  }
  if (error.delivery !== 'unknown') return error;
  const tail = facts.failure?.stderrTail ?? error.stderrTail ?? facts.report?.process?.stderrTail;
  const options: McpErrorOptions = { delivery: 'not_sent', cause: error };
  if (tail) options.stderrTail = boundedTail(tail, ERROR_TAIL_CHARS);
  if (error.code !== undefined) options.code = error.code;
  if (error.status !== undefined) options.status = error.status;
  if (error.data !== undefined) options.data = error.data;
  const who = facts.pid === undefined ? facts.target : `${facts.target} (pid ${facts.pid})`;
  if (facts.failure?.exit !== undefined) options.exit = facts.failure.exit;
  if (facts.failure?.kind === 'closed' && step !== undefined) {
    // `node x.mjs (pid 7) exited during startup with code 2, before it answered initialize`
    return new McpError('closed', `${facts.failure.message}, before it answered ${step}${again}`, options);
  }
  if (error.kind === 'timeout' && facts.failure === undefined && facts.steps.length > 0) {
    const running = facts.pid === undefined ? '' : ' is running but';
    const within = Number.isFinite(facts.connectMs) ? ` within ${Math.round(facts.connectMs)} ms` : '';
    const what = facts.steps.join(' or ');
    return new McpError(
      'timeout',
      `${who}${running} did not answer ${what}${within}${facts.note}${again}`,
      options,
    );
  }
  return new McpError(error.kind, `${error.message}${again}`, options);
}
