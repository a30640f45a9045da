/**
 * `autos-mcp` commands: `tools`, `call`, `discover`, `demo`, and the OAuth logins `login`, `logout` and
 * `auth status`. Readable output by default, `--json` for programs; exit codes tell a tool's own error
 * (`isError`) apart from a failure to call it.
 */

import type { ConnectOptions, ServerConfig } from '../client/index.js';
import { type Client, connect, isMcpError, type ToolCallOutcome } from '../client/index.js';
import { type ParsedArgs, parseArgs, targetConfig, UsageError } from './args.js';
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
import { formatError, formatResult, formatTools } from './format.js';
import { type ProgressSink, progressBar } from './progress.js';

/** Exit codes: stable, documented in docs/cli.md. */
export const EXIT = { ok: 0, toolError: 1, usage: 2, failure: 3, inputRequired: 4 } as const;

export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: ProgressSink;
}

const TARGET_HELP = `A target is a URL (https://…, or http:// on loopback), or -- followed by a command and its
arguments (never a shell string).`;

const HELP: Record<string, string> = {
  main: `autos-mcp — call the tools of MCP servers on demand.

Usage:
  autos-mcp tools [options] <target>               list the server's tools
  autos-mcp call [options] <tool> [json-args] <target>
                                                   call one tool
  autos-mcp discover [options] <target>            what the server says about itself
  autos-mcp demo                                   run the main job against the bundled demo server
  autos-mcp login [options] <url>                  log in to an OAuth-protected server
  autos-mcp logout <url>                           forget the login of a server
  autos-mcp auth status [<url>]                    what is logged in (never a token)

${TARGET_HELP}
An HTTP target uses the stored login of its URL, when there is one (see autos-mcp login --help).

Options:
  --json               machine-readable output on stdout
  --protocol <v>       2025-11-25 (default), 2026-07-28 or auto
  --timeout <ms>       deadline per step (default 60000)
  --header "N: v"      extra HTTP header (repeatable); AUTOS_MCP_TOKEN sets a bearer token
  --env NAME=value     extra environment variable for a stdio server (repeatable)
  --cwd <dir>          working directory of a stdio server
  -h, --help           help (also after a command)

Exit codes: 0 ok, 1 the tool returned isError, 2 usage or config error, 3 failure
(connection, protocol, timeout…), 4 the server needs input (2026 MRTR).`,
  tools: `Usage: autos-mcp tools [--json] [--protocol v] [--timeout ms] <target>

Lists every tool (all pages). Tools with malformed definitions are listed as left out, with the reason.
${TARGET_HELP}
Example: autos-mcp tools -- node examples/demo-server.mjs`,
  call: `Usage: autos-mcp call [--json] [--protocol v] [--timeout ms] <tool> [json-args] <target>

Calls one tool with a JSON object of arguments (default {}). Progress is shown on stderr.
A URL target comes first or last: autos-mcp call https://host/mcp echo '{"text":"hi"}'
${TARGET_HELP}
Example: autos-mcp call echo '{"text":"hi"}' -- node examples/demo-server.mjs
Exit code 1 means the tool ran and reported an error (isError); 3 means the call failed.`,
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
  demo: `Usage: autos-mcp demo

Starts the bundled demo server (examples/demo-server.mjs, in the source repository) and shows the main
job: list tools, call one, watch progress, get an image, and see a tool error returned as a result.`,
};

