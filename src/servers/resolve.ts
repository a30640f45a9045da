/**
 * `resolveServer`: the config to connect with, made from a configured server right before connecting. A
 * disabled entry, or one from a project file the user has not trusted (or that changed since), is refused;
 * placeholders are read from the environment given (an unset one is refused, naming the variable and the
 * entry, never a value); a project's stdio server starts in its project directory; the tools pinned for
 * the name (`autos-mcp pin`) become the config's `pin`. Pure: spawns nothing.
 */

import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import type { LegacyVersion } from '../client/index.js';
import { normalizeConfig, type ServerConfig } from '../config/index.js';
import { isMcpError, McpError } from '../errors/index.js';
import { displayPath } from '../store/paths.js';
import { isRecord } from './entry.js';
import { type Lookup, resolveText } from './placeholders.js';
import { shownFile } from './shown-file.js';
import type { ConfiguredServer } from './types.js';

export interface ResolveServerOptions {
  /** Where placeholders are read (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  /** `${userHome}`, and `~` in messages (default `os.homedir()`). */
  readonly home?: string;
  /** Project files are named relative to it in messages, as the user would type them (default `process.cwd()`). */
  readonly cwd?: string;
  /** Start servers of untrusted project files too, for this call (the CLI's `--trust-project`). */
  readonly trustProject?: boolean;
}

/**
 * The server config of `server` with its placeholders resolved and its stored pins (`server.pins`) as
 * `pin` (a `pin` the file itself gives wins for that tool), checked by `normalizeConfig`. Throws `McpError`
 * kind `config` (nothing started) for a disabled or untrusted entry, an unset variable, a pins file that
 * could not be read, or a config that is not valid once resolved (the message names the field, never its
 * value). Typed by the entry's revision: a 2025-11-25 entry's config makes `callTool` resolve to a
 * `CallToolResult`.
 */
export function resolveServer(
  server: ConfiguredServer<'2025-11-25'>,
  options?: ResolveServerOptions,
): ServerConfig & LegacyVersion;
/** `resolveServer()` of an entry that may mean 2026-07-28 (`protocolVersion` 2026-07-28 or `auto`). */
export function resolveServer(server: ConfiguredServer, options?: ResolveServerOptions): ServerConfig;
export function resolveServer(server: ConfiguredServer, options: ResolveServerOptions = {}): ServerConfig {
  const home = options.home ?? homedir();
  const file = shownFile(server.origin.file, server.scope, options.cwd ?? process.cwd(), home);
  const where = `the server "${server.name}" (${file})`;
  if (server.disabled === true)
    throw configError(`${where} is disabled in its file; enable it there to use it`);
  if (!server.trusted && options.trustProject !== true)
    throw configError(untrustedMessage(server, file, home));
  if (server.pinsUnreadable !== undefined) throw configError(`${where}: ${server.pinsUnreadable}`);
  const lookup: Lookup = {
    env: options.env ?? process.env,
    workspaceFolder: server.origin.project,
    userHome: home,
    missing: (name) => {
      throw configError(`${where} needs the environment variable ${name}, which is not set`);
    },
    bad: (reason) => {
      throw configError(`${where} cannot be used: ${reason}`);
    },
  };
  const opencode = server.origin.format === 'opencode';
  const text = (value: string): string => resolveText(value, opencode, lookup);
  const fields: Array<[string, unknown]> = Object.entries(server.config);
  const out: Record<string, unknown> = {};
  for (const [key, value] of fields) {
    let resolved: unknown = value;
    if (['command', 'cwd', 'url', 'authToken'].includes(key) && typeof value === 'string')
      resolved = text(value);
    else if (key === 'args' && Array.isArray(value))
      resolved = value.map((arg: unknown) => (typeof arg === 'string' ? text(arg) : arg));
    else if ((key === 'env' || key === 'headers') && isRecord(value)) {
      const record: Record<string, unknown> = {};
      for (const [name, item] of Object.entries(value))
        Object.defineProperty(record, name, {
          value: typeof item === 'string' ? text(item) : item,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      resolved = record;
    }
    Object.defineProperty(out, key, {
      value: resolved,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  // A project's server starts in its project directory, as the client that owns the file starts it.
  const project = server.origin.project;
  if (server.transport === 'stdio' && project !== undefined) {
    const cwd = out['cwd'];
    out['cwd'] = typeof cwd === 'string' ? (isAbsolute(cwd) ? cwd : resolve(project, cwd)) : project;
  }
  const pins = server.pins;
  if (pins !== undefined && Object.keys(pins).length > 0) {
    const own = out['pin'];
    out['pin'] = isRecord(own) ? { ...pins, ...own } : own === undefined ? { ...pins } : own;
  }
  // The config's own fields, each replaced by its resolved value (`out` has every one of them); the result is
  // checked by normalizeConfig right here, as any config is.
  const config: ServerConfig = { ...server.config, ...out };
  try {
    normalizeConfig(config);
  } catch (error) {
    if (isMcpError(error) && error.kind === 'config')
      throw configError(`${where}: ${error.message.replace(/^invalid server config: /, '')}`);
    throw error;
  }
  return config;
}

function untrustedMessage(server: ConfiguredServer, file: string, home: string): string {
  const why =
    server.trust === 'changed'
      ? 'which changed since you trusted it'
      : 'which is not trusted (a repository can ship any command in such a file)';
  const hides = server.shadowed?.[0];
  const hidden =
    hides === undefined ? '' : `; it hides the server of that name in ${displayPath(hides.file, home)}`;
  return `the server "${server.name}" comes from the project file ${file}, ${why}${hidden}: read it, then run autos-mcp servers trust ${quoted(file)} (or pass --trust-project for one run)`;
}

function quoted(path: string): string {
  return /^[A-Za-z0-9_./~:@+-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}

function configError(message: string): McpError {
  return new McpError('config', message, { delivery: 'not_sent' });
}
