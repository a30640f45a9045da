/** `CloseReport`: what `Client.close()` found (kept out of client.ts to keep that file small). */
import type { ProcessReport } from '../transport/connection.js';

/** What `close()` found: late answers dropped, and for a local server process how it ended. */
export interface CloseReport {
  /** Late answers (to requests that had timed out or were cancelled) that were dropped. */
  lateResponsesDropped: number;
  /** The local server process, when the connection ran one: how it ended and whether anything is left. */
  process?: ProcessReport;
  /**
   * Present when the server was started twice: under `auto` its first process ended on the
   * `server/discover` probe (as servers on the Rust SDK do before `initialize`), and it was started once
   * more in legacy mode. How that first process ended; no call of the caller's went to it.
   */
  probeRestart?: ProcessReport;
}
