/**
 * The one reconnect policy of the HTTP transport, for the 2025-11-25 response-stream resumption (GET +
 * `Last-Event-ID`) and for the GET listening stream. Pure: no timers, no I/O; the random source is
 * injectable so tests can pin the jitter.
 *
 * - The first reconnect after progress waits the server's `retry` (S25/basic/transports: the client MUST
 *   wait it), raised to {@link RECONNECT_FLOOR_MS} and capped at {@link RECONNECT_CAP_MS}; without a
 *   `retry`, {@link DEFAULT_RECONNECT_MS}.
 * - Each further reconnect without progress doubles the ceiling (equal jitter: half fixed, half random),
 *   never below that first delay and never above the cap.
 * - Progress — a stream that delivered a message, or stayed open {@link STABLE_STREAM_MS} — resets both
 *   the delay and the budget. A priming event (an id with empty data) is not progress: a server that hands
 *   out a fresh id and ends the stream at once must not keep us reconnecting.
 * - A budget: after that many reconnects in a row without progress, the caller gives up.
 */

/** The shortest wait between reconnects, even when the server says `retry: 0`. */
export const RECONNECT_FLOOR_MS = 100;
/** The longest wait between reconnects; a larger server `retry` is capped to it. */
export const RECONNECT_CAP_MS = 60_000;
/** The first wait when the stream set no `retry` (S25/basic/transports leaves the default to us). */
export const DEFAULT_RECONNECT_MS = 1000;
/** A stream open this long counts as progress even without a message (an idle stream cut by a proxy). */
export const STABLE_STREAM_MS = 10_000;
/** Resumptions of one call's response stream in a row that bring nothing before the call fails. */
export const RESUME_BUDGET = 3;
/** Reconnects of the GET listening stream in a row that bring nothing before it is given up. */
export const LISTEN_BUDGET = 5;

/**
 * The wait before reconnect number `attempt` (0 for the first since the last progress), in whole ms.
 * `random` returns a number in [0, 1).
 */
export function reconnectDelay(
  attempt: number,
  serverRetry: number | undefined,
  random: () => number,
): number {
  const first = clamp(serverRetry ?? DEFAULT_RECONNECT_MS, RECONNECT_FLOOR_MS, RECONNECT_CAP_MS);
  const ceiling = Math.min(RECONNECT_CAP_MS, first * 2 ** Math.max(0, attempt));
  const jittered = ceiling / 2 + clamp(random(), 0, 1) * (ceiling / 2);
  return Math.round(clamp(jittered, first, ceiling));
}

/** Whether an ended stream made progress: it delivered a message, or it stayed open long enough. */
export function madeProgress(delivered: boolean, openMs: number): boolean {
  return delivered || openMs >= STABLE_STREAM_MS;
}

export interface ReconnectOptions {
  /** Reconnects in a row without progress that are allowed; the next one is refused. */
  budget: number;
  /** Source of jitter in [0, 1); default `Math.random`. */
  random?: () => number;
}

/** Reconnect bookkeeping for one stream (a call's resumption, or the listening stream). */
export class Reconnect {
  private readonly budget: number;
  private readonly random: () => number;
  private fruitless = 0;

  constructor(options: ReconnectOptions) {
    this.budget = options.budget;
    this.random = options.random ?? Math.random;
  }

  /** Reconnects made since the last progress. */
  get attempts(): number {
    return this.fruitless;
  }

  /** Reports how the last stream went; progress resets the delay and the budget. */
  ended(progressed: boolean): void {
    if (progressed) this.fruitless = 0;
  }

  /**
   * The wait before the next reconnect, counting it; `undefined` once the budget is spent (give up).
   * `serverRetry` is the stream's last `retry:` value, if any.
   */
  next(serverRetry: number | undefined): number | undefined {
    if (this.fruitless >= this.budget) return undefined;
    const delay = reconnectDelay(this.fruitless, serverRetry, this.random);
    this.fruitless++;
    return delay;
  }
}

function clamp(value: number, low: number, high: number): number {
  if (Number.isNaN(value)) return low;
  return Math.min(high, Math.max(low, value));
}
