/**
 * Private files: the one place that makes a directory only this user may use and writes files into it
 * that only this user may read. Used by `content` (binary content of results) and by the client's result
 * budget (a cut result's whole form). A directory is either made here (mode 0700) or checked: a real
 * directory, not a symlink, and on POSIX owned by this user and not writable by group or others. A file is
 * written 0600 under a fresh temporary name opened with O_CREAT|O_EXCL|O_NOFOLLOW, then renamed into
 * place, so no symlink is ever followed and a reader never sees half a file.
 */
import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, mkdtemp, open, rename, rm, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const POSIX = process.platform !== 'win32';
const WRITE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/** The error code of a failed fs call (`EACCES`, …), for messages that never hold content. */
function code(error: unknown): string {
  const value = (error as { code?: unknown } | null)?.code;
  return typeof value === 'string' ? value : 'error';
}

/**
 * Why a directory or a file in it cannot be used: `<dir>: <why>`, never content. The caller turns it into
 * its own error, naming the directory's use (`content dir …`): this leaf knows no error kinds.
 */
export class PrivateFileError extends Error {
  override readonly name = 'PrivateFileError';
  readonly dir: string;
  readonly why: string;

  constructor(dir: string, why: string, cause?: unknown) {
    super(`${dir}: ${why}`, cause === undefined ? undefined : { cause });
    this.dir = dir;
    this.why = why;
  }
}

function refuse(dir: string, why: string, cause?: unknown): PrivateFileError {
  return new PrivateFileError(dir, why, cause);
}

/** The entry's stats, or undefined when there is none. */
export async function lstatOrUndefined(file: string): Promise<Stats | undefined> {
  try {
    return await lstat(file);
  } catch (error) {
    if (code(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/** Throws unless `stats` describe a directory this process alone may write. */
function checkDir(dir: string, stats: Stats): void {
  if (stats.isSymbolicLink()) throw refuse(dir, 'is a symlink; give the real directory');
  if (!stats.isDirectory()) throw refuse(dir, 'is not a directory');
  if (!POSIX) return;
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== uid) throw refuse(dir, 'is owned by another user');
  if ((stats.mode & 0o022) !== 0) throw refuse(dir, 'is writable by group or others (want mode 0700)');
}

/**
 * The directory `dir` names, made absolute: checked when it exists, else created with mode 0700 (its
 * missing parents too). Throws `PrivateFileError` when it cannot be used.
 */
export async function ensurePrivateDir(dir: string): Promise<string> {
  const absolute = path.resolve(dir);
  let stats: Stats | undefined;
  try {
    stats = await lstatOrUndefined(absolute);
    if (stats === undefined) {
      await mkdir(absolute, { recursive: true, mode: 0o700 });
      stats = await lstat(absolute);
    }
  } catch (error) {
    throw refuse(absolute, `cannot be created or read (${code(error)})`, error);
  }
  checkDir(absolute, stats);
  return absolute;
}

/** A fresh `<prefix><random>` directory under `os.tmpdir()`, mode 0700 (`mkdtemp`). */
export async function freshPrivateDir(prefix: string): Promise<string> {
  const parent = os.tmpdir();
  try {
    return await mkdtemp(path.join(parent, prefix));
  } catch (error) {
    throw refuse(parent, `cannot make a directory in it (${code(error)})`, error);
  }
}

/** Removes a directory this process made (best effort: used when a call fails half way). */
export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true }).catch(() => undefined);
}

/** Removes a file this process wrote (best effort). */
export async function removeFile(file: string): Promise<void> {
  await unlink(file).catch(() => undefined);
}

/**
 * Writes `data` as `<dir>/<name>`, mode 0600, through a fresh temporary file renamed into place (a
 * symlink of that name is replaced, never followed). `dir` must be one `ensurePrivateDir` or
 * `freshPrivateDir` returned. Throws `PrivateFileError` naming the directory, never the content.
 */
export async function writePrivateFile(
  dir: string,
  name: string,
  data: Uint8Array | string,
): Promise<string> {
  const target = path.join(dir, name);
  const temporary = path.join(dir, `.${name}.${randomBytes(8).toString('hex')}.tmp`);
  try {
    const handle = await open(temporary, WRITE_FLAGS, 0o600);
    try {
      await handle.writeFile(data);
    } finally {
      await handle.close();
    }
    // rename() replaces whatever entry has the name (a symlink itself, never its target).
    await rename(temporary, target);
    return target;
  } catch (error) {
    await removeFile(temporary);
    throw refuse(dir, `cannot write a file in it (${code(error)})`, error);
  }
}