export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed: ParsedArgs;
  try {
    parsed = parseArgs(argv);
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\n\n${HELP['main']}\n`);
    return EXIT.usage;
  }
  const command = parsed.command;
  if (command === undefined || command === 'help') {
    io.stdout.write(`${HELP[parsed.positionals[0] ?? 'main'] ?? HELP['main']}\n`);
    return command === undefined && !parsed.help ? EXIT.usage : EXIT.ok;
  }
  if (!(command in HELP) || command === 'main') {
    io.stderr.write(`unknown command ${JSON.stringify(command)}\n\n${HELP['main']}\n`);
    return EXIT.usage;
  }
  if (parsed.help) {
    io.stdout.write(`${HELP[command]}\n`);
    return EXIT.ok;
  }
  if (command !== 'login' && parsed.loginOptions.length > 0) {
    io.stderr.write(`${parsed.loginOptions[0]} is an option of login\n\n${HELP[command]}\n`);
    return EXIT.usage;
  }
  const hintUrl =
    command === 'tools' || command === 'call' || command === 'discover' ? loginHintTarget(parsed) : undefined;
  try {
    switch (command) {
      case 'tools':
        return await toolsCommand(parsed, io);
      case 'call':
        return await callCommand(parsed, io);
      case 'discover':
        return await discoverCommand(parsed, io);
      case 'login':
        return await loginCommand(parsed, io);
      case 'logout':
        return await logoutCommand(parsed, io);
      case 'auth':
        return await authCommand(parsed, io);
      default:
        return await runDemo(io);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`${error.message}\n\n${HELP[command]}\n`);
      return EXIT.usage;
    }
    if (parsed.json)
      io.stdout.write(`${JSON.stringify({ error: isMcpError(error) ? error.toJSON() : String(error) })}\n`);
    io.stderr.write(formatError(error) + loginHint(error, hintUrl));
    return isMcpError(error) && error.kind === 'config' ? EXIT.usage : EXIT.failure;
  }
}

async function toolsCommand(parsed: ParsedArgs, io: CliIo): Promise<number> {
  const config = targetConfig(parsed);
  if (parsed.positionals.length > 0)
    throw new UsageError(`unexpected argument ${JSON.stringify(parsed.positionals[0])}`);
  const list = await withServer(config, io, (client) => client.listToolsDetailed());
  io.stdout.write(parsed.json ? `${JSON.stringify(list)}\n` : formatTools(list.tools, list.excluded));
  return EXIT.ok;
}

async function callCommand(parsed: ParsedArgs, io: CliIo): Promise<number> {
  const config: ServerConfig = targetConfig(parsed);
  const [tool, rawArgs, extra] = parsed.positionals;
  if (!tool) throw new UsageError('call needs a tool name');
  if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(extra)}`);
  let args: Record<string, unknown> = {};
  if (rawArgs !== undefined) {
    try {
      args = JSON.parse(rawArgs) as Record<string, unknown>;
    } catch {
      throw new UsageError('json-args is not valid JSON (quote it: \'{"key":"value"}\')');
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args))
      throw new UsageError('json-args must be a JSON object');
  }
  const bar = progressBar(io.stderr);
  let result: ToolCallOutcome;
  try {
    result = await withServer(config, io, (client) =>
      client.callTool(tool, args, { onProgress: (p) => bar.update(p) }),
    );
  } finally {
    bar.done();
  }
  io.stdout.write(parsed.json ? `${JSON.stringify(result)}\n` : formatResult(result));
  if (result.resultType === 'input_required') return EXIT.inputRequired;
  return result.isError ? EXIT.toolError : EXIT.ok;
}

async function discoverCommand(parsed: ParsedArgs, io: CliIo): Promise<number> {
  const config = targetConfig(parsed);
  const facts = await withServer(config, io, async (client) => ({
    protocolVersion: client.protocolVersion,
    transport: client.transport,
    ...(await client.discover()),
  }));
  if (parsed.json) {
    io.stdout.write(`${JSON.stringify(facts)}\n`);
    return EXIT.ok;
  }
  const lines = [
    `protocol version: ${facts.protocolVersion} (${facts.transport}; facts from ${facts.source})`,
    `server: ${facts.serverInfo ? `${facts.serverInfo.name} ${facts.serverInfo.version}` : '(not reported)'}`,
    `supported versions: ${facts.supportedVersions.join(', ') || '(not reported)'}`,
    `capabilities: ${Object.keys(facts.capabilities).join(', ') || '(none)'}`,
  ];
  if (facts.instructions)
    lines.push(
      'instructions (data from the server):',
      ...facts.instructions.split('\n').map((l) => `    ${l}`),
    );
  io.stdout.write(`${lines.map((l) => l.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '')).join('\n')}\n`);
  return EXIT.ok;
}

/**
 * Connects (an HTTP target with its stored login, if the store holds one), runs `fn`, and closes — also
 * when `fn` throws — then warns once on stderr about what the server wrote to stdout besides MCP messages
 * (skipped, not fatal).
 */
async function withServer<T>(
  config: ServerConfig,
  io: CliIo,
  fn: (client: Client) => Promise<T>,
): Promise<T> {
  const auth = await storedLogin(config, io);
  const options: ConnectOptions = auth === undefined ? {} : { auth };
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
