/**
 * `autos-mcp servers [--json]` lists the servers configured in the files of MCP clients and autos-mcp's
 * own (name, transport, scope, trust, origin file, what is shadowed, the problems found); `servers trust
 * [file]` / `servers untrust <file>` record a project file's trust.
 */
import { resolve } from 'node:path';
import type { ConfiguredServer, LoadedServers } from '../../servers/index.js';
import { type Args, defineCommand } from '../command.js';
import { load, safe, scopeOf, shownPath } from '../configured-target.js';
import type { CliIo } from '../io.js';
import { CONFIGURED_OPTIONS } from '../options.js';
import { UsageError } from '../usage-error.js';

export const serversCommand = defineCommand({
  name: 'servers',
  usage: [
    '[--json] [--config FILE]',
    "trust [FILE]             trust a project config file's current content",
    'untrust FILE',
  ],
  synopsis: '[trust [<file>]]',
  summary: "the servers configured in MCP clients' files; trust one",
  about: `Lists the MCP servers configured in the files of MCP clients and autos-mcp's own: the project's
(autos-mcp.json, .mcp.json, .cursor/mcp.json, .vscode/mcp.json, .codex/config.toml, opencode.json[c] in
this directory and up to the git root), then the user's (autos-mcp's servers.json, ~/.claude.json,
Claude Desktop, ~/.cursor/mcp.json, VS Code's user mcp.json, Windsurf, ~/.codex/config.toml, OpenCode).
The first definition of a name wins; the others are shown as shadowed. Each server is a target:
autos-mcp tools NAME, autos-mcp call NAME.TOOL key=value, autos-mcp discover NAME.
A project file can run any command: its servers start only once you trust its current content
(servers trust FILE; without FILE, every project file found here), or with --trust-project for one run.
Problems (a malformed file and its line, an entry that cannot be used and why) are printed on stderr.
Placeholders (\${VAR}, \${VAR:-default}, \${env:VAR}) are shown as written, and read only at connect.`,
  options: CONFIGURED_OPTIONS,
  target: 'none',
  run: servers,
});

/** `autos-mcp servers`, `servers trust [file]`, `servers untrust <file>`. */
async function servers(parsed: Args<typeof CONFIGURED_OPTIONS>, io: CliIo): Promise<number> {
  const [action, file, extra] = parsed.positionals;
  if (action === undefined) {
    const loaded = await load(parsed);
    io.stdout.write(parsed.json ? `${JSON.stringify(loaded)}\n` : formatServers(loaded));
    if (!parsed.json) for (const line of problemLines(loaded)) io.stderr.write(`${line}\n`);
    return 0;
  }
  if (action !== 'trust' && action !== 'untrust')
    throw new UsageError(`unknown servers action ${JSON.stringify(safe(action, 60))} (trust or untrust)`);
  if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(safe(extra, 60))}`);
  const { trustFile, untrustFile } = await import('../../servers/index.js');
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
function formatServers(loaded: LoadedServers): string {
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

/** Each problem as one line for stderr: `problem: FILE:LINE: server "X": message`. */
function problemLines(loaded: LoadedServers): string[] {
  return loaded.problems.map((p) => {
    const at = `${shownPath(p.file, scopeOf(loaded, p.file))}${p.line === undefined ? '' : `:${p.line}`}`;
    const entry = p.entry === undefined ? '' : ` server "${safe(p.entry, 100)}":`;
    return `problem: ${at}:${entry} ${safe(p.message, 400)}`;
  });
}
