/**
 * `autos-mcp` commands: `tools`, `call`, `discover`, `demo`, the OAuth logins `login`, `logout` and
 * `auth status`, and the saved `settings`. Readable output by default, `--json` for programs; exit codes
 * tell a tool's own error (`isError`) apart from a failure to call it.
 */

import type { ConnectOptions, ServerConfig } from '../client/index.js';
import {
  type Client,
  connect,
  isMcpError,
  McpError,
  type Tool,
  type ToolCallOutcome,
} from '../client/index.js';
import type { PreparedResult } from '../content/index.js';
import type { Settings } from '../settings/settings.js';
import { PACKAGE_VERSION } from '../version.js';
import {
  checkTargetOptions,
  jsonRequested,
  type ParsedArgs,
  parseArgs,
  TARGET_COMMANDS,
  UsageError,
} from './args.js';
import { readArgumentSources } from './argument-sources.js';
import {
  authCommand,
  loginCommand,
  loginHint,
  loginHintTarget,
  logoutCommand,
  STORE_ENV,
  storedLogin,
} from './auth.js';
import { runDemo } from './demo.js';
import { formatDiscover, formatError, formatResult } from './format.js';
import { type ProgressSink, progressBar } from './progress.js';
import {
  CANCELLED_EXIT,
  cancelledExit,
  SETTINGS_BACKEND_ENV,
  SETTINGS_DIR_ENV,
  type SecretInput,
  settingsCommand,
  targetWithSettings,
} from './settings.js';
import { ArgumentError, argumentSources, coerceArguments, parseArgumentWords } from './tool-arguments.js';
import {
  closestNames,
  formatParameters,
  formatToolHelp,
  formatToolList,
  terminalSafe,
  unknownToolMessage,
} from './tool-help.js';
import { TYPES_HELP, typesCommand } from './types-command.js';

/** Exit codes: stable, documented in docs/cli.md. */
export const EXIT = {
  ok: 0,
  toolError: 1,
  usage: 2,
  failure: 3,
  inputRequired: 4,
  cancelled: CANCELLED_EXIT,
} as const;

export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: ProgressSink;
  /** Where `settings set` reads secret values (default `process.stdin`). */
  stdin?: SecretInput;
}

const TARGET_HELP = `A target is a URL (https://…, or http:// on loopback), or -- followed by a command and its
arguments (never a shell string), or the name of a configured server (autos-mcp servers lists them; for
call, NAME.TOOL), or --settings <name> (saved with autos-mcp settings set); with another target too, the
saved settings are merged over it (the target gives the server, the settings the secrets).
--config FILE reads configured servers from that file only; --trust-project starts the servers of project
config files not trusted yet, for this run (trust one for good: autos-mcp servers trust FILE).`;

