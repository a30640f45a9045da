/**
 * The plain data `loadServers` returns: each configured server with where it came from, whether its file is
 * trusted, the definitions it shadows, and every problem found on the way (a file that is malformed, an
 * entry that cannot be used and why). Nothing here is a function or a class: it all survives JSON.
 */
import type { ServerConfig } from '../config/index.js';
import type { ToolPinObject } from '../config/tool-policy.js';
import type { ProtocolVersionChoice } from '../protocol/versions.js';

/** Whose config file a definition comes from (each reads its own shape; see docs/servers.md). */
export type ConfigFormat =
  | 'autos-mcp'
  | 'claude-code'
  | 'claude-desktop'
  | 'cursor'
  | 'vscode'
  | 'windsurf'
  | 'codex'
  | 'opencode';

/**
 * `project`: a file found in the working directory (or up to its git root), which any cloned repository can
 * ship, so its servers are not started until the file is trusted. `user`: a file in the user's own config
 * locations, trusted.
 */
export type ConfigScope = 'project' | 'user';

/** Where one definition was read. */
export interface ServerOrigin {
  /** The absolute path of the file. */
  readonly file: string;
  readonly format: ConfigFormat;
  /** The part of the file, when it holds several lists (`projects["/work/app"]` in `~/.claude.json`). */
  readonly section?: string;
  /**
   * The project directory the definition belongs to: a stdio server from it starts there (its `cwd`, when
   * the entry gives none or a relative one), and `${workspaceFolder}` is this directory.
   */
  readonly project?: string;
}

/**
 * One configured server, by the name it is defined under: one type per revision its entry asks for, told
 * apart by `protocolVersion`, so that `resolveServer` of a 2025-11-25 entry gives a config whose
 * `callTool` resolves to a complete `CallToolResult` (see docs/typescript.md).
 */
export type ConfiguredServer<V extends ProtocolVersionChoice = ProtocolVersionChoice> =
  V extends ProtocolVersionChoice ? ConfiguredServerOf<V> : never;

/** A configured server whose entry asks for the revision `V`. */
export interface ConfiguredServerOf<V extends ProtocolVersionChoice> {
  readonly name: string;
  /**
   * The revision the entry asks for: its `protocolVersion`, or `'2025-11-25'` (the default) when it gives
   * none. An entry with any other value is a problem and is left out.
   */
  readonly protocolVersion: V;
  /** The server config as written: placeholders (`${VAR}`) are kept, never resolved here. */
  readonly config: ServerConfig;
  readonly transport: 'stdio' | 'http';
  readonly origin: ServerOrigin;
  readonly scope: ConfigScope;
  /** A user file, or a project file whose current content the user trusted (see `trustFile`). */
  readonly trusted: boolean;
  /** Its file's trust: why it is trusted or not. */
  readonly trust: FileTrust;
  /** The entry says `disabled: true` (or `enabled: false`): listed, never started. */
  readonly disabled?: true;
  /** The variables its placeholders read from the environment at connect (names only). */
  readonly variables: readonly string[];
  /** Definitions of the same name further down the precedence order, which this one hides. */
  readonly shadowed?: readonly ServerOrigin[];
  /**
   * The tool definitions approved for this name (`autos-mcp pin NAME`, `savePins`), by tool name:
   * `resolveServer` makes them the config's `pin`, so a drifted tool is refused (`tool_changed`).
   */
  readonly pins?: { readonly [tool: string]: ToolPinObject };
  /**
   * Why the pins file could not be read (also one of the problems): `resolveServer` then refuses the
   * server, since a tool pinned there would be called unchecked.
   */
  readonly pinsUnreadable?: string;
}

/** A definition hidden by one of the same name earlier in the precedence order. */
export interface ShadowedServer {
  readonly name: string;
  readonly origin: ServerOrigin;
  readonly scope: ConfigScope;
  /** The definition that wins. */
  readonly by: ServerOrigin;
}

/** Something wrong in a file or an entry: it is reported, never silently dropped or guessed around. */
export interface ServerProblem {
  readonly file: string;
  /** 1-based, when the problem is at a place in the file (a syntax error). */
  readonly line?: number;
  /** The server name, when the problem is one entry's (the entry is left out). */
  readonly entry?: string;
  /** One sentence; never quotes a value of the file (values may be secrets). */
  readonly message: string;
}

/** The trust of one file: `user` (a user file), `trusted`, `untrusted` (never trusted), `changed` (trusted, then edited). */
export type FileTrust = 'user' | 'trusted' | 'untrusted' | 'changed';

/** A config file that was found and read. */
export interface ConfigFile {
  readonly file: string;
  readonly format: ConfigFormat;
  readonly scope: ConfigScope;
  readonly trust: FileTrust;
  /** SHA-256 of the bytes read, hex: what `trustFile` records. */
  readonly sha256: string;
  /** How many servers it defines (the entries left out with a problem not counted). */
  readonly servers: number;
}

/** What `loadServers` returns. */
export interface LoadedServers {
  /** The usable definitions by name: for each name, the first in precedence order. */
  readonly servers: { readonly [name: string]: ConfiguredServer };
  readonly shadowed: readonly ShadowedServer[];
  readonly problems: readonly ServerProblem[];
  /** Every config file found and read, in precedence order. */
  readonly files: readonly ConfigFile[];
}

/** Where `loadServers` looks. Every field defaults to this process's own. */
export interface LoadServersOptions {
  /** The working directory whose project files are read (default `process.cwd()`). */
  readonly cwd?: string;
  /** The user's home directory (default `os.homedir()`). */
  readonly home?: string;
  /** Read only these files (a path, or several in precedence order) instead of every known location. */
  readonly only?: string | readonly string[];
  /** Read for the per-OS locations (`XDG_CONFIG_HOME`, `APPDATA`, `CODEX_HOME`); default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** The platform whose locations are used (default `process.platform`). */
  readonly platform?: NodeJS.Platform;
}
