/**
 * The file credential store: one JSON object per store, `<dir>/<name>.json` (key → value), in a private
 * directory (0700) as a private file (0600; a file others can read is refused). Writes are atomic (a temp
 * file in the same directory, fsynced, renamed over) and each is a read-modify-write of the whole file
 * under the store's lock file, so processes writing different keys never lose each other's writes. Reads
 * always go to the file. A corrupt file is reported (by path, never by content) and never overwritten.
 */
import { createHash, randomUUID } from 'node:crypto';
import { chmod, mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { McpError } from '../errors/index.js';
import { withFileLock } from './lock.js';
import { configDir, displayPath } from './paths.js';
import type { CredentialStore, LockOptions, StoredValue } from './types.js';

/** Largest store file read or written. */
export const MAX_STORE_FILE_BYTES = 4 * 1024 * 1024;

const NAME = /^(?!\.)[A-Za-z0-9._-]{1,64}$/;
const POSIX = process.platform !== 'win32';

export interface PlaintextFileStoreOptions {
  /** The directory of the store files; default `configDir()` (e.g. `~/.config/autos-mcp`). */
  readonly dir?: string;
}

/**
 * The store `name` (1–64 characters of `A-Z a-z 0-9 . _ -`, not starting with `.`) kept in
 * `<dir>/<name>.json`. Nothing is touched until the first call; the directory is created (0700) on the
 * first write or lock, and made private if it is not.
 */
export function plaintextFileStore(name: string, options: PlaintextFileStoreOptions = {}): CredentialStore {
  if (typeof name !== 'string' || !NAME.test(name)) {
    const got = typeof name === 'string' ? JSON.stringify(name.slice(0, 80)) : typeof name;
    throw new McpError(
      'config',
      `plaintextFileStore: the store name must be 1-64 characters of A-Z, a-z, 0-9, ".", "_", "-" and not start with "." (got ${got})`,
      { delivery: 'not_sent' },
    );
  }
  const dir = resolve(options.dir ?? configDir());
  const file = join(dir, `${name}.json`);
  const target: Target = { dir, name, file, shown: displayPath(file) };

  /** Changes the entries under the store's lock; `change` says whether anything changed. */
  const update = async (change: (entries: Map<string, StoredValue>) => boolean): Promise<void> => {
    await ensureDir(dir);
    await withFileLock(`${file}.lock`, async () => {
      // Written anew (0600) below, so a loose mode is tightened rather than refused here.
      const entries = await readEntries(target, { allowLoose: true });
      if (change(entries)) await writeEntries(target, entries);
    });
  };

  return {
    description: `file ${target.shown}`,
    async get(key) {
      return (await readEntries(target)).get(key);
    },
    async set(key, value) {
      const copy = plainObject(value) ? value : undefined;
      if (copy === undefined) throw configError(`${target.shown}: a stored value must be a plain object`);
      await update((entries) => {
        entries.set(key, copy);
        return true;
      });
    },
    async delete(key) {
      await update((entries) => entries.delete(key));
    },
    async keys(prefix = '') {
      return [...(await readEntries(target)).keys()].filter((key) => key.startsWith(prefix)).sort();
    },
    async withLock<T>(key: string, work: () => Promise<T>, options: LockOptions = {}): Promise<T> {
      await ensureDir(dir);
      const digest = createHash('sha256').update(key).digest('hex').slice(0, 16);
      return withFileLock(join(dir, `${name}.${digest}.lock`), work, options);
    },
  };
}

interface Target {
  readonly dir: string;
  readonly name: string;
  readonly file: string;
  /** `file` for messages (`~` for the home directory). */
  readonly shown: string;
}

/** The entries of the store file (none when it does not exist), checked: private, bounded, well formed. */
async function readEntries(
  target: Target,
  options: { allowLoose?: boolean } = {},
): Promise<Map<string, StoredValue>> {
  const { file, shown } = target;
  let text: string;
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if (code(error) === 'ENOENT') return new Map<string, StoredValue>();
    throw configError(`cannot read ${shown} (${code(error)})`, error);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw configError(`${shown} is not a regular file`);
    if (POSIX && !options.allowLoose && (info.mode & 0o077) !== 0) {
      const mode = (info.mode & 0o777).toString(8).padStart(3, '0');
      throw configError(
        `${shown} holds credentials but other users may access it (mode ${mode}); fix it with: chmod 600 ${shellQuote(file)}`,
      );
    }
    const tooLarge = configError(`${shown} is larger than ${MAX_STORE_FILE_BYTES} bytes; it is not read`);
    if (info.size > MAX_STORE_FILE_BYTES) throw tooLarge;
    const bytes = await handle.readFile();
    if (bytes.length > MAX_STORE_FILE_BYTES) throw tooLarge;
    text = bytes.toString('utf8');
  } catch (error) {
    if (error instanceof McpError) throw error;
    throw configError(`cannot read ${shown} (${code(error)})`, error);
  } finally {
    await handle.close().catch(() => undefined);
  }
  return parseEntries(text, shown);
}

