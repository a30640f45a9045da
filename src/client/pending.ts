/**
 * One request waiting for its answer: the settle-once table and the deadline every waiting request has
 * (the client's, and the worker's in its caller's thread), and what only the client's have: the deadline
 * restarted by progress, never past the hard cap of S25/basic/lifecycle "a maximum SHOULD apply", the
 * abort controller that ends its exchange on transports that cancel by abort, and the pool those
 * controllers are reused from.
 */
import { MAX_TIMER_MS } from '../config/durations.js';
import { type RequestTrace, requestFailed } from '../diagnostics/publish.js';
import { McpError } from '../errors/index.js';
import { redact } from '../internal/redact.js';
import type { RequestId } from '../protocol/jsonrpc.js';
import type { Progress } from './call-options.js';

/** What every waiting request has: its deadline timer, a hard cap, and what to detach once it settles. */
export interface Waiting {
  timer: NodeJS.Timeout | undefined;
  /** `Date.now()` past which no deadline is armed; `Infinity` for none. */
  hardDeadline: number;
  /** Removes its listeners (a signal's, a poll); called once, when it settles. */
  detach: () => void;
}

/** A client request waiting for its answer. */
export interface Pending extends Waiting {
  method: string;
  resolve: (result: Record<string, unknown>) => void;
  reject: (error: McpError) => void;
  /** Ends the exchange on abandon, on transports that cancel by abort; undefined elsewhere. */
  controller: AbortController | undefined;
  timeoutMs: number;
  onProgress: ((progress: Progress) => void) | undefined;
  noCancel: boolean;
  /** Its diagnostics events, when someone listened as it started; undefined otherwise. */
  trace: RequestTrace | undefined;
}

/** Rejects a settled request, publishing `request:error` when it is traced. */
export function failPending(pending: Pending, error: McpError): void {
  if (pending.trace !== undefined) requestFailed(pending.trace, error);
  pending.reject(error);
}

/**
 * Requests in flight, by id. Settling removes a request and stops its timer and listeners: whoever settles
 * it first (its answer, its deadline, an abort, the end of the connection) gets it, every later one gets
 * undefined — settle-once by construction.
 */
export class WaitingTable<Id, W extends Waiting> {
  readonly #map = new Map<Id, W>();

  get size(): number {
    return this.#map.size;
  }

  has(id: Id): boolean {
    return this.#map.has(id);
  }

  get(id: Id): W | undefined {
    return this.#map.get(id);
  }

  add(id: Id, waiting: W): void {
    this.#map.set(id, waiting);
  }

  /** A snapshot of the ids in flight (settling while iterating it is safe). */
  ids(): Id[] {
    return [...this.#map.keys()];
  }

  /** Removes the request; undefined when it had already settled (its answer, deadline or abort came first). */
  settle(id: Id): W | undefined {
    const waiting = this.#map.get(id);
    if (waiting === undefined) return undefined;
    this.#map.delete(id);
    if (waiting.timer) clearTimeout(waiting.timer);
    waiting.detach();
    return waiting;
  }
}

/** The client's requests in flight, by JSON-RPC id. */
export class PendingTable extends WaitingTable<RequestId, Pending> {
  /**
   * Every pending request was handed to `send()`: it may have reached the server (`unknown`). Each is
   * told what ended the connection in one sentence: `tools/call failed: node x.mjs (pid 7) exited with
   * code 1` (the cause names the server), else `tools/call on <target> failed: <cause>`.
   */
  rejectAll(cause: McpError, target: string, note = ''): void {
    // A cause about this server (`target`) already names it in its message: not said twice.
    const subject = (method: string): string =>
      cause.target === target ? `${method} failed` : `${method} on ${target} failed`;
    for (const id of this.ids()) {
      const pending = this.settle(id);
      if (pending === undefined) continue;
      pending.controller?.abort(); // ends the exchange too: nothing of a closed connection lingers
      const options = {
        delivery: 'unknown',
        cause,
        target,
        ...(cause.stderrTail ? { stderrTail: cause.stderrTail } : {}),
      } as const;
      failPending(
        pending,
        new McpError(cause.kind, `${subject(pending.method)}: ${cause.message}${note}`, options),
      );
    }
  }
}

/**
 * (Re)starts a request's deadline: `ms` from now, but never past its hard deadline. `Infinity` arms
 * nothing; a wait beyond Node's timer ceiling is taken in steps (Node would fire it after 1 ms).
 */
export function arm(waiting: Waiting, ms: number, expire: () => void): void {
  if (waiting.timer) clearTimeout(waiting.timer);
  waiting.timer = undefined;
  const wait = Math.max(0, Math.min(ms, waiting.hardDeadline - Date.now()));
  if (wait === Number.POSITIVE_INFINITY) return;
  if (wait <= MAX_TIMER_MS) {
    waiting.timer = setTimeout(expire, wait);
    return;
  }
  waiting.timer = setTimeout(() => arm(waiting, wait - MAX_TIMER_MS, expire), MAX_TIMER_MS);
}

/** Reads a progress notification's params; server text is cut and redacted before anyone sees it. */
export function readProgress(params: Record<string, unknown>): Progress | undefined {
  if (typeof params['progress'] !== 'number') return undefined;
  const progress: Progress = { progress: params['progress'] };
  if (typeof params['total'] === 'number') progress.total = params['total'];
  if (typeof params['message'] === 'string') progress.message = redact(params['message'], 1000);
  return progress;
}

/** Unaborted abort controllers kept for reuse; sequential callers need one or two. */
const SPARE_CONTROLLERS = 8;

/**
 * Abort controllers for reuse. On Node 20 a new AbortController with its signal costs ~3 µs, a few
 * percent of a loopback HTTP call. A controller goes back only once it can never fire for its request:
 * the exchange is over (send resolved, so the connection removed its listener) and it was never aborted.
 */
export class ControllerPool {
  readonly #spare: AbortController[] = [];

  take(): AbortController {
    return this.#spare.pop() ?? new AbortController();
  }

  give(controller: AbortController): void {
    if (!controller.signal.aborted && this.#spare.length < SPARE_CONTROLLERS) this.#spare.push(controller);
  }
}
