/**
 * `autos-mcp` commands: `tools`, `call`, `discover`, `demo`, the OAuth logins `login`, `logout` and
 * `auth status`, and the saved `settings`. Readable output by default, `--json` for programs; exit codes
 * tell a tool's own error (`isError`) apart from a failure to call it.
 */
import { isMcpError } from '../client/index.js';
import { PACKAGE_VERSION } from '../version.js';
import { jsonRequested, type ParsedArgs, parseArgs, TARGET_COMMANDS, UsageError } from './args.js';
import { authCommand, loginCommand, logoutCommand } from './auth-commands.js';
import { callCommand, toolHelpCommand, UnknownToolError } from './call.js';
import { resolveTarget, withServer } from './connection.js';
import { runDemo } from './demo.js';
import { EXIT, usageError } from './exit.js';
import { formatDiscover, formatError } from './format.js';
import { HELP } from './help.js';
import { loginHint, loginHintTarget } from './login-hint.js';
import type { ProgressSink } from './progress.js';
import { settingsCommand } from './settings/command.js';
import { cancelledExit } from './settings/prompt.js';
import type { SecretInput } from './settings/stdin.js';
import { formatToolList, terminalSafe } from './tool-help.js';
import { typesCommand } from './types-command.js';

export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: ProgressSink;
  /** Where `settings set` reads secret values (default `process.stdin`). */
  stdin?: SecretInput;
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
  if (command !== 'logout' && parsed.forgetRegistration)
    return usageError(io, json, '--forget-registration is an option of logout', HELP[command]);
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
        ...(error.tools === undefined ? {} : { tools: error.tools }),
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
