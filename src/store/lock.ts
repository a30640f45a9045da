/**
 * Locks of the credential stores: `KeyedMutex`, a FIFO async mutex per key inside one process, and
 * `withFileLock`, an exclusive lock across processes held as a file created with `O_EXCL` that records
 * `{pid, host, acquiredAt, token}`. Callers in one process queue on the mutex; other processes are waited
 * for by jittered polling, bounded by `timeoutMs`. A lock whose holder is dead (same host, pid gone) or
 * older than `staleMs` is broken. Every removal of a lock file (a release, a break) happens under a short
 * second lock, `<lock>.break`, and re-reads the file first, so two waiters cannot both break one lock and
 * both acquire, and a release never removes a lock that is no longer its own.
 */
import { randomUUID } from 'node:crypto';
import { link, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, resolve } from 'node:path';
import { McpError } from '../errors/index.js';
import { displayPath } from './paths.js';
import type { LockOptions } from './types.js';

export const DEFAULT_LOCK_TIMEOUT_MS = 10_000;
export const DEFAULT_STALE_MS = 30_000;

/** Longest delay `setTimeout` honours (a longer one fires at once). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** What a lock file holds. */
interface Holder {
  readonly pid: number;
  readonly host: string;
  readonly acquiredAt: number;
  readonly token: string;
}

/** A FIFO mutex per key, in this process. */
export class KeyedMutex {
  /** Keys held, each with the queue of its waiters (a waiter is handed the lock directly). */
  readonly #queues = new Map<string, Array<() => void>>();

  /** Waits (at most `timeoutMs`) for `key`; resolves with the release function, or rejects with `onTimeout()`. */
  acquire(key: string, timeoutMs: number, onTimeout: () => Error): Promise<() => void> {
    const release = once(() => {
      const queue = this.#queues.get(key);
      const next = queue?.shift();
      if (next) next();
      else this.#queues.delete(key);
    });
    const queue = this.#queues.get(key);
    if (!queue) {
      this.#queues.set(key, []);
      return Promise.resolve(release);
    }
    return new Promise((resolve, reject) => {
      const grant = (): void => {
        clearTimeout(timer);
        resolve(release);
      };
      const timer = setTimeout(
        () => {
          const at = queue.indexOf(grant);
          if (at >= 0) queue.splice(at, 1);
          reject(onTimeout());
        },
        Math.min(timeoutMs, MAX_TIMER_MS),
      );
      queue.push(grant);
    });
  }
}

/** `timeoutMs` and `staleMs` with their defaults; a config error (naming `what`) when one is not a number ≥ 0. */
export function lockTimes(options: LockOptions, what: string): { timeoutMs: number; staleMs: number } {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  for (const [key, value] of [
    ['timeoutMs', timeoutMs],
    ['staleMs', staleMs],
  ] as const) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
      throw new McpError('config', `locking ${what}: ${key} must be a finite number of ms ≥ 0`, {
        delivery: 'not_sent',
      });
  }
  return { timeoutMs, staleMs };
}

/** The in-process queue in front of every file lock, keyed by the lock's absolute path. */
const inProcess = new KeyedMutex();

export interface FileLockOptions extends LockOptions {
  /** The clock, in ms since the epoch (tests). */
  readonly now?: () => number;
  /** Waits `ms` (tests). */
  readonly sleep?: (ms: number) => Promise<void>;
}

interface Clock {
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
}

/**
 * Runs `work` holding the lock file `lockPath` (its directory must exist): waits at most `timeoutMs`
 * (default 10 s) and then throws an `McpError` of kind `timeout`, breaks a lock whose holder is dead or
 * older than `staleMs` (default 30 s), and always releases, whatever `work` does.
 */
export async function withFileLock<T>(
  lockPath: string,
  work: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const path = resolve(lockPath);
  const { timeoutMs, staleMs } = lockTimes(options, `the lock file ${shownLock(path)}`);
  const clock: Clock = { now: options.now ?? Date.now, sleep: options.sleep ?? delay };
  const deadline = clock.now() + timeoutMs;
  const timedOut = (holder?: Holder): McpError =>
    new McpError(
      'timeout',
      `timed out after ${timeoutMs} ms waiting for the lock file ${shownLock(path)}` +
        (holder ? ` (held by pid ${holder.pid} on ${holder.host})` : ''),
      { delivery: 'not_sent' },
    );
  const releaseInProcess = await inProcess.acquire(path, timeoutMs, () => timedOut());
  try {
    const token = randomUUID();
    await acquireFile(path, token, deadline, staleMs, clock, timedOut);
    try {
      return await work();
    } finally {
      await releaseFile(path, token, clock, timeoutMs, staleMs);
    }
  } finally {
    releaseInProcess();
  }
}

async function acquireFile(
  path: string,
  token: string,
  deadline: number,
  staleMs: number,
  clock: Clock,
  timedOut: (holder?: Holder) => McpError,
): Promise<void> {
  for (;;) {
    if (await createExclusive(path, { pid: process.pid, host: hostname(), acquiredAt: clock.now(), token }))
      return;
    const seen = await readHolder(path);
    if (seen === 'missing') continue;
    if (isStale(seen, staleMs, clock.now())) {
      // Re-read under the break lock: another waiter may have broken it and taken the lock already.
      const broken = await underBreakLock(path, deadline, staleMs, clock, async () => {
        const current = await readHolder(path);
        if (current !== 'missing' && isStale(current, staleMs, clock.now())) await removeFile(path);
      });
      if (broken) continue;
    }
    const left = deadline - clock.now();
    if (left <= 0) throw timedOut(seen.holder);
    await clock.sleep(Math.min(left, 10 + Math.random() * 40));
  }
}

