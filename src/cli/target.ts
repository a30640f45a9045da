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
  /** `--version` / `-V`. */
  version: boolean;
  protocol: string | undefined;
  timeoutMs: number | undefined;
  headers: Record<string, string>;
  env: Record<string, string>;
  cwd: string | undefined;
  /** `login`: the device grant instead of a browser. */
  device: boolean;
  /** `login`: print the authorization URL instead of opening a browser. */
  noBrowser: boolean;
  /** `login`: allow dynamic client registration. */
  dcr: boolean;
  /** `login`: ask for DPoP-bound tokens (RFC 9449) where the authorization server offers them. */
  dpop: boolean;
  /** `logout`: also forget the client registered (dynamic registration) at the authorization server. */
  forgetRegistration: boolean;
  /** `login`: a pre-registered client id. */
  clientId: string | undefined;
  /** `login`: the name of the environment variable that holds the client secret (never the secret). */
  clientSecretEnv: string | undefined;
  /** `login`: scopes to ask for (repeatable). */
  scopes: string[];
  /** The login-only options given, by name, to refuse them on other commands. */
  loginOptions: string[];
  /** `tools`/`call`/`discover`: the saved settings to use (`--settings <name>`). */
  settingsName: string | undefined;
  /** `settings` and `--settings`: the plaintext file backend instead of the OS credential store. */
  plaintextFile: boolean;
  /**
   * `settings set`: the secrets to read from stdin or a hidden prompt, in the order given (`--env KEY`,
   * `--header NAME`, `--auth-token`). Only names: a value is never taken from the command line.
   */
  secretItems: SecretItem[];
  /** `settings set`: `--command`, `--arg` (repeatable), `--url`. */
  setCommand: string | undefined;
  setArgs: string[] | undefined;
  setUrl: string | undefined;
  /** `settings set`: read a whole partial config as JSON from stdin. */
  jsonConfig: boolean;
  /** `settings set`: replace the saved settings instead of merging into them. */
  replace: boolean;
  /** `settings get`: show secret values instead of masking them. */
  reveal: boolean;
  /** The options only `settings` takes that were given, by name, to refuse them on other commands. */
  settingsOptions: string[];
  /** `--config FILE`: read configured servers from that one file only. */
  configFile: string | undefined;
  /** `--trust-project`: start servers of untrusted project config files, for this run. */
  trustProject: boolean;
  /** `types --out file.ts`: where the generated module is written (default stdout). */
  out: string | undefined;
  /** The configured server the target named (`NAME`, or `NAME` of `call NAME.TOOL`), once it is resolved. */
  configuredName?: string;
}

/** A secret `settings set` reads (its value never comes from argv). */
export type SecretItem =
  | { readonly kind: 'env'; readonly name: string }
  | { readonly kind: 'header'; readonly name: string }
  | { readonly kind: 'authToken' };

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

