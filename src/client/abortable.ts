/** Waiting on a shared promise with a caller's own signal. */
import { McpError } from '../errors/index.js';

/** Waits for `promise`, or rejects at once with `cancelled` when `signal` aborts (the promise goes on). */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(new McpError('cancelled', 'cancelled by the caller'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new McpError('cancelled', 'cancelled by the caller'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
