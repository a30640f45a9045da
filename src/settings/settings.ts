/**
 * Named server configs kept on this machine, full or partial (only the secret `env` values, only an
 * `authToken`, only `headers`…): `save`, `load`, `remove`, `list` over a `CredentialStore`. The default
 * store is the OS credential store; a plaintext file only when asked for by that name; memory for tests.
 * A stored value that is not a config is an error, never ignored, and no error ever shows a value.
 */

import {
  checkPartialConfig,
  fromStoredConfig,
  type PartialServerConfig,
  toStoredConfig,
} from '../config/index.js';
import { McpError } from '../errors/index.js';
import { memoryStore } from '../store/memory.js';
import type { CredentialStore, StoredValue } from '../store/types.js';

export type { PartialServerConfig };

/** Which store settings live in. */
export type SettingsBackend = 'keyring' | 'plaintext-file' | 'memory';

export interface SettingsOptions {
  /** `keyring` (default: the OS credential store), `plaintext-file` (0600 JSON, opt-in), `memory`, or a store of your own. */
  readonly backend?: SettingsBackend | CredentialStore;
  /** `plaintext-file`: the directory (default: the user's config directory). */
  readonly dir?: string;
  /** `keyring`: the deadline of one store call (default 10 s). */
  readonly timeoutMs?: number;
}

export interface Settings {
  /** Where the settings live, for messages ("the Secret Service (D-Bus), service autos-mcp/settings"). */
  readonly description: string;
  save(name: string, config: PartialServerConfig): Promise<void>;
  /** The config saved as `name`; a missing one is an error unless `allowMissing`, then `null`. */
  load(name: string, allowMissing?: boolean): Promise<PartialServerConfig | null>;
  /** Resolves true when there was one. */
  remove(name: string): Promise<boolean>;
  list(): Promise<string[]>;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const KEY = 'config ';

function checkName(name: string): void {
  if (typeof name !== 'string' || !NAME.test(name))
    throw new McpError(
      'config',
      'a settings name is 1-64 characters of A-Z a-z 0-9 . _ - and starts with a letter or digit',
    );
}

async function storeFor(options: SettingsOptions): Promise<CredentialStore> {
  const backend = options.backend ?? 'keyring';
  if (typeof backend === 'object') return backend;
  if (backend === 'memory') return memoryStore();
  if (backend === 'plaintext-file') {
    const { plaintextFileStore } = await import('../store/file.js');
    return plaintextFileStore('settings', options.dir === undefined ? {} : { dir: options.dir });
  }
  if (backend === 'keyring') {
    const { keyringStore } = await import('../store/keyring.js');
    return keyringStore('settings', options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs });
  }
  throw new McpError('config', 'settings backend must be "keyring", "plaintext-file" or "memory"');
}

/** Settings over the chosen backend. Nothing is touched until the first call. */
export function openSettings(options: SettingsOptions = {}): Settings {
  let store: Promise<CredentialStore> | undefined;
  const opened = (): Promise<CredentialStore> => {
    store ??= storeFor(options);
    return store;
  };
  const backend = options.backend ?? 'keyring';
  const described =
    typeof backend === 'object'
      ? backend.description
      : backend === 'keyring'
        ? 'the OS credential store (keyring service autos-mcp/settings)'
        : backend === 'plaintext-file'
          ? `a plaintext file (settings.json${options.dir === undefined ? ' in the user config directory' : ''})`
          : 'memory';
  return {
    description: described,
    async save(name, config) {
      checkName(name);
      const checked = checkPartialConfig(config, `settings "${name}"`);
      await (await opened()).set(`${KEY}${name}`, toStoredConfig(checked) as StoredValue);
    },
    async load(name, allowMissing = false) {
      checkName(name);
      const value = await (await opened()).get(`${KEY}${name}`);
      if (value === undefined) {
        if (allowMissing) return null;
        throw new McpError(
          'config',
          `no settings named "${name}" (save them first: autos-mcp settings set ${name} …)`,
        );
      }
      try {
        return checkPartialConfig(fromStoredConfig(value), `settings "${name}"`);
      } catch (error) {
        throw new McpError(
          'config',
          `the stored settings "${name}" are corrupt: ${(error as Error).message}`,
          { cause: error },
        );
      }
    },
    async remove(name) {
      checkName(name);
      const s = await opened();
      // A corrupt value is removed too; a missing one touches nothing (no directory or lock is created).
      const had = (await s.get(`${KEY}${name}`).catch(() => ({}))) !== undefined;
      if (had) await s.delete(`${KEY}${name}`);
      return had;
    },
    async list() {
      const keys = await (await opened()).keys(KEY);
      return keys.map((k) => k.slice(KEY.length)).sort();
    },
  };
}
