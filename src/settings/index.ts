/**
 * autos-mcp/settings: named server configs (full or partial) kept on this machine, by default in the OS
 * credential store. `save`/`load`/`remove`/`list` use the default backend; `openSettings(options)` picks
 * another (`plaintext-file`, opt-in by that name; `memory`; or a store of your own). Read docs/settings.md.
 */
import { openSettings, type PartialServerConfig, type Settings } from './settings.js';

let defaults: Settings | undefined;
function standard(): Settings {
  defaults ??= openSettings();
  return defaults;
}

/** Saves `config` (any part of a server config) as `name` in the OS credential store. */
export function save(name: string, config: PartialServerConfig): Promise<void> {
  return standard().save(name, config);
}

/** The config saved as `name`; missing is an error unless `allowMissing` (then `null`); corrupt is an error. */
export function load(name: string, allowMissing = false): Promise<PartialServerConfig | null> {
  return standard().load(name, allowMissing);
}

/** Removes `name`; resolves true when there was one. */
export function remove(name: string): Promise<boolean> {
  return standard().remove(name);
}

/** The names saved. */
export function list(): Promise<string[]> {
  return standard().list();
}

export { type KeyringStoreOptions, keyringStore } from '../store/keyring.js';
export type { CredentialStore, LockOptions, StoredValue } from '../store/types.js';
export {
  openSettings,
  type PartialServerConfig,
  type Settings,
  type SettingsBackend,
  type SettingsOptions,
} from './settings.js';