/** The key → value map of the file's text; a corrupt file is an error that never quotes the text. */
function parseEntries(text: string, shown: string): Map<string, StoredValue> {
  const corrupt = (what: string): McpError =>
    configError(`${shown} is corrupt (${what}); it was left untouched: repair or remove it`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not the SyntaxError: its message quotes the text, and the text holds secrets.
    throw corrupt('not valid JSON');
  }
  if (!plainObject(parsed)) throw corrupt('not a JSON object');
  const entries = new Map<string, StoredValue>();
  for (const [key, value] of Object.entries(parsed)) {
    if (!plainObject(value)) throw corrupt('a value is not a JSON object');
    entries.set(key, value);
  }
  return entries;
}

/** Replaces the store file atomically: a private temp file in the same directory, fsynced, renamed over. */
async function writeEntries(target: Target, entries: Map<string, StoredValue>): Promise<void> {
  const { dir, name, file, shown } = target;
  let text: string;
  try {
    text = `${JSON.stringify(Object.fromEntries(entries), null, 2)}\n`;
  } catch {
    throw configError(`${shown}: a stored value is not JSON data (a cycle or a BigInt); nothing was written`);
  }
  if (Buffer.byteLength(text) > MAX_STORE_FILE_BYTES) {
    throw new McpError(
      'too_large',
      `${shown}: the store would exceed ${MAX_STORE_FILE_BYTES} bytes; nothing was written`,
      {
        delivery: 'not_sent',
      },
    );
  }
  // Store names never start with ".", so a temp file cannot be mistaken for a store.
  const temp = join(dir, `.${name}.json.${randomUUID()}.tmp`);
  try {
    const handle = await open(temp, 'wx', 0o600);
    try {
      if (POSIX) await handle.chmod(0o600);
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw configError(`cannot write ${shown} (${code(error)})`, error);
  }
  await syncDir(dir);
}

/** Creates `dir` (0700) when missing and takes group and other access away when it has any. */
async function ensureDir(dir: string): Promise<void> {
  const shown = displayPath(dir);
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw configError(`cannot create the directory ${shown} (${code(error)})`, error);
  }
  if (!POSIX) return;
  const info = await stat(dir);
  if (!info.isDirectory()) throw configError(`${shown} is not a directory`);
  if ((info.mode & 0o077) === 0) return;
  try {
    await chmod(dir, 0o700);
  } catch (error) {
    throw configError(
      `the directory ${shown} is open to other users and cannot be made private (${code(error)}); fix it with: chmod 700 ${shellQuote(dir)}`,
      error,
    );
  }
}

/** Makes a rename durable (POSIX); best effort, as some systems cannot open a directory. */
async function syncDir(dir: string): Promise<void> {
  if (!POSIX) return;
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // the data itself is synced; only the rename's durability is at stake
  }
}

function plainObject(value: unknown): value is StoredValue {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function configError(message: string, cause?: unknown): McpError {
  return new McpError(
    'config',
    message,
    cause === undefined ? { delivery: 'not_sent' } : { delivery: 'not_sent', cause },
  );
}

function shellQuote(path: string): string {
  return /^[A-Za-z0-9_./~-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}

function code(error: unknown): string {
  const value = (error as { code?: unknown } | null)?.code;
  return typeof value === 'string' ? value : 'unknown error';
}
