/**
 * Command-line parsing for `autos-mcp`: a command, options, positionals, and a target — either a URL
 * or everything after `--` (a command and its arguments, never a shell string).
 */
import type { ServerConfig } from '../client/index.js';

export interface ParsedArgs {
  command: string | undefined;
  positionals: string[];
  /** Everything after `--`: the server command line. */
  serverCommand: string[] | undefined;
  json: boolean;
  help: boolean;
  protocol: string | undefined;
  timeoutMs: number | undefined;
  headers: Record<string, string>;
  env: Record<string, string>;
  cwd: string | undefined;
}

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

const VALUE_OPTIONS = new Set(['--protocol', '--timeout', '--header', '--env', '--cwd']);

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const parsed: ParsedArgs = {
    command: undefined,
    positionals: [],
    serverCommand: undefined,
    json: false,
    help: false,
    protocol: undefined,
    timeoutMs: undefined,
    headers: {},
    env: {},
    cwd: undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      parsed.serverCommand = argv.slice(i + 1);
      break;
    }
    if (arg === '--json') parsed.json = true;
    else if (arg === '--help' || arg === '-h') parsed.help = true;
    else if (
      VALUE_OPTIONS.has(arg) ||
      (arg.includes('=') && VALUE_OPTIONS.has(arg.slice(0, arg.indexOf('='))))
    ) {
      const eq = arg.indexOf('=');
      const name = eq > 0 ? arg.slice(0, eq) : arg;
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new UsageError(`${name} needs a value`);
      applyOption(parsed, name, value);
    } else if (arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option ${arg}`);
    else if (parsed.command === undefined) parsed.command = arg;
    else parsed.positionals.push(arg);
  }
  return parsed;
}

function applyOption(parsed: ParsedArgs, name: string, value: string): void {
  switch (name) {
    case '--protocol':
      parsed.protocol = value;
      return;
    case '--timeout': {
      const ms = Number(value);
      if (!Number.isInteger(ms) || ms <= 0)
        throw new UsageError('--timeout needs a positive number of milliseconds');
      parsed.timeoutMs = ms;
      return;
    }
    case '--header': {
      const colon = value.indexOf(':');
      if (colon <= 0) throw new UsageError('--header needs "Name: value"');
      parsed.headers[value.slice(0, colon).trim()] = value.slice(colon + 1).trim();
      return;
    }
    case '--env': {
      const eq = value.indexOf('=');
      if (eq <= 0) throw new UsageError('--env needs NAME=value');
      parsed.env[value.slice(0, eq)] = value.slice(eq + 1);
      return;
    }
    case '--cwd':
      parsed.cwd = value;
      return;
  }
}

/**
 * The server config for a parsed command line. With `--` the target is a command; otherwise the first
 * positional is taken as the target URL (removed from `positionals`).
 */
export function targetConfig(parsed: ParsedArgs): ServerConfig {
  const common: { protocolVersion?: never; timeoutMs?: number } = {};
  if (parsed.timeoutMs !== undefined) common.timeoutMs = parsed.timeoutMs;
  const protocol = parsed.protocol as ServerConfig['protocolVersion'];
  if (parsed.serverCommand) {
    const [command, ...args] = parsed.serverCommand;
    if (!command) throw new UsageError('nothing after --: give the server command, e.g. -- node server.js');
    return {
      command,
      args,
      ...common,
      ...(protocol ? { protocolVersion: protocol } : {}),
      ...(Object.keys(parsed.env).length ? { env: parsed.env } : {}),
      ...(parsed.cwd ? { cwd: parsed.cwd } : {}),
    };
  }
  const url = parsed.positionals.shift();
  if (!url) throw new UsageError('no target: give a URL, or -- <command> [args…]');
  if (!/^https?:\/\//i.test(url)) {
    throw new UsageError(
      `target ${JSON.stringify(url)} is not a URL; to start a server, put its command after --`,
    );
  }
  const authToken = process.env['AUTOS_MCP_TOKEN'];
  return {
    url,
    ...common,
    ...(protocol ? { protocolVersion: protocol } : {}),
    ...(Object.keys(parsed.headers).length ? { headers: parsed.headers } : {}),
    ...(authToken ? { authToken } : {}),
  };
}