const HELP: Record<string, string> = {
  main: `autos-mcp — call the tools of MCP servers on demand.

Usage:
  autos-mcp tools [options] <target>               list the server's tools
  autos-mcp call [options] <tool> [key=value…] <target>
                                                   call one tool
  autos-mcp discover [options] <target>            what the server says about itself
  autos-mcp types [--out file.ts] <target>         a typed TypeScript module of the server's tools
  autos-mcp demo                                   run the main job against the bundled demo server
  autos-mcp demo-server                            the bundled demo MCP server, on stdio (a target:
                                                   autos-mcp tools -- autos-mcp demo-server)
  autos-mcp login [options] <url>                  log in to an OAuth-protected server
  autos-mcp logout <url>                           forget the login of a server
  autos-mcp auth status [<url>]                    what is logged in (never a token)
  autos-mcp settings set|get|list|rm [<name>]      saved server configs and secrets (OS credential store)
  autos-mcp servers [trust [<file>]]               the servers configured in MCP clients' files; trust one
  autos-mcp pin <name> [<tool>…]                   approve a configured server's tool definitions as they are now

${TARGET_HELP}
An HTTP target uses the stored login of its URL, when there is one (see autos-mcp login --help).

Options:
  --json               machine-readable output on stdout
  --protocol <v>       2025-11-25 (default), 2026-07-28 or auto
  --timeout <ms>       deadline per step (default 60000)
  --header "N: v"      extra HTTP header (repeatable); AUTOS_MCP_TOKEN sets a bearer token
  --env NAME=value     extra environment variable for a stdio server (repeatable)
  --cwd <dir>          working directory of a stdio server
  --settings <name>    use the saved settings <name> (see autos-mcp settings --help)
  --config <file>      configured servers from this file only (see autos-mcp servers --help)
  --trust-project      start servers of project config files not trusted yet, for this run
  -h, --help           help (also after a command; call <tool> --help <target>: that tool's parameters)
  -V, --version        the version of autos-mcp

Exit codes: 0 ok, 1 the tool returned isError, 2 usage or config error, 3 failure
(connection, protocol, timeout…), 4 the server needs input (2026 MRTR), 130 a secret prompt was
cancelled (Ctrl-C).`,
  tools: `Usage: autos-mcp tools [--json] [--protocol v] [--timeout ms] <target>

Lists every tool (all pages) with its parameters: type, required or optional, default, description.
Tools with malformed definitions are listed as left out, with the reason.
${TARGET_HELP}
Example: autos-mcp tools -- autos-mcp demo-server`,
  call: `Usage: autos-mcp call [--json] [--protocol v] [--timeout ms] <tool> [key=value…] <target>
       autos-mcp call <tool> --help <target>       that tool's parameters (nothing is called)

Calls one tool. Arguments, coerced by the tool's inputSchema (a string stays a string):
  key=value        the value as the schema types it: string, integer, number, boolean, enum, or
                   JSON for an array or object (tags='["a","b"]')
  key:=<json>      the value as JSON, whatever the schema says (count:=5, id:='"0012"')
  key=@<file>      the file's text (key=@- reads stdin); key:=@<file> parses it as JSON
  '{"k":"v"}'      a JSON object of arguments; - reads it from stdin
An unknown key, a missing required one or a value of the wrong type is exit code 2 before anything
is sent, with the tool's parameters. Progress is shown on stderr. The tool name is checked against
the server's list first: an unknown name is exit code 2, with the closest names.
A URL target comes first or last: autos-mcp call https://host/mcp echo text=hi
${TARGET_HELP}
Images, audio and embedded blobs are written to files (a fresh private directory under the temp
directory, left for you) and shown as one line each: image/png 1234 bytes → /tmp/…/ab12….png; with
--json, the result carries path, mimeType, bytes and sha256 instead of the base64 data.
Example: autos-mcp call echo text=hi -- autos-mcp demo-server
Exit code 1 means the tool ran and reported an error (isError); 3 means the call failed.`,
  types: TYPES_HELP,
  discover: `Usage: autos-mcp discover [--json] [--protocol v] <target>

Shows the protocol version in use, server info, capabilities and instructions (instructions are data
from the server, shown as is).
${TARGET_HELP}`,
  login: `Usage: autos-mcp login [--device] [--no-browser] [--client-id id] [--client-secret-env VAR]
                       [--dcr] [--dpop] [--scope s]... [--timeout ms] [--json] <url>

Logs in to the OAuth-protected MCP server at <url> and keeps the tokens in the CLI's credential store;
tools, call and discover then use them (and refresh them) for that URL. Never starts by itself.
  (default)              open the authorization page in the browser; it comes back to a loopback port
  --no-browser           print the authorization URL on stderr instead of opening a browser
  --device               device login (RFC 8628): print a code to enter on another device
  --client-id <id>       a client registered for autos-mcp at the authorization server
  --client-secret-env V  the client secret is in the environment variable V (never on the command line);
                         keep it set for later refreshes
  --dcr                  allow dynamic client registration when no other client is at hand
  --dpop                 ask for DPoP-bound tokens (RFC 9449), for a server that takes them
  --scope <s>            a scope to ask for (repeatable; default: what the server asks for)
  --timeout <ms>         give up waiting for the user after this long (default 5 minutes)
  --json                 print the result as JSON: issuer, resource, scopes, expiresAt, refreshable
Prints the issuer, scopes and expiry, never a token. The store is a private file (0600) in the user's
config directory (~/.config/autos-mcp/oauth/cli.json on Linux); ${STORE_ENV}=<dir> keeps it
in <dir>/cli.json instead.`,
  logout: `Usage: autos-mcp logout [--json] <url>

Removes the tokens of <url> from the CLI's credential store and says whether there were any. Client
registrations stay.`,
  auth: `Usage: autos-mcp auth status [--json] [<url>]

With a URL: whether it is logged in, the issuer, scopes, expiry, whether the login can be refreshed, and
the store. Without: the same for every login in the store. Never prints a token.`,
  settings: `Usage: autos-mcp settings set <name> [--env KEY]... [--header NAME]... [--auth-token]
                                   [--command c] [--arg a]... [--url u] [--cwd dir] [--replace]
       autos-mcp settings set <name> --json-config < config.json
       autos-mcp settings get <name> [--reveal] [--json]
       autos-mcp settings list [--json]
       autos-mcp settings rm <name>

Named server configs, full or partial (only the secrets, or a whole server), kept in the OS credential
store. Use them with --settings <name> on tools, call and discover.
  set             saves; merged into settings of the same name (env and headers one level deep)
                  unless --replace. Secret VALUES are never taken from the command line: for each
                  --env KEY, --header NAME and --auth-token, in the order given, one line is read from
                  stdin, or asked for at a hidden prompt on a terminal (nothing echoed)
  --json-config   read a whole partial config as JSON from stdin instead (not from a terminal)
  --command, --arg, --url, --cwd
                  the non-secret fields, as options (or -- command args…)
  get             prints the settings with every secret masked (•••• (40 chars)); --reveal shows them
  list, rm        the names saved; remove one (exit code 0 whether or not it was there)
  --plaintext-file
                  keep them in a plaintext file (0600) instead: ~/.config/autos-mcp/oauth/settings.json
                  on Linux, or $${SETTINGS_DIR_ENV}/settings.json; also
                  ${SETTINGS_BACKEND_ENV}=plaintext-file (a note on stderr says when it is used)
  --timeout <ms>  deadline of one OS credential store call (default 10000)
No OS credential store (e.g. no Secret Service on Linux): an error that names the fix, exit code 2.
Ctrl-C at a prompt: nothing is saved, exit code 130.
Example: printf '%s\\n' "$API_KEY" | autos-mcp settings set demo --env API_KEY`,
  servers: `Usage: autos-mcp servers [--json] [--config FILE]
       autos-mcp servers trust [FILE]             trust a project config file's current content
       autos-mcp servers untrust FILE

Lists the MCP servers configured in the files of MCP clients and autos-mcp's own: the project's
(autos-mcp.json, .mcp.json, .cursor/mcp.json, .vscode/mcp.json, .codex/config.toml, opencode.json[c] in
this directory and up to the git root), then the user's (autos-mcp's servers.json, ~/.claude.json,
Claude Desktop, ~/.cursor/mcp.json, VS Code's user mcp.json, Windsurf, ~/.codex/config.toml, OpenCode).
The first definition of a name wins; the others are shown as shadowed. Each server is a target:
autos-mcp tools NAME, autos-mcp call NAME.TOOL key=value, autos-mcp discover NAME.
A project file can run any command: its servers start only once you trust its current content
(servers trust FILE; without FILE, every project file found here), or with --trust-project for one run.
Problems (a malformed file and its line, an entry that cannot be used and why) are printed on stderr.
Placeholders (\${VAR}, \${VAR:-default}, \${env:VAR}) are shown as written, and read only at connect.`,
  pin: `Usage: autos-mcp pin NAME [TOOL…] [--config FILE] [--trust-project] [--json]

Lists the configured server NAME's tools and stores the current definition of each (or of the TOOLs
named) as approved, by digest, in pinned-tools.json in autos-mcp's config directory. From then on a
pinned tool whose name, title, description, schemas or annotations changed is refused before it is
called (tool_changed, nothing sent), and autos-mcp tools NAME marks it. Run pin again to approve a change.`,
  demo: `Usage: autos-mcp demo

Starts the bundled demo server (autos-mcp demo-server) and shows the main job: list tools, call one,
watch progress, get an image, and see a tool error returned as a result.`,
  'demo-server': `Usage: autos-mcp demo-server

The demo MCP server shipped with autos-mcp, on stdio (one JSON-RPC message per line; revisions
2025-11-25 and 2026-07-28). Tools: echo, slow (progress), image (a PNG), confirm (asks through a
2026-07-28 input_required elicitation), typed (returns its arguments, to see their types), fail (an
isError result).
Start it as a target: autos-mcp call echo text=hi -- autos-mcp demo-server
(or, without installing: npx -y autos-mcp call echo text=hi -- npx -y autos-mcp demo-server).`,
};

