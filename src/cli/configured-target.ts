/**
 * A configured server as a target (`tools NAME`, `call NAME.TOOL`, `discover NAME`, `pin NAME`): found in
 * the config files of MCP clients, trust checked, placeholders resolved, the command line's options
 * over it. `autos-mcp/servers` is loaded only when one of these is used (`commands/servers.ts` lists them).
 */
import type { ServerConfig } from '../client/index.js';
import { McpError } from '../errors/index.js';
import type { ConfigScope, ConfiguredServer, LoadedServers } from '../servers/index.js';
import { shownFile } from '../servers/shown-file.js';
import { COMMAND_LIKE, type TargetLine, withCommandLine } from './target.js';
import { terminalSafe } from './tool-help.js';
import { UsageError } from './usage-error.js';

const URL_LIKE = /^https?:\/\//i;

/** One line of text from a file, safe for the terminal and bounded. */
export function safe(text: string, max = 200): string {
  const line = terminalSafe(text).replace(/[\n\t]/g, ' ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** A file for the terminal: a project file relative to the working directory, others with `~`. */
export function shownPath(file: string, scope: ConfigScope = 'user'): string {
  return safe(shownFile(file, scope), 400);
}

export async function load(parsed: { readonly configFile: string | undefined }): Promise<LoadedServers> {
  const { loadServers } = await import('../servers/index.js');
  return loadServers(parsed.configFile === undefined ? {} : { only: parsed.configFile });
}

/**
 * The configured server named by the command line, as a config ready to connect with (trust checked,
 * placeholders resolved, command-line options merged), or undefined when the target is something else (a
 * URL, `-- command`, or `--settings` alone). The name is taken out of `parsed.positionals` (for `call`,
 * `NAME.TOOL` becomes `TOOL`).
 */
export async function configuredTarget(
  parsed: TargetLine,
  { withPins = true }: { withPins?: boolean } = {},
): Promise<ServerConfig | undefined> {
  const first = parsed.positionals[0];
  const other = parsed.serverCommand !== undefined || parsed.positionals.some((word) => URL_LIKE.test(word));
  const call = parsed.command === 'call';
  const candidate = other || first === undefined || (call && !first.includes('.')) ? undefined : first;
  if (candidate === undefined) {
    if (parsed.configFile !== undefined || parsed.trustProject) {
      const option = parsed.configFile !== undefined ? '--config' : '--trust-project';
      throw new UsageError(
        `${option} goes with a configured server as the target (autos-mcp ${parsed.command ?? 'tools'} ${call ? 'NAME.TOOL' : 'NAME'}), not with a URL or a -- command`,
      );
    }
    return undefined;
  }
  const name = call ? candidate.slice(0, candidate.indexOf('.')) : candidate;
  const loaded = await load(parsed);
  const server = Object.hasOwn(loaded.servers, name) ? loaded.servers[name] : undefined;
  if (server === undefined) {
    // A tool name with a dot, with saved settings as the target: not a configured name. A server command
    // typed without `--` (`tools node server.mjs`) gets the usual advice from the target parser.
    if (call && parsed.settingsName !== undefined) return undefined;
    if (!call && (parsed.positionals.length > 1 || COMMAND_LIKE.test(candidate))) return undefined;
    throw unknownServer(name, loaded, parsed);
  }
  if (call) parsed.positionals[0] = candidate.slice(name.length + 1);
  else parsed.positionals.shift();
  // Hints echo the form typed (`autos-mcp call NAME.TOOL`, `autos-mcp tools NAME`).
  parsed.configuredName = name;
  if (call && parsed.positionals[0] === '')
    throw new UsageError(`give the tool after the dot: autos-mcp call ${safe(name)}.TOOL`);
  const { resolveServer } = await import('../servers/index.js');
  // The stored pins (autos-mcp pin NAME) come with the server; pin itself lists the tools without them.
  const { pins: _stored, ...unpinned } = server;
  const pinned = resolveServer(withPins ? server : (unpinned as ConfiguredServer), {
    trustProject: parsed.trustProject,
  });
  return withCommandLine(pinned, parsed);
}

function unknownServer(name: string, loaded: LoadedServers, parsed: TargetLine): Error {
  const problem = loaded.problems.find((p) => p.entry === name);
  if (problem !== undefined)
    return new McpError(
      'config',
      `the server "${name}" in ${shownFile(problem.file, scopeOf(loaded, problem.file))} cannot be used: ${problem.message}`,
    );
  const names = Object.keys(loaded.servers);
  const where = parsed.configFile === undefined ? 'in the config files found' : `in ${parsed.configFile}`;
  const known =
    names.length === 0
      ? 'none is configured'
      : `configured: ${names
          .slice(0, 10)
          .map((n) => safe(n, 60))
          .join(', ')}${names.length > 10 ? ', …' : ''}`;
  const hint =
    parsed.command === 'call'
      ? ''
      : '; a target is a configured server name, a URL, or -- followed by a command';
  return new McpError(
    'config',
    `no server named "${safe(name, 100)}" ${where} (${known}; autos-mcp servers lists them)${hint}`,
  );
}

export function scopeOf(loaded: LoadedServers, file: string): ConfigScope {
  return (
    loaded.files.find((f) => f.file === file)?.scope ??
    (shownFile(file, 'user').startsWith('~') ? 'user' : 'project')
  );
}
