/**
 * Where the plaintext file store and lock files live by default (the user's config directory, per platform) and how a
 * path is shown in messages (the home directory as `~`). Pure functions of the environment they are given.
 */
import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';

/** What `configDir` reads; each defaults to this process's own. */
export interface ConfigDirOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly platform?: NodeJS.Platform;
  readonly home?: string;
}

/**
 * autos-mcp's directory in the user's config directory (plaintext stores, lock files):
 * `%APPDATA%\autos-mcp` on Windows, `~/Library/Application Support/autos-mcp` on macOS, else
 * `$XDG_CONFIG_HOME/autos-mcp` (when set to an absolute path) or `~/.config/autos-mcp`.
 */
export function configDir(options: ConfigDirOptions = {}): string {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const home = options.home ?? homedir();
  if (platform === 'win32') {
    const appData = env['APPDATA'];
    const base = appData && win32.isAbsolute(appData) ? appData : win32.join(home, 'AppData', 'Roaming');
    return win32.join(base, 'autos-mcp');
  }
  if (platform === 'darwin') return posix.join(home, 'Library', 'Application Support', 'autos-mcp');
  const xdg = env['XDG_CONFIG_HOME'];
  const base = xdg && posix.isAbsolute(xdg) ? xdg : posix.join(home, '.config');
  return posix.join(base, 'autos-mcp');
}

/** `path` for a message: a path inside the home directory starts with `~`. */
export function displayPath(path: string, home: string = homedir()): string {
  if (home === '' || home === '/' || home === '\\') return path;
  if (path === home) return '~';
  for (const sep of ['/', '\\']) {
    const prefix = home.endsWith(sep) ? home : home + sep;
    if (path.startsWith(prefix)) return `~${sep}${path.slice(prefix.length)}`;
  }
  return path;
}
