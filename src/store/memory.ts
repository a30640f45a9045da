/**
 * The in-process credential store: a map that lives as long as the process, for tests and for callers
 * that persist nothing. Values are deep-copied on the way in and out, so no caller can change what is
 * stored; `withLock` is a FIFO mutex per key (a holder cannot die without the process, so nothing is stale).
 */
import { McpError } from '../errors/index.js';
import { KeyedMutex, lockTimes } from './lock.js';
import type { CredentialStore, LockOptions, StoredValue } from './types.js';

/** A new, empty store held in this process's memory. */
export function memoryStore(): CredentialStore {
  const entries = new Map<string, StoredValue>();
  const mutex = new KeyedMutex();
  return {
    description: 'memory',
    async get(key) {
      const value = entries.get(key);
      return value === undefined ? undefined : structuredClone(value);
    },
    async set(key, value) {
      entries.set(key, copyIn(value));
    },
    async delete(key) {
      entries.delete(key);
    },
    async keys(prefix = '') {
      return [...entries.keys()].filter((key) => key.startsWith(prefix)).sort();
    },
    async withLock<T>(key: string, work: () => Promise<T>, options: LockOptions = {}): Promise<T> {
      const { timeoutMs } = lockTimes(options, 'a key of the memory store');
      const release = await mutex.acquire(
        key,
        timeoutMs,
        () =>
          new McpError('timeout', `timed out after ${timeoutMs} ms waiting for a lock of the memory store`, {
            delivery: 'not_sent',
          }),
      );
      try {
        return await work();
      } finally {
        release();
      }
    },
  };
}

/** A deep copy of `value`; a config error (that never shows the value) when it is not a plain object. */
function copyIn(value: StoredValue): StoredValue {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new McpError('config', 'memory store: a stored value must be a plain object', {
      delivery: 'not_sent',
    });
  try {
    return structuredClone(value);
  } catch {
    throw new McpError('config', 'memory store: a stored value must be plain data (it cannot be copied)', {
      delivery: 'not_sent',
    });
  }
}
