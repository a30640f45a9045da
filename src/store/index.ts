/**
 * The credential stores behind `autos-mcp/settings` and `autos-mcp/oauth`, one `CredentialStore`
 * interface: `keyringStore(name)` (the OS credential store, the default of both), `plaintextFileStore(name)`
 * (a private JSON file in the user's config directory, only when chosen by that name) and `memoryStore()`.
 * All are safe to share between processes except memory.
 */
export { type PlaintextFileStoreOptions, plaintextFileStore } from './file.js';
export { type KeyringStoreOptions, keyringStore } from './keyring.js';
export { memoryStore } from './memory.js';
export type { CredentialStore, LockOptions, StoredValue } from './types.js';
