/**
 * Where each MCP client keeps its servers, per OS, in precedence order: the project's files first (the
 * working directory, then each parent up to its git root), then the user's. Pure functions of the
 * directories and the environment given; nothing here touches the disk except the git-root walk.
 */
import { statSync } from 'node:fs';
import { dirname, isAbsolute, join, posix, resolve, win32 } from 'node:path';
import { configDir } from '../store/paths.js';
import type { ConfigFormat, ConfigScope } from './types.js';

/** One file to read. */
export interface Source {
  readonly file: string;
  readonly format: ConfigFormat;
  readonly scope: ConfigScope;
  /** The project directory its servers belong to (project files only). */
  readonly project?: string;
}

export interface Locations {
  readonly home: string;
  readonly env: NodeJS.ProcessEnv;
  readonly platform: NodeJS.Platform;
}

/** The files of one project directory, each client's, in the order they win. */
const PROJECT_FILES: ReadonlyArray<readonly [path: string, format: ConfigFormat]> = [
  ['autos-mcp.json', 'autos-mcp'],
  ['.mcp.json', 'claude-code'],
  ['.cursor/mcp.json', 'cursor'],
  ['.vscode/mcp.json', 'vscode'],
  ['.codex/config.toml', 'codex'],
  ['opencode.jsonc', 'opencode'],
  ['opencode.json', 'opencode'],
];

/**
 * The directories whose project files are read, nearest first: `cwd`, then each parent up to the nearest
 * one holding `.git` (the repository root), so a command run in a subdirectory still finds the
 * repository's `.mcp.json`. Outside a repository only `cwd` itself. Never the home directory's parents,
 * and never past the root of a repository: a file above it belongs to no project of yours.
 */
export function projectDirs(cwd: string, home: string): string[] {
  const start = resolve(cwd);
  const dirs: string[] = [];
  let dir = start;
  for (let depth = 0; depth < 64; depth++) {
    dirs.push(dir);
    if (exists(join(dir, '.git'))) return dirs;
    const parent = dirname(dir);
    if (parent === dir || dir === resolve(home)) break;
    dir = parent;
  }
  return [start];
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The project files of `dirs` (nearest first). */
export function projectSources(dirs: readonly string[]): Source[] {
  return dirs.flatMap((dir) =>
    PROJECT_FILES.map(([path, format]) => ({
      file: join(dir, ...path.split('/')),
      format,
      scope: 'project' as const,
      project: dir,
    })),
  );
}

/** The user files, in the order they win (`~/.claude.json` is read once, for both of its lists). */
export function userSources(at: Locations): Source[] {
  const { home, env, platform } = at;
  const path = platform === 'win32' ? win32 : posix;
  const user = (file: string, format: ConfigFormat): Source => ({ file, format, scope: 'user' });
  const appConfig = appConfigDir(at);
  const codexHome = env['CODEX_HOME'] && path.isAbsolute(env['CODEX_HOME']) ? env['CODEX_HOME'] : undefined;
  const xdg =
    env['XDG_CONFIG_HOME'] && path.isAbsolute(env['XDG_CONFIG_HOME']) ? env['XDG_CONFIG_HOME'] : undefined;
  // OpenCode keeps its config in the XDG directory on every OS.
  const opencode = path.join(xdg ?? path.join(home, '.config'), 'opencode');
  return [
    user(path.join(configDir({ env, platform, home }), 'servers.json'), 'autos-mcp'),
    user(path.join(home, '.claude.json'), 'claude-code'),
    user(path.join(appConfig, 'Claude', 'claude_desktop_config.json'), 'claude-desktop'),
    user(path.join(home, '.cursor', 'mcp.json'), 'cursor'),
    user(path.join(appConfig, 'Code', 'User', 'mcp.json'), 'vscode'),
    user(path.join(home, '.codeium', 'windsurf', 'mcp_config.json'), 'windsurf'),
    user(path.join(codexHome ?? path.join(home, '.codex'), 'config.toml'), 'codex'),
    user(path.join(opencode, 'opencode.jsonc'), 'opencode'),
    user(path.join(opencode, 'opencode.json'), 'opencode'),
  ];
}

/** The per-OS application config directory: `%APPDATA%`, `~/Library/Application Support`, `$XDG_CONFIG_HOME` or `~/.config`. */
function appConfigDir({ home, env, platform }: Locations): string {
  if (platform === 'win32') {
    const appData = env['APPDATA'];
    return appData && win32.isAbsolute(appData) ? appData : win32.join(home, 'AppData', 'Roaming');
  }
  if (platform === 'darwin') return posix.join(home, 'Library', 'Application Support');
  const xdg = env['XDG_CONFIG_HOME'];
  return xdg && posix.isAbsolute(xdg) ? xdg : posix.join(home, '.config');
}

/**
 * The format of a file named with `only` (`--config FILE`): by its name where that is a client's, else
 * autos-mcp's own (`mcpServers` with any server config field), which every `mcpServers`-shaped file fits.
 */
export function formatOfFile(file: string): ConfigFormat {
  const normalized = file.replaceAll('\\', '/');
  const base = normalized.slice(normalized.lastIndexOf('/') + 1);
  if (base.endsWith('.toml')) return 'codex';
  if (base === 'opencode.json' || base === 'opencode.jsonc') return 'opencode';
  if (normalized.endsWith('.vscode/mcp.json') || normalized.endsWith('/Code/User/mcp.json')) return 'vscode';
  if (normalized.endsWith('.cursor/mcp.json')) return 'cursor';
  if (base === '.mcp.json' || base === '.claude.json') return 'claude-code';
  if (base === 'claude_desktop_config.json') return 'claude-desktop';
  if (base === 'mcp_config.json') return 'windsurf';
  return 'autos-mcp';
}

/** Whether `file` is absolute on this platform (`only` paths are resolved against `cwd`). */
export function absolute(file: string, cwd: string): string {
  return isAbsolute(file) ? resolve(file) : resolve(cwd, file);
}
