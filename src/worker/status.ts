/**
 * What `status(id)` returns: small plain data about one worker, safe to log and show. It never holds the
 * config, arguments or results; the server's self-reported identity is cut short and cleaned of control
 * and bidi characters and of anything the redactor recognises as a secret (it is for display only).
 */
import { redactStable } from '../errors/data.js';
import type { Delivery, ErrorKind } from '../errors/index.js';

/** The life of a worker: `opening` → `ready` → (`failed`) → `closed`. */
export type WorkerState = 'opening' | 'ready' | 'failed' | 'closed';

/** The server's self-reported identity, bounded and sanitized, for display only. */
export interface WorkerServer {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
}

/** The last failure of a worker: what went wrong, never arguments or results. */
export interface WorkerFailure {
  readonly kind: ErrorKind;
  readonly delivery: Delivery;
  /** The error message, redacted and cut to 300 characters. */
  readonly message: string;
  /** `Date.now()` when it happened. */
  readonly at: number;
}

/** What the cleanup of a worker found (present once a close has run). */
export interface WorkerCleanup {
  /** Server processes still alive after the last attempt; `close` succeeds only when it is 0. */
  readonly activeProcesses: number;
  /** How the server process ended (see `ProcessReport.ended`). */
  readonly ended: string;
  /** Late answers the client dropped (requests that had timed out or were cancelled). */
  readonly lateResponsesDropped: number;
  /** Close attempts so far. */
  readonly attempts: number;
}

/** The status of one worker. */
export interface WorkerStatus {
  readonly id: string;
  readonly state: WorkerState;
  /** A close has started: calls are refused. */
  readonly closing: boolean;
  /** A request is running. */
  readonly busy: boolean;
  /** The id of the running request (for `cancel`), when busy. */
  readonly requestId: string | undefined;
  /** The server's process id (stdio servers). */
  readonly pid: number | undefined;
  /** The worker thread's `threadId`. */
  readonly threadId: number;
  /** The protocol revision in use, once connected. */
  readonly protocolVersion: string | undefined;
  /** The server's identity, for display. */
  readonly server: WorkerServer | undefined;
  /** The last failure (a failed open, a transport or protocol failure, a failed cleanup). */
  readonly lastFailure: WorkerFailure | undefined;
  /** What the last close found, once one ran. */
  readonly cleanup: WorkerCleanup | undefined;
}

const IDENTITY_MAX = 100;
const FAILURE_MESSAGE_MAX = 300;
// C0/C1 controls, bidi overrides and isolates, zero-width characters, line/paragraph separators.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;

/** A server-provided text made safe to display: cleaned, redacted, bounded (`''` for a non-string). */
export function displayText(value: unknown, max = IDENTITY_MAX): string {
  if (typeof value !== 'string') return '';
  return redactStable(value.replace(UNSAFE, ' ').trim(), max);
}

/** The server identity of a status, from what the client reports. */
export function serverIdentity(
  info: { name?: unknown; version?: unknown; title?: unknown } | undefined,
): WorkerServer | undefined {
  if (info === undefined) return undefined;
  const title = displayText(info.title);
  return {
    name: displayText(info.name),
    version: displayText(info.version),
    ...(title === '' ? {} : { title }),
  };
}

/** A failure for a status, from an error's data. */
export function failureOf(error: { kind: ErrorKind; delivery: Delivery; message: string }): WorkerFailure {
  return {
    kind: error.kind,
    delivery: error.delivery,
    message: displayText(error.message, FAILURE_MESSAGE_MAX),
    at: Date.now(),
  };
}
