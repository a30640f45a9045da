/**
 * The one time source of the code that reasons about time it does not itself wait out: token expiry, the
 * refresh before it, the device login's poll interval and deadline. The default is the system's; a test
 * hands in its own (the internal `clock` option) and moves it, instead of sleeping until a token expires.
 */

export interface Clock {
  /** Milliseconds since the epoch, as `Date.now()`. */
  now(): number;
  /**
   * Resolves after `ms`; rejects with the signal's reason once `signal` aborts (at once if it already has),
   * leaving no timer behind.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Wall time and real timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep(ms, signal) {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  },
};