/**
 * A usage error: the message and the help on stderr, and with --json also the document
 * `{"error": {"kind": "usage", "message": …}}` on stdout. Exit code 2.
 */
function usageError(
  io: CliIo,
  json: boolean,
  message: string,
  help: string | undefined,
  extra: Record<string, unknown> = {},
): number {
  if (json) io.stdout.write(`${JSON.stringify({ error: { kind: 'usage', message, ...extra } })}\n`);
  io.stderr.write(help === undefined ? `${message}\n` : `${message}\n\n${help}\n`);
  return EXIT.usage;
}

/** An unknown tool name, found in the server's list before anything was called. */
class UnknownToolError extends UsageError {
  readonly tool: string;
  readonly suggestions: string[];
  constructor(tool: string, suggestions: string[], count: number) {
    super(unknownToolMessage(tool, suggestions, count));
    this.tool = tool;
    this.suggestions = suggestions;
  }
}

export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed: ParsedArgs;
  try {
    parsed = parseArgs(argv);
  } catch (error) {
    return usageError(io, jsonRequested(argv), (error as Error).message, HELP['main']);
  }
  const json = parsed.json;
  if (parsed.version) {
    io.stdout.write(json ? `${JSON.stringify({ version: PACKAGE_VERSION })}\n` : `${PACKAGE_VERSION}\n`);
    return EXIT.ok;
  }
  const command = parsed.command;
  if (command === undefined || command === 'help') {
    if (command === undefined && !parsed.help) {
      if (json) return usageError(io, json, 'no command given', HELP['main']);
      io.stdout.write(`${HELP['main']}\n`);
      return EXIT.usage;
    }
    io.stdout.write(`${HELP[parsed.positionals[0] ?? 'main'] ?? HELP['main']}\n`);
    return EXIT.ok;
  }
  if (!(command in HELP) || command === 'main')
    return usageError(
      io,
      json,
      `unknown command ${JSON.stringify(terminalSafe(command.slice(0, 200)))}`,
      HELP['main'],
    );
  const targets = TARGET_COMMANDS.has(command);
  if (parsed.help && !(command === 'call' && parsed.positionals.length > 0 && hasTarget(parsed))) {
    io.stdout.write(`${HELP[command]}\n`);
    return EXIT.ok;
  }
  if (command !== 'types' && parsed.out !== undefined)
    return usageError(io, json, '--out is an option of types', HELP[command]);
  if (command !== 'login' && parsed.loginOptions.length > 0)
    return usageError(io, json, `${parsed.loginOptions[0]} is an option of login`, HELP[command]);
  const misplaced =
    command === 'settings'
      ? undefined
      : (parsed.settingsOptions[0] ??
        (parsed.plaintextFile && !targets ? '--plaintext-file' : undefined) ??
        (parsed.settingsName !== undefined && !targets ? '--settings' : undefined));
  if (misplaced !== undefined) {
    const owner = misplaced === '--settings' ? 'tools, call and discover' : 'settings';
    return usageError(io, json, `${misplaced} is an option of ${owner}`, HELP[command]);
  }
  if (command === 'demo' || command === 'demo-server') {
    const extra = demoExtra(parsed);
    if (extra !== undefined) return usageError(io, json, `${command} takes no ${extra}`, HELP[command]);
  }
  if (
    !targets &&
    command !== 'servers' &&
    command !== 'pin' &&
    (parsed.configFile !== undefined || parsed.trustProject)
  )
    return usageError(
      io,
      json,
      `${parsed.configFile !== undefined ? '--config' : '--trust-project'} is an option of tools, call, discover, servers and pin`,
      HELP[command],
    );
  const hintUrl = targets ? loginHintTarget(parsed) : undefined;
  try {
    switch (command) {
      case 'tools':
        return await toolsCommand(parsed, io);
      case 'call':
        return parsed.help ? await toolHelpCommand(parsed, io) : await callCommand(parsed, io);
      case 'types':
        return await typesCommand(parsed, io, { resolveTarget, withServer });
      case 'discover':
        return await discoverCommand(parsed, io);
      case 'login':
        return await loginCommand(parsed, io);
      case 'logout':
        return await logoutCommand(parsed, io);
      case 'auth':
        return await authCommand(parsed, io);
      case 'settings':
        return await settingsCommand(parsed, io);
      case 'servers': {
        const { serversCommand } = await import('./servers.js');
        return await serversCommand(parsed, io);
      }
      case 'pin': {
        const { pinCommand } = await import('./servers.js');
        return await pinCommand(parsed, io, (config) =>
          withServer({ config }, io, async (client) => (await client.listToolsDetailed()).digests),
        );
      }
      case 'demo-server': {
        const { serveDemo } = await import('./demo-server.js');
        const stdin = io.stdin ?? process.stdin;
        // Started by hand on a terminal: say what it is (stderr; stdout is the protocol channel).
        if (stdin.isTTY)
          io.stderr.write(
            'autos-mcp demo server on stdio: it reads MCP messages (JSON-RPC, one per line) on stdin. Use it as a\ntarget: autos-mcp tools -- autos-mcp demo-server (Ctrl-D ends it)\n',
          );
        await serveDemo({ stdin, stdout: io.stdout });
        return EXIT.ok;
      }
      default:
        return await runDemo(io);
    }
  } catch (error) {
    const cancelled = cancelledExit(error, io);
    if (cancelled !== undefined) return cancelled;
    if (error instanceof UnknownToolError)
      return usageError(io, json, error.message, undefined, {
        tool: error.tool,
        suggestions: error.suggestions,
      });
    if (error instanceof UsageError) return usageError(io, json, error.message, HELP[command]);
    if (json)
      io.stdout.write(`${JSON.stringify({ error: isMcpError(error) ? error.toJSON() : String(error) })}\n`);
    io.stderr.write(formatError(error) + loginHint(error, hintUrl));
    return isMcpError(error) && error.kind === 'config' ? EXIT.usage : EXIT.failure;
  }
}

