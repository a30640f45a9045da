/**
 * The OS credential store as a `CredentialStore`: Windows Credential Manager, the macOS Keychain, or
 * the Secret Service on Linux (pinned: never the kernel keyring the binding would fall back to). One
 * item per key, under the service `autos-mcp/<name>`, holding the value as JSON. Every call runs in
 * a child process with a deadline (keyring-runner.ts); locks are files in the config directory, since
 * the OS stores have none. A store that is not there fails with an error that names the fix.
 */
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { McpError } from '../errors/index.js';
import { KeyringFailure, type KeyringRequest, KeyringRunner } from './keyring-runner.js';
import { withFileLock } from './lock.js';
import { configDir } from './paths.js';
import type { CredentialStore, LockOptions, StoredValue } from './types.js';

const NAME = /^(?!\.)[A-Za-z0-9._-]{1,64}$/;
/** Largest value kept in one item (the OS stores have limits of their own; Windows: 2.5 KiB per blob). */
export const MAX_KEYRING_VALUE_CHARS = 1024 * 1024;

export interface KeyringStoreOptions {
  /** Deadline of one store call (default 10 s). */
  readonly timeoutMs?: number;
  /** Where lock files go (default: the user's config directory). */
  readonly lockDir?: string;
  /**
   * The other way to keep these values, named in the error when the OS credential store is not available
   * (default: "choose the plaintext file backend by name"); the CLI names the setting that selects its file.
   */
  readonly otherwise?: string;
}

const PLATFORM_STORE =
  process.platform === 'win32'
    ? 'Windows Credential Manager'
    : process.platform === 'darwin'
      ? 'the macOS Keychain'
      : 'the Secret Service (D-Bus)';

let shared: KeyringRunner | undefined;
const runners = new Map<number, KeyringRunner>();

function runnerFor(timeoutMs: number | undefined): KeyringRunner {
  if (timeoutMs === undefined) {
    shared ??= new KeyringRunner();
    return shared;
  }
  let runner = runners.get(timeoutMs);
  if (runner === undefined) {
    runner = new KeyringRunner(timeoutMs);
    runners.set(timeoutMs, runner);
  }
  return runner;
}

/** Ends the helper processes of every keyring store (they end with the process anyway). */
export function closeKeyringStores(): void {
  shared?.close();
  shared = undefined;
  for (const runner of runners.values()) runner.close();
  runners.clear();
}

export function keyringStore(name: string, options: KeyringStoreOptions = {}): CredentialStore {
  if (typeof name !== 'string' || !NAME.test(name))
    throw new McpError(
      'config',
      'a store name is 1-64 characters of A-Z a-z 0-9 . _ - and does not start with "."',
    );
  const service = `autos-mcp/${name}`;
  const runner = runnerFor(options.timeoutMs);
  const lockDir = options.lockDir ?? join(configDir(), 'locks');

  const call = async (request: KeyringRequest): Promise<unknown> => {
    try {
      return await runner.call(request);
    } catch (error) {
      if (error instanceof KeyringFailure) throw unavailable(error, options.otherwise);
      throw error;
    }
  };

  return {
    description: `${PLATFORM_STORE}, service ${service}`,
    async get(key) {
      const text = await call({ op: 'get', service, account: key });
      if (text === null || text === undefined) return undefined;
      let value: unknown;
      try {
        value = JSON.parse(String(text));
      } catch {
        value = undefined;
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        throw new McpError(
          'config',
          `the value of "${shownKey(key)}" in ${PLATFORM_STORE} (service ${service}) is corrupt: remove it and save it again`,
        );
      return value as StoredValue;
    },
    async set(key, value) {
      let text: string;
      try {
        text = JSON.stringify(value);
      } catch {
        throw new McpError('config', `the value for "${shownKey(key)}" cannot be saved as JSON`);
      }
      if (text.length > MAX_KEYRING_VALUE_CHARS)
        throw new McpError(
          'too_large',
          `the value for "${shownKey(key)}" is over ${MAX_KEYRING_VALUE_CHARS / 1024} KiB`,
        );
      await call({ op: 'set', service, account: key, secret: text });
    },
    async delete(key) {
      await call({ op: 'delete', service, account: key });
    },
    async keys(prefix = '') {
      const accounts = (await call({ op: 'list', service })) as unknown;
      if (!Array.isArray(accounts)) return [];
      return [
        ...new Set(accounts.filter((a): a is string => typeof a === 'string' && a.startsWith(prefix))),
      ].sort();
    },
    async withLock<T>(key: string, work: () => Promise<T>, lockOptions?: LockOptions): Promise<T> {
      await mkdir(lockDir, { recursive: true, mode: 0o700 });
      const hash = createHash('sha256').update(`${service}\n${key}`).digest('hex').slice(0, 16);
      return withFileLock(join(lockDir, `${name}.${hash}.lock`), work, lockOptions);
    },
  };
}

/** A key for a message: store keys can hold URLs, never secrets; cut and without control characters. */
function shownKey(key: string): string {
  return key.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?').slice(0, 120);
}

function unavailable(
  failure: KeyringFailure,
  otherwise = 'choose the plaintext file backend by name',
): McpError {
  const fix =
    process.platform === 'linux'
      ? 'start a Secret Service (e.g. gnome-keyring) on the session D-Bus and unlock it'
      : process.platform === 'darwin'
        ? 'unlock the login keychain'
        : 'check that Windows Credential Manager is available';
  return new McpError(
    'config',
    `${PLATFORM_STORE} is not available (${failure.message.slice(0, 200)}): ${fix}, or ${otherwise}`,
    { cause: failure },
  );
}
