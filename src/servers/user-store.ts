/**
 * A private JSON file of the user's own in autos-mcp's config directory (0600, written atomically under a
 * lock by the file store): where the trust of project files and the pinned tools are kept.
 */
import { resolve } from 'node:path';
import { plaintextFileStore } from '../store/file.js';
import { configDir } from '../store/paths.js';
import type { CredentialStore } from '../store/types.js';

/** Where the user's config directory is; each defaults to this process's own. */
export interface UserStoreOptions {
  readonly home?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly platform?: NodeJS.Platform;
}

/** The store `<name>.json` in the user's autos-mcp config directory, and that file's path. */
export function userStore(name: string, options: UserStoreOptions): { store: CredentialStore; file: string } {
  const dir = configDir({
    ...(options.home === undefined ? {} : { home: options.home }),
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.platform === undefined ? {} : { platform: options.platform }),
  });
  return { store: plaintextFileStore(name, { dir }), file: resolve(dir, `${name}.json`) };
}
