/**
 * The credential stores of `autos-mcp/oauth`: where client registrations, tokens and DPoP keys are kept.
 * `memoryStore()` lives in the process; `fileStore(name)` is a private JSON file in the user's config
 * directory, safe to share between processes. Both implement `CredentialStore`.
 */
export { type FileStoreOptions, fileStore } from './file.js';
export { memoryStore } from './memory.js';
export type { CredentialStore, LockOptions, StoredValue } from './types.js';