/** Removes the lock file if it still holds `token` (under the break lock; directly if that cannot be had). */
async function releaseFile(
  path: string,
  token: string,
  clock: Clock,
  timeoutMs: number,
  staleMs: number,
): Promise<void> {
  const removeIfOurs = async (): Promise<void> => {
    const current = await readHolder(path);
    if (current !== 'missing' && current.holder?.token === token) await removeFile(path);
  };
  const done = await underBreakLock(path, clock.now() + timeoutMs, staleMs, clock, removeIfOurs);
  if (!done) await removeIfOurs();
}

/**
 * Runs `fn` holding `<path>.break`, the lock every removal of `path` takes. It is held for a read and an
 * unlink only, so it is polled briefly; one left by a dead process is broken by renaming it aside and
 * checking it was the one seen. Resolves `false` when it could not be had before `deadline`.
 */
async function underBreakLock(
  path: string,
  deadline: number,
  staleMs: number,
  clock: Clock,
  fn: () => Promise<void>,
): Promise<boolean> {
  const breakPath = `${path}.break`;
  const token = randomUUID();
  for (;;) {
    const holder = { pid: process.pid, host: hostname(), acquiredAt: clock.now(), token };
    if (await createExclusive(breakPath, holder)) break;
    const seen = await readHolder(breakPath);
    if (seen !== 'missing' && isStale(seen, staleMs, clock.now())) await breakAside(breakPath, seen.raw);
    const left = deadline - clock.now();
    if (left <= 0) return false;
    await clock.sleep(Math.min(left, 1 + Math.random() * 4));
  }
  try {
    await fn();
  } finally {
    const current = await readHolder(breakPath);
    if (current !== 'missing' && current.holder?.token === token) await removeFile(breakPath);
  }
  return true;
}

/** Removes `path` if it still holds `raw`: renamed to a unique name, checked, and put back if it changed. */
async function breakAside(path: string, raw: string): Promise<void> {
  const aside = `${path}.${randomUUID()}.stale`;
  try {
    await rename(path, aside);
  } catch (error) {
    if (code(error) === 'ENOENT') return;
    throw lockError('break', path, error);
  }
  try {
    if ((await readFile(aside, 'utf8')) !== raw) await link(aside, path).catch(() => undefined);
  } finally {
    await unlink(aside).catch(() => undefined);
  }
}

/** Creates `path` exclusively (mode 0600) holding `holder`; `false` when it exists. */
async function createExclusive(path: string, holder: Holder): Promise<boolean> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'wx', 0o600);
  } catch (error) {
    if (code(error) === 'EEXIST') return false;
    throw lockError('create', path, error);
  }
  try {
    await handle.writeFile(JSON.stringify(holder));
    await handle.close();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(path).catch(() => undefined);
    throw lockError('write', path, error);
  }
  return true;
}

interface Seen {
  /** The file's text, compared before a break. */
  readonly raw: string;
  /** The holder, when the file is well formed (it is empty for a moment after its creation). */
  readonly holder: Holder | undefined;
  readonly mtimeMs: number;
}

async function readHolder(path: string): Promise<Seen | 'missing'> {
  try {
    const [raw, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
    return { raw, holder: parseHolder(raw), mtimeMs: info.mtimeMs };
  } catch (error) {
    if (code(error) === 'ENOENT') return 'missing';
    throw lockError('read', path, error);
  }
}

function parseHolder(raw: string): Holder | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return undefined;
    const { pid, host, acquiredAt, token } = value as Record<string, unknown>;
    if (!Number.isSafeInteger(pid) || typeof pid !== 'number' || pid <= 0) return undefined;
    if (typeof host !== 'string' || typeof token !== 'string') return undefined;
    if (typeof acquiredAt !== 'number' || !Number.isFinite(acquiredAt)) return undefined;
    return { pid, host, acquiredAt, token };
  } catch {
    return undefined;
  }
}

/** A holder is stale when it is a dead process of this host or its lock is older than `staleMs`. */
function isStale(seen: Seen, staleMs: number, now: number): boolean {
  const { holder } = seen;
  if (!holder) return now - seen.mtimeMs > staleMs;
  if (holder.host === hostname() && holder.pid !== process.pid && !processAlive(holder.pid)) return true;
  return Math.abs(now - holder.acquiredAt) > staleMs;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return code(error) !== 'ESRCH';
  }
}

async function removeFile(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if (code(error) !== 'ENOENT') throw lockError('remove', path, error);
  }
}

function lockError(action: string, path: string, cause: unknown): McpError {
  return new McpError('config', `cannot ${action} the lock file ${shownLock(path)} (${code(cause)})`, {
    delivery: 'not_sent',
    cause,
  });
}

/**
 * A lock file for messages: its name, then its directory. Apart, as the redactor masks a whole path that
 * has a long segment mixing letters and digits, as a lock file named by a hash does.
 */
function shownLock(path: string): string {
  return `${basename(path)} in ${displayPath(dirname(path))}`;
}

function code(error: unknown): string {
  const value = (error as { code?: unknown } | null)?.code;
  return typeof value === 'string' ? value : 'unknown error';
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
