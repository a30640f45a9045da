/**
 * The folder a skill is written to, whole or not at all: files go into a private staging folder made next
 * to the destination (same file system, so the final rename is atomic), each opened with `O_EXCL` (never
 * through an existing entry); `commit` renames the staging folder onto the destination, `discard` removes
 * it. The destination must not exist or be an empty folder, checked before anything is sent.
 */
import { constants } from 'node:fs';
import { mkdir, mkdtemp, open, readdir, rename, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { McpError } from '../../errors/index.js';
import { lstatOrUndefined, removeDir } from '../../internal/private-files.js';
import { rejected } from './verify.js';

const WRITE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

const errorCode = (error: unknown): string => String((error as { code?: unknown } | null)?.code ?? 'error');

function refused(dir: string, why: string, cause?: unknown): McpError {
  return new McpError('config', `readSkill: ${dir} ${why}`, cause === undefined ? {} : { cause });
}

/** Throws `config` unless `dir` is free to be written: absent, or an empty real folder. */
export async function checkDestination(dir: string): Promise<string> {
  const absolute = path.resolve(dir);
  const stats = await lstatOrUndefined(absolute).catch((error: unknown) => {
    throw refused(absolute, `cannot be read (${errorCode(error)})`, error);
  });
  if (stats === undefined) return absolute;
  if (stats.isSymbolicLink()) throw refused(absolute, 'is a symlink; give a new folder');
  if (!stats.isDirectory()) throw refused(absolute, 'is not a folder');
  const entries = await readdir(absolute).catch((error: unknown) => {
    throw refused(absolute, `cannot be read (${errorCode(error)})`, error);
  });
  if (entries.length > 0) throw refused(absolute, 'is not empty; give a new folder');
  return absolute;
}

/** A staging folder for one skill. */
export interface Staging {
  /** Writes one verified file at these segments under the staging folder. */
  write(segments: readonly string[], bytes: Uint8Array): Promise<void>;
  /** Moves the staging folder onto the destination, whole. */
  commit(): Promise<void>;
  /** Removes the staging folder and all in it (best effort; idempotent). */
  discard(): Promise<void>;
}

/** Makes the staging folder next to `destination` (its parents created when missing). */
export async function openStaging(destination: string): Promise<Staging> {
  const parent = path.dirname(destination);
  let root: string;
  try {
    await mkdir(parent, { recursive: true });
    root = await mkdtemp(path.join(parent, `.${path.basename(destination)}.skill-`));
  } catch (error) {
    throw refused(parent, `cannot hold a new folder (${errorCode(error)})`, error);
  }
  return {
    async write(segments, bytes) {
      const file = path.join(root, ...segments);
      // The segments were checked (paths.ts); this keeps the promise even if that check were wrong.
      const inside = path.relative(root, file);
      if (inside === '' || inside.startsWith('..') || path.isAbsolute(inside))
        throw rejected('path', segments.join('/'), 'readSkill: a path leaves the folder');
      await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      const handle = await open(file, WRITE_FLAGS, 0o600);
      try {
        await handle.writeFile(bytes);
      } finally {
        await handle.close();
      }
    },
    async commit() {
      try {
        // rename() onto an empty folder replaces it on POSIX, not on Windows: remove it first.
        if ((await lstatOrUndefined(destination)) !== undefined) await rmdir(destination);
        await rename(root, destination);
      } catch (error) {
        throw refused(destination, `cannot be put in place (${errorCode(error)})`, error);
      }
    },
    discard: () => removeDir(root),
  };
}