/** Whether a target was given: a `--` command, a URL among the positionals, or `--settings`. */
function hasTarget(parsed: ParsedArgs): boolean {
  return (
    parsed.serverCommand !== undefined ||
    parsed.settingsName !== undefined ||
    parsed.positionals.some((word) => /^https?:\/\//i.test(word)) ||
    // `call NAME.TOOL --help`: a configured server (looked up when the target is resolved).
    (parsed.command === 'call' && (parsed.positionals[0] ?? '').includes('.'))
  );
}

/** What `demo` / `demo-server` were given that they do not take (they take nothing), or undefined. */
function demoExtra(parsed: ParsedArgs): string | undefined {
  if (parsed.positionals.length > 0) return `argument (got ${JSON.stringify(parsed.positionals[0])})`;
  if (parsed.serverCommand !== undefined) return 'target (nothing after --)';
  const options: Array<[boolean, string]> = [
    [parsed.json && parsed.command === 'demo-server', '--json'],
    [parsed.protocol !== undefined, '--protocol'],
    [parsed.timeoutMs !== undefined, '--timeout'],
    [Object.keys(parsed.headers).length > 0, '--header'],
    [Object.keys(parsed.env).length > 0, '--env'],
    [parsed.cwd !== undefined, '--cwd'],
  ];
  const given = options.find(([on]) => on);
  return given === undefined ? undefined : `option ${given[1]}`;
}

/** The target of `tools`, `call` and `discover`, with the options that do not apply to it refused. */
async function resolveTarget(
  parsed: ParsedArgs,
  io: CliIo,
): Promise<{ config: ServerConfig; settings?: Settings }> {
  const { configuredTarget } = await import('./servers.js');
  const target = await targetWithSettings(parsed, io, await configuredTarget(parsed));
  checkTargetOptions(parsed, target.config);
  return target;
}

/**
 * The tool `name` from the server's list, or an `UnknownToolError` with the closest names. A tool the
 * client left out (malformed) is returned as undefined: `callTool` then refuses it with the reason. A
 * server that cannot list its tools (a JSON-RPC error) is not checked.
 */
async function checkToolName(client: Client, name: string): Promise<Tool | undefined> {
  let list: Awaited<ReturnType<Client['listToolsDetailed']>>;
  try {
    list = await client.listToolsDetailed();
  } catch (error) {
    if (isMcpError(error) && error.kind === 'rpc') return undefined;
    throw error;
  }
  const tool = list.tools.find((t) => t.name === name);
  if (tool !== undefined || list.excluded.some((t) => t.name === name)) return tool;
  const names = list.tools.map((t) => t.name);
  throw new UnknownToolError(name, closestNames(name, names), names.length);
}

async function toolsCommand(parsed: ParsedArgs, io: CliIo): Promise<number> {
  const target = await resolveTarget(parsed, io);
  if (parsed.positionals.length > 0)
    throw new UsageError(`unexpected argument ${JSON.stringify(parsed.positionals[0])}`);
  return withServer(target, io, async (client) => {
    const list = await client.listToolsDetailed();
    io.stdout.write(parsed.json ? `${JSON.stringify(list)}\n` : formatToolList(list.tools, list.excluded));
    return EXIT.ok;
  });
}

/** `call <tool> --help <target>`: connects, lists, prints that tool's parameters; calls nothing. */
async function toolHelpCommand(parsed: ParsedArgs, io: CliIo): Promise<number> {
  const target = await resolveTarget(parsed, io);
  const [name] = parsed.positionals;
  if (name === undefined) throw new UsageError('call --help needs a tool name');
  return withServer(target, io, async (client) => {
    const tool = await checkToolName(client, name);
    if (tool === undefined) {
      const excluded = (await client.listToolsDetailed({ cache: true })).excluded.find(
        (t) => t.name === name,
      );
      throw new McpError(
        'invalid_tool',
        excluded === undefined
          ? `tool ${name} could not be looked up: the server did not list its tools`
          : `tool ${name} is left out: ${excluded.reason}`,
      );
    }
    io.stdout.write(parsed.json ? `${JSON.stringify(tool)}\n` : formatToolHelp(tool));
    return EXIT.ok;
  });
}

async function callCommand(parsed: ParsedArgs, io: CliIo): Promise<number> {
  const target = await resolveTarget(parsed, io);
  const [tool, ...words] = parsed.positionals;
  if (!tool) throw new UsageError('call needs a tool name');
  // The words' syntax, then their files and stdin, are checked before anything is started.
  const argumentWords = parseArgumentWords(words);
  if (argumentWords instanceof ArgumentError)
    return usageError(io, parsed.json, argumentWords.message, HELP['call'], {
      problems: argumentWords.problems,
    });
  const sources = await readArgumentSources(
    argumentSources(argumentWords),
    io.stdin ?? (process.stdin as unknown as SecretInput),
  );
  const unread = [...sources.values()].flatMap((read) => ('problem' in read ? [read.problem] : []));
  if (unread.length > 0)
    return usageError(io, parsed.json, unread.join('; '), undefined, { problems: unread });
  // The result is printed the moment it arrives; the server is closed after (a slow exit delays nothing).
  return withServer(target, io, async (client) => {
    const listed = await checkToolName(client, tool);
    // Coerced by the listed inputSchema; before anything is sent, a mismatch is a usage error that lists
    // the tool's parameters. A tool the server did not list: values stay strings (key:=json for others).
    const args = coerceArguments(
      argumentWords,
      listed?.inputSchema,
      (path) => sources.get(path) ?? { problem: `${path} was not read` },
    );
    if (args instanceof ArgumentError) {
      const name = terminalSafe(tool.slice(0, 120));
      const message =
        args.problems.length === 1
          ? `invalid arguments for ${name}: ${args.message} (nothing was called)`
          : `invalid arguments for ${name} (nothing was called):\n  ${args.problems.join('\n  ')}`;
      const help = listed === undefined ? undefined : `Parameters of ${name}:\n${formatParameters(listed)}`;
      return usageError(io, parsed.json, message, help, { tool, problems: args.problems });
    }
    const bar = progressBar(io.stderr);
    let result: ToolCallOutcome;
    try {
      result = await client.callTool(tool, args, { onProgress: (p) => bar.update(p) });
    } finally {
      bar.done();
    }
    if (result.resultType === 'input_required') {
      io.stdout.write(parsed.json ? `${JSON.stringify(result)}\n` : formatResult(result));
      return EXIT.inputRequired;
    }
    const shown = await toFiles(result, io);
    io.stdout.write(parsed.json ? `${JSON.stringify(shown)}\n` : formatResult(shown));
    return result.isError ? EXIT.toolError : EXIT.ok;
  });
}

/**
 * The result with its binary content (images, audio, embedded blobs) written to files by
 * `autos-mcp/content`, loaded only when there is some. If the files cannot be written, a warning, and
 * the result as it came (its binary content is then summarised, never printed).
 */
async function toFiles(
  result: Exclude<ToolCallOutcome, { resultType: 'input_required' }>,
  io: CliIo,
): Promise<ToolCallOutcome | PreparedResult> {
  const binary = (result.content ?? []).some((block) => {
    if (block.type === 'image' || block.type === 'audio') return true;
    const resource = block['resource'];
    return (
      block.type === 'resource' &&
      typeof resource === 'object' &&
      resource !== null &&
      (resource as Record<string, unknown>)['blob'] !== undefined
    );
  });
  if (!binary) return result;
  try {
    const { prepare } = await import('../content/index.js');
    return await prepare(result);
  } catch (error) {
    io.stderr.write(`warning: the binary content was not written to files: ${formatError(error)}`);
    return result;
  }
}

async function discoverCommand(parsed: ParsedArgs, io: CliIo): Promise<number> {
  const target = await resolveTarget(parsed, io);
  if (parsed.positionals.length > 0)
    throw new UsageError(`unexpected argument ${JSON.stringify(parsed.positionals[0])}`);
  return withServer(target, io, async (client) => {
    const facts = {
      protocolVersion: client.protocolVersion,
      transport: client.transport,
      ...(await client.discover()),
    };
    io.stdout.write(parsed.json ? `${JSON.stringify(facts)}\n` : formatDiscover(facts));
    return EXIT.ok;
  });
}

/**
 * Connects (an HTTP target with its stored login, if the store holds one; a stdio config's `envFrom`
 * read from the same settings as `--settings`), runs `fn`, and closes — also when `fn` throws — then
 * warns once on stderr about what the server wrote to stdout besides MCP messages (skipped, not fatal).
 */
async function withServer<T>(
  target: { config: ServerConfig; settings?: Settings },
  io: CliIo,
  fn: (client: Client) => Promise<T>,
): Promise<T> {
  const { config, settings } = target;
  const auth = await storedLogin(config, io);
  const options: ConnectOptions = {
    ...(auth === undefined ? {} : { auth }),
    ...(settings === undefined ? {} : { settings }),
  };
  const client = await connect(config, options);
  try {
    return await fn(client);
  } finally {
    const skipped = (await client.close()).process?.skippedStdout;
    if (skipped !== undefined) {
      const what =
        skipped.lines === 1
          ? '1 line that is not an MCP message'
          : `${skipped.lines} lines that are not MCP messages`;
      io.stderr.write(
        `warning: the server wrote ${what} to stdout (skipped); the last: ${skipped.last.at(-1) ?? ''}\n`,
      );
    }
  }
}
