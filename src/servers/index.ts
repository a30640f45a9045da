/**
 * `autos-mcp/servers`: the MCP servers configured in the files of the clients people already use (Claude
 * Code, Claude Desktop, Cursor, VS Code, Windsurf, Codex, OpenCode) and autos-mcp's own, as plain data;
 * the trust of project files; a configured server turned into a config to connect with. Importing loads
 * nothing; the JSON and TOML parsers are loaded when `loadServers` reads a file of their kind.
 */
export { loadServers, MAX_ENTRIES_PER_FILE } from './load.js';
export { pinsFile, savePins, storedPins } from './pins.js';
export { MAX_CLAUDE_USER_BYTES, MAX_CONFIG_BYTES } from './read-file.js';
export { type ResolveServerOptions, resolveServer } from './resolve.js';
export { type TrustOptions, type TrustRecord, trustFile, trustRecordsFile, untrustFile } from './trust.js';
export type {
  ConfigFile,
  ConfigFormat,
  ConfigScope,
  ConfiguredServer,
  FileTrust,
  LoadedServers,
  LoadServersOptions,
  ServerOrigin,
  ServerProblem,
  ShadowedServer,
} from './types.js';
