/**
 * Configured servers on the command line: `autos-mcp servers [--json]` lists them (name, transport, scope,
 * trust, origin file, what is shadowed, the problems found), `servers trust [file]` / `servers untrust
 * <file>` record a project file's trust, and a configured name is a target (`tools NAME`, `call
 * NAME.TOOL`, `discover NAME`). `autos-mcp/servers` is loaded only when one of these is used.
 */
import { resolve } from 'node:path';
import type { ServerConfig } from '../client/index.js';
import type { ToolPinObject } from '../config/tool-policy.js';
import { McpError } from '../errors/index.js';
import type { ConfigScope, ConfiguredServer, LoadedServers } from '../servers/index.js';
import { shownFile } from '../servers/shown-file.js';
import { COMMAND_LIKE, type ParsedArgs, UsageError } from './args.js';
import type { CliIo } from './main.js';
import { terminalSafe } from './tool-help.js';

const URL_LIKE = /^https?:\/\//i;

/** One line of text from a file, safe for the terminal and bounded. */
function safe(text: string, max = 200): string {
  const line = terminalSafe(text).replace(/[\n\t]/g, ' ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** A file for the terminal: a project file relative to the working directory, others with `~`. */
function shownPath(file: string, scope: ConfigScope = 'user'): string {
  return safe(shownFile(file, scope), 400);
}

async function load(parsed: ParsedArgs): Promise<LoadedServers> {
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
  parsed: ParsedArgs,
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
  return withFlags(pinned, parsed);
}

function unknownServer(name: string, loaded: LoadedServers, parsed: ParsedArgs): Error {
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

/** The command line's `--timeout`, `--protocol`, `--env`/`--cwd` (stdio) and `--header` (HTTP) over the config. */
function withFlags(config: ServerConfig, parsed: ParsedArgs): ServerConfig {
  const out: Record<string, unknown> = { ...config };
  if (parsed.timeoutMs !== undefined) out['timeoutMs'] = parsed.timeoutMs;
  if (parsed.protocol !== undefined) out['protocolVersion'] = parsed.protocol;
  if ('url' in config) {
    if (Object.keys(parsed.headers).length > 0) out['headers'] = { ...config.headers, ...parsed.headers };
    const token = process.env['AUTOS_MCP_TOKEN'];
    if (token && config.authToken === undefined) out['authToken'] = token;
  } else {
    if (Object.keys(parsed.env).length > 0) out['env'] = { ...config.env, ...parsed.env };
    if (parsed.cwd !== undefined) out['cwd'] = parsed.cwd;
  }
  return out as unknown as ServerConfig;
}

/**
 * `autos-mcp pin NAME [TOOL…]`: lists the configured server's tools without the stored pins and stores
 * the current definition of each (or of the tools named) as approved. A later call of a pinned tool whose
 * definition changed is refused (`tool_changed`), and `tools NAME` marks it.
 */
export async function pinCommand(
  parsed: ParsedArgs,
  io: CliIo,
  listDigests: (config: ServerConfig) => Promise<Record<string, ToolPinObject>>,
): Promise<number> {
  const name = parsed.positionals[0];
  if (name === undefined)
    throw new UsageError('pin needs a configured server name (autos-mcp servers lists them)');
  if (parsed.serverCommand !== undefined || URL_LIKE.test(name))
    throw new UsageError(
      'pin takes a configured server name, not a URL or a -- command: pins are stored by name',
    );
  const config = await configuredTarget(parsed, { withPins: false });
  if (config === undefined)
    throw new UsageError('pin needs a configured server name (autos-mcp servers lists them)');
  const only = parsed.positionals.slice(0);
  const current = await listDigests(config);
  const chosen: Record<string, ToolPinObject> = {};
  for (const tool of only.length === 0 ? Object.keys(current) : only) {
    const digest = Object.hasOwn(current, tool) ? current[tool] : undefined;
    if (digest === undefined)
      throw new UsageError(`${safe(name)} lists no tool ${JSON.stringify(safe(tool, 100))} to pin`);
    Object.defineProperty(chosen, tool, {
      value: digest,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  const { savePins } = await import('../servers/index.js');
  const saved = await savePins(name, chosen);
  const count = Object.keys(chosen).length;
  io.stdout.write(
    parsed.json
      ? `${JSON.stringify({ server: name, pinned: chosen, file: saved.file })}\n`
      : `pinned ${count} tool${count === 1 ? '' : 's'} of ${safe(name)} in ${shownPath(saved.file)}\n`,
  );
  return 0;
}

/** `autos-mcp servers`, `servers trust [file]`, `servers untrust <file>`. */
export async function serversCommand(parsed: ParsedArgs, io: CliIo): Promise<number> {
  const [action, file, extra] = parsed.positionals;
  if (parsed.serverCommand !== undefined) throw new UsageError('servers takes no -- command');
  if (action === undefined) {
    const loaded = await load(parsed);
    io.stdout.write(parsed.json ? `${JSON.stringify(loaded)}\n` : formatServers(loaded));
    if (!parsed.json) for (const line of problemLines(loaded)) io.stderr.write(`${line}\n`);
    return 0;
  }
  if (action !== 'trust' && action !== 'untrust')
    throw new UsageError(`unknown servers action ${JSON.stringify(safe(action, 60))} (trust or untrust)`);
  if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(safe(extra, 60))}`);
  const { trustFile, untrustFile } = await import('../servers/index.js');
  if (action === 'untrust') {
    if (file === undefined) throw new UsageError('servers untrust needs the file');
    const removed = await untrustFile(file);
    io.stdout.write(
      parsed.json
        ? `${JSON.stringify({ file, untrusted: removed })}\n`
        : `${removed ? 'no longer trusted' : 'was not trusted'}: ${shownPath(resolve(file), 'project')}\n`,
    );
    return 0;
  }
  const files =
    file !== undefined
      ? [file]
      : (await load(parsed)).files
          .filter((f) => f.scope === 'project' && f.trust !== 'trusted' && f.servers > 0)
          .map((f) => f.file);
  const trusted = [];
  for (const path of files) trusted.push(await trustFile(path));
  if (parsed.json) io.stdout.write(`${JSON.stringify({ trusted })}\n`);
  else if (trusted.length === 0) io.stdout.write('no project config file here needs trust\n');
  else
    for (const record of trusted)
      io.stdout.write(
        `trusted: ${shownPath(record.file, 'project')} (sha256 ${record.sha256.slice(0, 16)}…)\n`,
      );
  return 0;
}

/** The readable list: one line per server, then what is shadowed. */
export function formatServers(loaded: LoadedServers): string {
  const servers = Object.values(loaded.servers);
  if (servers.length === 0)
    return 'no MCP servers are configured here (see docs/servers.md for the files that are read)\n';
  const rows = servers.map((server) => [
    safe(server.name, 100),
    server.transport,
    server.scope,
    trustLabel(server),
    origin(server),
  ]);
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((row) => (row[i] as string).length)));
  const lines = rows.map((row) =>
    row
      .map((cell, i) => (i < 4 ? cell.padEnd(widths[i] as number) : cell))
      .join('  ')
      .trimEnd(),
  );
  for (const hidden of loaded.shadowed)
    lines.push(
      `shadowed: ${safe(hidden.name, 100)} in ${shownPath(hidden.origin.file, hidden.scope)}, by ${shownPath(hidden.by.file, scopeOf(loaded, hidden.by.file))}`,
    );
  if (servers.some((server) => !server.trusted))
    lines.push(
      'a project file is trusted once you have read it: autos-mcp servers trust <file> (or --trust-project for one run)',
    );
  return `${lines.join('\n')}\n`;
}

function trustLabel(server: ConfiguredServer): string {
  const label =
    server.trust === 'user' || server.trust === 'trusted'
      ? 'trusted'
      : server.trust === 'changed'
        ? 'changed since trusted'
        : 'not trusted';
  return server.disabled === true ? `${label}, disabled` : label;
}

function origin(server: ConfiguredServer): string {
  const section = server.origin.section === undefined ? '' : ` ${safe(server.origin.section, 200)}`;
  return `${shownPath(server.origin.file, server.scope)}${section} (${server.origin.format})`;
}

function scopeOf(loaded: LoadedServers, file: string): ConfigScope {
  return (
    loaded.files.find((f) => f.file === file)?.scope ??
    (shownFile(file, 'user').startsWith('~') ? 'user' : 'project')
  );
}

/** Each problem as one line for stderr: `problem: FILE:LINE: server "X": message`. */
function problemLines(loaded: LoadedServers): string[] {
  return loaded.problems.map((p) => {
    const at = `${shownPath(p.file, scopeOf(loaded, p.file))}${p.line === undefined ? '' : `:${p.line}`}`;
    const entry = p.entry === undefined ? '' : ` server "${safe(p.entry, 100)}":`;
    return `problem: ${at}:${entry} ${safe(p.message, 400)}`;
  });
}
