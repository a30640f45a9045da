/**
 * The V8 compile cache of the `autos-mcp` executable: where the runtime has `module.enableCompileCache`
 * (Node 22.1+), the CLI's bundle is compiled once and its code read back from a cache on later runs; on
 * older runtimes this does nothing. The cache holds code V8 will run, so it lives only in a private
 * directory of the user's own cache directory (`compileCacheDir`), never in a shared temp path: a
 * directory that is a symlink, is not the user's, or can be read or written by others is not used.
 * Nothing here may fail a run: any problem leaves the cache off. `NODE_DISABLE_COMPILE_CACHE` (Node's
 * own switch) and `AUTOS_MCP_NO_COMPILE_CACHE=1` turn it off; a `NODE_COMPILE_CACHE` the user set wins.
 */
import { lstatSync, mkdirSync } from 'node:fs';
import nodeModule from 'node:module';
import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';

/** `module.enableCompileCache` (typed here: the Node 20 types do not have it). */
type Enable = (directory: string) => unknown;

/** What `enableCompileCache` reads; each defaults to this process's own. */
export interface CompileCacheOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly platform?: NodeJS.Platform;
  readonly home?: string;
  /** The runtime's `module.enableCompileCache`; undefined where it has none. */
  readonly enable?: Enable | undefined;
  /** This process's user id (POSIX); the directory must be owned by it. */
  readonly uid?: number | undefined;
}

/**
 * The compile cache directory: `%LOCALAPPDATA%\autos-mcp\compile-cache` on Windows,
 * `~/Library/Caches/autos-mcp/compile-cache` on macOS, else `$XDG_CACHE_HOME/autos-mcp/compile-cache`
 * (when absolute) or `~/.cache/autos-mcp/compile-cache`. Undefined without a home directory.
 */
export function compileCacheDir(options: CompileCacheOptions = {}): string | undefined {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const home = options.home ?? homedir();
  if (platform === 'win32') {
    const local = env['LOCALAPPDATA'];
    if (local && win32.isAbsolute(local)) return win32.join(local, 'autos-mcp', 'compile-cache');
    return home && win32.isAbsolute(home)
      ? win32.join(home, 'AppData', 'Local', 'autos-mcp', 'compile-cache')
      : undefined;
  }
  const xdg = env['XDG_CACHE_HOME'];
  if (platform !== 'darwin' && xdg && posix.isAbsolute(xdg))
    return posix.join(xdg, 'autos-mcp', 'compile-cache');
  if (!home || home === '/' || !posix.isAbsolute(home)) return undefined;
  const base = platform === 'darwin' ? posix.join(home, 'Library', 'Caches') : posix.join(home, '.cache');
  return posix.join(base, 'autos-mcp', 'compile-cache');
}

/** Turns the compile cache on when it can be done safely; returns the directory used, else undefined. */
export function enableCompileCache(options: CompileCacheOptions = {}): string | undefined {
  const env = options.env ?? process.env;
  const enable =
    'enable' in options ? options.enable : (nodeModule as { enableCompileCache?: Enable }).enableCompileCache;
  if (typeof enable !== 'function') return undefined;
  if (
    env['NODE_DISABLE_COMPILE_CACHE'] ||
    env['NODE_COMPILE_CACHE'] ||
    env['AUTOS_MCP_NO_COMPILE_CACHE'] === '1'
  )
    return undefined;
  const dir = compileCacheDir(options);
  if (dir === undefined) return undefined;
  const platform = options.platform ?? process.platform;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = lstatSync(dir);
    if (!stat.isDirectory()) return undefined;
    if (platform !== 'win32') {
      const uid = 'uid' in options ? options.uid : process.getuid?.();
      if (uid === undefined || stat.uid !== uid || (stat.mode & 0o077) !== 0) return undefined;
    }
    enable(dir);
    return dir;
  } catch {
    return undefined;
  }
}
