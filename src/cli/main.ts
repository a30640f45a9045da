/**
 * `main(argv, io)`: one run of `autos-mcp`. The command table (`table.ts`) says which commands there are,
 * what each takes and its help; this file reads the command line against it, prints help and usage errors,
 * runs the command, and turns what it throws into an exit code. Readable output by default, `--json` for
 * programs; exit codes tell a tool's own error (`isError`) apart from a failure to call it.
 */
import { isMcpError } from '../client/index.js';
import { PACKAGE_VERSION } from '../version.js';
import type { Args, Command, Options } from './command.js';
import { EXIT, usageError } from './exit.js';
import { formatError } from './format.js';
import { commandHelp, overview } from './help.js';
import type { CliIo } from './io.js';
import { loginHint, loginHintTarget } from './login-hint.js';
import { bind, findCommand, jsonRequested, missingSubcommand, type Tokens, tokenize } from './parse.js';
import { cancelledExit } from './settings/prompt.js';
import { COMMANDS } from './table.js';
import { terminalSafe } from './tool-help.js';
import { UsageError } from './usage-error.js';

export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  let tokens: Tokens;
  try {
    tokens = tokenize(argv, COMMANDS);
  } catch (error) {
    return usageError(io, jsonRequested(argv), (error as Error).message, overview(COMMANDS));
  }
  const json = tokens.json;
  if (tokens.version) {
    io.stdout.write(json ? `${JSON.stringify({ version: PACKAGE_VERSION })}\n` : `${PACKAGE_VERSION}\n`);
    return EXIT.ok;
  }
  const [word, ...rest] = tokens.words;
  if (word === undefined || word === 'help') {
    if (word === undefined && !tokens.help) {
      if (json) return usageError(io, json, 'no command given', overview(COMMANDS));
      io.stdout.write(`${overview(COMMANDS)}\n`);
      return EXIT.usage;
    }
    const named = findCommand(COMMANDS, rest);
    io.stdout.write(`${named === undefined ? overview(COMMANDS) : commandHelp(named.command, COMMANDS)}\n`);
    return EXIT.ok;
  }
  const found = findCommand(COMMANDS, tokens.words);
  if (found === undefined)
    return usageError(
      io,
      json,
      `unknown command ${JSON.stringify(terminalSafe(word.slice(0, 200)))}`,
      overview(COMMANDS),
    );
  const { command } = found;
  const help = commandHelp(command, COMMANDS);
  let args: Args<Options>;
  try {
    args = bind(command, tokens, found.positionals, COMMANDS);
  } catch (error) {
    if (!tokens.help) return usageError(io, json, (error as Error).message, help);
    io.stdout.write(`${help}\n`);
    return EXIT.ok;
  }
  if (tokens.help && command.helpRuns?.(args) !== true) {
    io.stdout.write(`${help}\n`);
    return EXIT.ok;
  }
  return run(command, args, io, help);
}

/** Runs the command; what it throws becomes a usage error (2), a cancelled prompt (130) or a failure. */
async function run(command: Command, args: Args<Options>, io: CliIo, help: string): Promise<number> {
  const hintUrl = command.target === 'server' ? loginHintTarget(args) : undefined;
  try {
    if (command.run === undefined) throw missingSubcommand(command, args.positionals[0]);
    return await command.run(args, io);
  } catch (error) {
    const cancelled = cancelledExit(error, io);
    if (cancelled !== undefined) return cancelled;
    if (error instanceof UsageError) {
      const shown = error.help === undefined ? help : error.help === false ? undefined : error.help;
      return usageError(io, args.json, error.message, shown, error.details);
    }
    if (args.json)
      io.stdout.write(`${JSON.stringify({ error: isMcpError(error) ? error.toJSON() : String(error) })}\n`);
    io.stderr.write(formatError(error) + loginHint(error, hintUrl));
    if (!isMcpError(error)) return EXIT.failure;
    return error.kind === 'config' ? EXIT.usage : error.kind === 'denied' ? EXIT.denied : EXIT.failure;
  }
}
