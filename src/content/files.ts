/**
 * The private directory of `autos-mcp/content` and the content-addressed files in it, on the private-file
 * primitives of `internal/private-files.ts` (0700 directories, 0600 files written without following a
 * symlink). The name comes from the bytes' SHA-256 and an allow-listed extension only.
 */
import path from 'node:path';
import { McpError } from '../errors/index.js';
import {
  ensurePrivateDir,
  freshPrivateDir,
  lstatOrUndefined,
  PrivateFileError,
  writePrivateFile,
} from '../internal/private-files.js';

export { removeDir, removeFile } from '../internal/private-files.js';

/** `content dir <dir>: <why>`, kind `config`, for a directory or a file in it that cannot be used. */
async function asConfigError<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (!(error instanceof PrivateFileError)) throw error;
    throw new McpError('config', `content dir ${error.message}`, { cause: error.cause ?? error });
  }
}

/**
 * The directory `dir` names, made absolute: checked when it exists, else created with mode 0700 (its
 * missing parents too). Throws `McpError` kind `config` when it cannot be used.
 */
export function ensureDir(dir: string): Promise<string> {
  return asConfigError(ensurePrivateDir(dir));
}

/** A fresh `autos-mcp-content-<random>` directory under `os.tmpdir()`, mode 0700. */
export function freshDir(): Promise<string> {
  return asConfigError(freshPrivateDir('autos-mcp-content-'));
}

/**
 * Writes `bytes` as `<dir>/<name>` unless a regular file of that name and size is already there (the
 * name is the content's hash, so it holds the same bytes). Resolves `true` when it wrote the file.
 */
export async function writeContentFile(dir: string, name: string, bytes: Uint8Array): Promise<boolean> {
  const existing = await lstatOrUndefined(path.join(dir, name)).catch(() => undefined);
  if (existing?.isFile() && existing.size === bytes.byteLength) return false;
  await asConfigError(writePrivateFile(dir, name, bytes));
  return true;
}