const VALUE_OPTIONS = new Set([
  '--protocol',
  '--timeout',
  '--header',
  '--env',
  '--cwd',
  '--client-id',
  '--client-secret-env',
  '--scope',
  '--settings',
  '--command',
  '--arg',
  '--url',
  '--config',
  '--out',
]);
const FLAG_OPTIONS = new Set(['--device', '--no-browser', '--dcr', '--dpop']);
/** Flags of `settings` (and `--plaintext-file`, which `--settings` takes too). */
const SETTINGS_FLAGS = new Set([
  '--plaintext-file',
  '--auth-token',
  '--json-config',
  '--replace',
  '--reveal',
]);
/** Options only `settings` takes. */
const SETTINGS_ONLY = new Set([
  '--auth-token',
  '--json-config',
  '--replace',
  '--reveal',
  '--command',
  '--arg',
  '--url',
]);
/** Options only `login` takes. */
const LOGIN_OPTIONS = new Set([
  '--device',
  '--dpop',
  '--no-browser',
  '--dcr',
  '--client-id',
  '--client-secret-env',
  '--scope',
]);

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const parsed: ParsedArgs = {
    command: undefined,
    positionals: [],
    serverCommand: undefined,
    json: false,
    help: false,
    version: false,
    protocol: undefined,
    timeoutMs: undefined,
    headers: {},
    env: {},
    cwd: undefined,
    device: false,
    noBrowser: false,
    dcr: false,
    dpop: false,
    forgetRegistration: false,
    clientId: undefined,
    clientSecretEnv: undefined,
    scopes: [],
    loginOptions: [],
    settingsName: undefined,
    plaintextFile: false,
    secretItems: [],
    setCommand: undefined,
    setArgs: undefined,
    setUrl: undefined,
    jsonConfig: false,
    replace: false,
    reveal: false,
    settingsOptions: [],
    configFile: undefined,
    trustProject: false,
    out: undefined,
  };
  /** `--env`, `--header` and `--auth-token` in order: read once the command is known (settings takes names). */
  const envAndHeaders: Array<{ option: string; value: string }> = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      parsed.serverCommand = argv.slice(i + 1);
      break;
    }
    if (arg === '--json') parsed.json = true;
    else if (arg === '--help' || arg === '-h') parsed.help = true;
    else if (arg === '--version' || arg === '-V') parsed.version = true;
    else if (arg === '--trust-project') parsed.trustProject = true;
    else if (FLAG_OPTIONS.has(arg)) applyFlag(parsed, arg);
    else if (arg === '--forget-registration') parsed.forgetRegistration = true;
    else if (SETTINGS_FLAGS.has(arg)) applySettingsFlag(parsed, arg, envAndHeaders);
    else if (arg === '--client-secret' || arg.startsWith('--client-secret='))
      throw new UsageError(
        '--client-secret is not taken on the command line (other users can see it); put the secret in an environment variable and name it with --client-secret-env VAR',
      );
    else if (
      VALUE_OPTIONS.has(arg) ||
      (arg.includes('=') && VALUE_OPTIONS.has(arg.slice(0, arg.indexOf('='))))
    ) {
      const eq = arg.indexOf('=');
      const name = eq > 0 ? arg.slice(0, eq) : arg;
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new UsageError(`${name} needs a value`);
      if (name === '--env' || name === '--header') envAndHeaders.push({ option: name, value });
      else applyOption(parsed, name, value);
    } else if (arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option ${arg}`);
    else if (parsed.command === undefined) parsed.command = arg;
    else parsed.positionals.push(arg);
  }
  for (const { option, value } of envAndHeaders) {
    if (parsed.command === 'settings') parsed.secretItems.push(secretItem(option, value));
    else if (option !== '--auth-token') applyOption(parsed, option, value);
  }
  // `autos-mcp <url> tools`: the target came before the command; take it as the first positional.
  const first = parsed.positionals[0];
  if (
    parsed.command !== undefined &&
    URL_LIKE.test(parsed.command) &&
    first !== undefined &&
    TARGET_COMMANDS.has(first)
  ) {
    parsed.positionals[0] = parsed.command;
    parsed.command = first;
  }
  return parsed;
}

/** The commands that take a target (a URL, `-- command…` or `--settings <name>`). */
export const TARGET_COMMANDS: ReadonlySet<string> = new Set(['tools', 'call', 'discover', 'types']);

/** Whether `--json` was given before any `--` (for usage errors found before parsing finished). */
export function jsonRequested(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

function applySettingsFlag(
  parsed: ParsedArgs,
  name: string,
  envAndHeaders: Array<{ option: string; value: string }>,
): void {
  if (SETTINGS_ONLY.has(name)) parsed.settingsOptions.push(name);
  if (name === '--plaintext-file') parsed.plaintextFile = true;
  else if (name === '--auth-token') envAndHeaders.push({ option: name, value: '' });
  else if (name === '--json-config') parsed.jsonConfig = true;
  else if (name === '--replace') parsed.replace = true;
  else parsed.reveal = true;
}

const ENV_KEY = /^[^=\0]{1,256}$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;

/** `settings set --env KEY` / `--header NAME` / `--auth-token`: a name only; a value given here is refused unseen. */
function secretItem(option: string, value: string): SecretItem {
  if (option === '--auth-token') return { kind: 'authToken' };
  if (option === '--env') {
    if (value.includes('='))
      throw new UsageError(
        "--env takes only the variable's name here (--env KEY); its value is read from stdin or a hidden prompt, never from the command line",
      );
    if (!ENV_KEY.test(value)) throw new UsageError('--env needs the name of a variable');
    return { kind: 'env', name: value };
  }
  if (value.includes(':'))
    throw new UsageError(
      "--header takes only the header's name here (--header NAME); its value is read from stdin or a hidden prompt, never from the command line",
    );
  if (!HEADER_NAME.test(value)) throw new UsageError('--header needs a header name (letters, digits, -)');
  return { kind: 'header', name: value };
}

function applyFlag(parsed: ParsedArgs, name: string): void {
  parsed.loginOptions.push(name);
  if (name === '--device') parsed.device = true;
  else if (name === '--no-browser') parsed.noBrowser = true;
  else if (name === '--dpop') parsed.dpop = true;
  else parsed.dcr = true;
}

function applyOption(parsed: ParsedArgs, name: string, value: string): void {
  if (LOGIN_OPTIONS.has(name)) parsed.loginOptions.push(name);
  if (SETTINGS_ONLY.has(name)) parsed.settingsOptions.push(name);
  switch (name) {
    case '--out':
      if (value === '') throw new UsageError('--out needs a file name');
      parsed.out = value;
      return;
    case '--config':
      if (value === '') throw new UsageError('--config needs a file');
      parsed.configFile = value;
      return;
    case '--settings':
      if (value === '') throw new UsageError('--settings needs the name of saved settings');
      parsed.settingsName = value;
      return;
    case '--command':
      if (value === '') throw new UsageError('--command needs a command');
      parsed.setCommand = value;
      return;
    case '--arg':
      parsed.setArgs = [...(parsed.setArgs ?? []), value];
      return;
    case '--url':
      parsed.setUrl = value;
      return;
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
    case '--client-id':
      if (value === '') throw new UsageError('--client-id needs a client id');
      parsed.clientId = value;
      return;
    case '--client-secret-env':
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(value))
        throw new UsageError(
          '--client-secret-env needs the name of an environment variable (not the secret)',
        );
      parsed.clientSecretEnv = value;
      return;
    case '--scope':
      if (value.trim() === '') throw new UsageError('--scope needs a scope name');
      for (const scope of value.split(/\s+/).filter(Boolean)) parsed.scopes.push(scope);
      return;
  }
}

const URL_LIKE = /^https?:\/\//i;

/** A word as shown in a message: bounded. */
function shown(word: string): string {
  return word.length > 200 ? `${word.slice(0, 199)}…` : word;
}

/** Programs that start servers, and script files: a word like these without `--` was meant as a command. */
export const COMMAND_LIKE =
  /^(node|npx|npm|pnpm|yarn|bunx?|deno|uvx?|python3?|pipx|docker|podman|java|go|cargo|ruby|php|dotnet|autos-mcp)$|\.(m?js|cjs|ts|py|sh|rb|jar|exe)$|^\.{0,2}\//;

/**
 * A URL target that is neither first nor last, two URLs, or a server command given without `--`: a usage
 * error naming the word that looked like a target. Without any of these, nothing (the usual checks follow).
 */
function placementProblem(parsed: ParsedArgs): void {
  const words = parsed.positionals;
  const urls = words.map((word, i) => (URL_LIKE.test(word) ? i : -1)).filter((i) => i >= 0);
  const last = words.length - 1;
  if (urls.length > 1)
    throw new UsageError(
      `two targets: ${urls.map((i) => JSON.stringify(shown(words[i] as string))).join(' and ')} both look like target URLs; give one`,
    );
  const at = urls[0];
  if (at !== undefined) {
    if (at !== 0 && at !== last)
      throw new UsageError(
        `${JSON.stringify(shown(words[at] as string))} looks like the target: put it first or last (autos-mcp ${parsed.command ?? '<command>'} <url> …, or … <url>)`,
      );
    return;
  }
  // A tool name comes first in `call`: a tool called `go` is not a command, nor is an argument `file=x.sh`.
  const from = parsed.command === 'call' ? 1 : 0;
  const command = words.findIndex(
    (word, i) => i >= from && COMMAND_LIKE.test(word) && !(from === 1 && word.includes('=')),
  );
  if (command !== -1) {
    const rest = words
      .slice(command)
      .map((w) => shown(w))
      .join(' ');
    throw new UsageError(
      `${JSON.stringify(shown(words[command] as string))} looks like a server command: to start a server, put its command after -- (… -- ${rest})`,
    );
  }
  if (parsed.command === 'call' && words.length > 0)
    throw new UsageError(
      'no target: give a URL (first or last), -- <command> [args…] at the end, or a configured server as NAME.TOOL',
    );
}

/**
 * The options given that do not apply to the resolved target: `--header` with a command (stdio), `--env`
 * and `--cwd` with a URL (HTTP). A usage error naming the first one.
 */
export function checkTargetOptions(parsed: ParsedArgs, config: ServerConfig): void {
  if ('url' in config && typeof config.url === 'string') {
    const option =
      Object.keys(parsed.env).length > 0 ? '--env' : parsed.cwd !== undefined ? '--cwd' : undefined;
    if (option !== undefined)
      throw new UsageError(
        `${option} applies to a server started as a command (after --), not to a URL target`,
      );
  } else if (Object.keys(parsed.headers).length > 0) {
    throw new UsageError('--header applies to an HTTP target (a URL), not to a server started as a command');
  }
}

/**
 * Where the target URL is among the positionals: the first, or else the last when only that one is a URL
 * (`call <url> <tool> [args]` and `call <tool> [args] <url>` both work). 0 when neither is, so the
 * first is the one reported as not a URL.
 */
export function targetUrlIndex(positionals: readonly string[]): number {
  if (positionals.length === 0 || URL_LIKE.test(positionals[0] as string)) return 0;
  const last = positionals.length - 1;
  return URL_LIKE.test(positionals[last] as string) ? last : 0;
}

/** The target URL as typed (undefined for a `--` command or when none is given). */
export function targetUrl(parsed: ParsedArgs): string | undefined {
  if (parsed.serverCommand) return undefined;
  const candidate = parsed.positionals[targetUrlIndex(parsed.positionals)];
  return candidate !== undefined && URL_LIKE.test(candidate) ? candidate : undefined;
}

/**
 * The server config for a parsed command line. With `--` the target is a command; otherwise the target
 * URL is the first positional, or the last when only that one is a URL (removed from `positionals`).
 */
export function targetConfig(parsed: ParsedArgs): ServerConfig {
  const common: { protocolVersion?: never; timeoutMs?: number } = {};
  if (parsed.timeoutMs !== undefined) common.timeoutMs = parsed.timeoutMs;
  const protocol = parsed.protocol as ServerConfig['protocolVersion'];
  if (parsed.serverCommand) {
    const [command, ...args] = parsed.serverCommand;
    if (!command) throw new UsageError('nothing after --: give the server command, e.g. -- node server.js');
    const url = parsed.positionals.find((word) => URL_LIKE.test(word));
    if (url !== undefined)
      throw new UsageError(
        `two targets: ${JSON.stringify(shown(url))} looks like a target URL, and a command follows --; give one of them`,
      );
    return {
      command,
      args,
      ...common,
      ...(protocol ? { protocolVersion: protocol } : {}),
      ...(Object.keys(parsed.env).length ? { env: parsed.env } : {}),
      ...(parsed.cwd ? { cwd: parsed.cwd } : {}),
    };
  }
  placementProblem(parsed);
  const [url] = parsed.positionals.splice(targetUrlIndex(parsed.positionals), 1);
  if (!url) throw new UsageError('no target: give a URL, or -- <command> [args…]');
  if (!URL_LIKE.test(url)) {
    throw new UsageError(
      `target ${JSON.stringify(shown(url))} is not a URL; to start a server, put its command after --`,
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
