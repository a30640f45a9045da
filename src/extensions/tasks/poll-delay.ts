/**
 * How long to wait before the next `tasks/get`. The server's `pollIntervalMs` is honoured ("Clients SHOULD
 * respect the pollIntervalMs", SEP-2663 Task Polling) inside a floor and a ceiling: a server that says 0 (or
 * nothing sensible) cannot make the client spin, and one that says an hour is asked again after a minute
 * (the call's deadline bounds the whole wait anyway). Pure.
 */

/** Never poll more often than this, whatever the server says, in ms. */
export const POLL_FLOOR_MS = 100;
/** Never wait longer than this between polls, in ms. */
export const POLL_CEILING_MS = 60_000;
/** The wait when the server gives no `pollIntervalMs`, in ms. */
export const POLL_DEFAULT_MS = 1_000;
/** Most `tasks/get` one call sends; past it the task is cancelled and the call fails (`protocol`). */
export const MAX_POLLS = 10_000;

/** The wait before the next poll for a server-suggested interval (any value, as sent). */
export function pollDelay(suggested: unknown): number {
  if (typeof suggested !== 'number' || !Number.isFinite(suggested)) return POLL_DEFAULT_MS;
  return Math.min(POLL_CEILING_MS, Math.max(POLL_FLOOR_MS, Math.ceil(suggested)));
}
