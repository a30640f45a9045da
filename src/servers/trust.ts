/**
 * Which project config files the user trusts: by absolute path and the SHA-256 of the content trusted, in
 * `trusted-files.json` in the user's own autos-mcp config directory (a private file, 0600, written
 * atomically under a lock by the file store). A file edited since is trusted no more. The path is part of
 * the key because the same content means other things elsewhere: `node ./server.mjs` runs the project's
 * own script.
 */
import { resolve } from 'node:path';
import { McpError } from '../errors/index.js';
import { displayPath } from '../store/paths.js';
import type { CredentialStore } from '../store/types.js';
import { MAX_CLAUDE_USER_BYTES, readConfigFile } from './read-file.js';
import { type UserStoreOptions, userStore } from './user-store.js';

/** Where the trust records are kept; each defaults to this process's own. */
export type TrustOptions = UserStoreOptions;

const STORE_NAME = 'trusted-files';

function storeOf(options: TrustOptions): { store: CredentialStore; file: string } {
  return userStore(STORE_NAME, options);
}

/** The path of the trust records file. */
export function trustRecordsFile(options: TrustOptions = {}): string {
  return storeOf(options).file;
}

/**
 * A reader of the trusted digests: `digest(file)` is the SHA-256 trusted for that file, or undefined. A
 * records file that cannot be read (corrupt, open to other users) trusts nothing and says why in `problem`.
 */
export function trustReader(options: TrustOptions = {}): {
  digest(file: string): Promise<string | undefined>;
  readonly problem: () => { file: string; message: string } | undefined;
} {
  const { store, file } = storeOf(options);
  let failed: { file: string; message: string } | undefined;
  return {
    async digest(path) {
      if (failed !== undefined) return undefined;
      try {
        const record = await store.get(resolve(path));
        const sha256 = record?.['sha256'];
        return typeof sha256 === 'string' ? sha256 : undefined;
      } catch (error) {
        failed = {
          file,
          message: `the trust records cannot be read, so no project file is trusted: ${error instanceof Error ? error.message : String(error)}`,
        };
        return undefined;
      }
    },
    problem: () => failed,
  };
}

/** What `trustFile` recorded. */
export interface TrustRecord {
  readonly file: string;
  readonly sha256: string;
}

/**
 * Trusts the current content of `file` (its servers may then be started), recording its SHA-256. Throws
 * `McpError` kind `config` when the file cannot be read or the records cannot be written.
 */
export async function trustFile(file: string, options: TrustOptions = {}): Promise<TrustRecord> {
  const path = resolve(file);
  const read = await readConfigFile(path, MAX_CLAUDE_USER_BYTES);
  if (read.kind !== 'read')
    throw new McpError(
      'config',
      read.kind === 'missing'
        ? `${displayPath(path)} does not exist: nothing was trusted`
        : `${displayPath(path)} ${read.message}: nothing was trusted`,
    );
  const { store } = storeOf(options);
  await store.set(path, { sha256: read.sha256, trustedAt: new Date().toISOString() });
  return { file: path, sha256: read.sha256 };
}

/** Forgets the trust of `file`; says whether it was trusted. */
export async function untrustFile(file: string, options: TrustOptions = {}): Promise<boolean> {
  const path = resolve(file);
  const { store } = storeOf(options);
  const had = (await store.get(path)) !== undefined;
  if (had) await store.delete(path);
  return had;
}
