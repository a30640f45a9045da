/**
 * Waiting in tests without guessing a delay: poll a condition until it holds, or wait for the event a
 * fixture or test server signals. Every wait is bounded and, on timeout, says what it waited for.
 */
import type { EventEmitter } from 'node:events';

export interface WaitOptions {
  /** How long to wait before failing. Default 5000 ms. */
  timeoutMs?: number;
  /** How often a condition is checked. Default 10 ms. */
  intervalMs?: number;
  /** What is awaited, for the timeout message (e.g. `'the GET request'`). */
  what?: string;
}

function describe(value: unknown): string {
  if (value instanceof Error) return value.message;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Polls `check` until it returns a value other than `undefined`, `null` or `false` (a check that throws or
 * rejects counts as not yet), and resolves with that value. After `timeoutMs` it rejects with an error
 * naming `what` and the last value or error the check gave.
 */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  options: WaitOptions = {},
): Promise<Exclude<T, undefined | null | false>> {
  const { timeoutMs = 5000, intervalMs = 10, what = 'a condition' } = options;
  const deadline = Date.now() + timeoutMs;
  let last = 'nothing yet';
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== null && value !== false)
        return value as Exclude<T, undefined | null | false>;
      last = `value ${describe(value)}`;
    } catch (error) {
      last = `error ${describe(error)}`;
    }
    if (Date.now() >= deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last ${last}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Like {@link waitFor}, but resolves `true` or `false` instead of throwing, for a caller that asserts itself. */
export function eventually(check: () => unknown, options: WaitOptions = {}): Promise<boolean> {
  return waitFor(() => Boolean(check()), options).then(
    () => true,
    () => false,
  );
}

/** Bounds `promise` by `timeoutMs`: rejects naming `what` if it has not settled by then. */
export function within<T>(promise: Promise<T>, options: Omit<WaitOptions, 'intervalMs'> = {}): Promise<T> {
  const { timeoutMs = 5000, what = 'a promise' } = options;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)),
      timeoutMs,
    );
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** Resolves with the arguments of the next `event` on `emitter`; rejects on `'error'` or after `timeoutMs`. */
export function once(
  emitter: EventEmitter,
  event: string,
  options: Omit<WaitOptions, 'intervalMs'> = {},
): Promise<unknown[]> {
  let listener: ((...args: unknown[]) => void) | undefined;
  let onError: ((error: unknown) => void) | undefined;
  const seen = new Promise<unknown[]>((resolve, reject) => {
    listener = (...args) => resolve(args);
    onError = reject;
    emitter.once(event, listener);
    if (event !== 'error') emitter.once('error', onError);
  });
  const done = () => {
    if (listener) emitter.off(event, listener);
    if (onError) emitter.off('error', onError);
  };
  return within(seen, { what: `'${event}'`, ...options }).finally(done);
}

/**
 * A signal a test hands to a fixture callback (a log line, a request the test server saw): the callback
 * calls `resolve`, the test awaits `wait()`, which is bounded like {@link within}.
 */
export function signal<T = void>(): {
  resolve(value: T): void;
  wait(options?: Omit<WaitOptions, 'intervalMs'>): Promise<T>;
} {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { resolve, wait: (options = {}) => within(promise, { what: 'a signal', ...options }) };
}
