/**
 * Where OAuth keeps what it learns: client registrations, tokens, DPoP keys. A small interface so the
 * backend can change (memory today, a file, the OS credential store of autos-mcp/settings later)
 * without the flow knowing. Values are plain JSON data; they hold secrets, so a backend never logs them
 * and never puts them in an error message.
 */

/** A JSON value as stored: objects of strings, numbers, booleans, arrays and nested objects. */
export type StoredValue = { readonly [key: string]: unknown };

export interface LockOptions {
  /** How long to wait for the lock before failing with `kind: 'timeout'` (default 10 s). */
  readonly timeoutMs?: number;
  /** A holder that has not finished after this long is presumed dead and its lock broken (default 30 s). */
  readonly staleMs?: number;
}

export interface CredentialStore {
  /** A short description for messages ("memory", "file ~/.config/autos-mcp/oauth/work.json"): never a secret. */
  readonly description: string;
  /** The value under `key`, or `undefined`. Always read from the backend, never from a cache, so a waiter sees the winner's write. */
  get(key: string): Promise<StoredValue | undefined>;
  /** Replaces the value under `key` (atomically: a reader never sees half a write). */
  set(key: string, value: StoredValue): Promise<void>;
  /** Removes `key`; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Every key that starts with `prefix`. */
  keys(prefix?: string): Promise<string[]>;
  /**
   * Runs `work` while holding an exclusive lock named `key`, across every caller in this process and
   * every process that shares the store. Waits at most `timeoutMs`, breaks a stale lock, and always
   * releases, whatever `work` does.
   */
  withLock<T>(key: string, work: () => Promise<T>, options?: LockOptions): Promise<T>;
}
