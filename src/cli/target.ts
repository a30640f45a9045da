/**
 * A server target on the command line: a URL (first or last among the words), everything after `--` (a
 * command and its arguments, never a shell string), or neither (a configured server or `--settings`, see
 * `configured-target.ts` and `settings/target.ts`); and the connection options that apply to the one given.
 */
import type { ServerConfig } from '../client/index.js';
import { mergeConfig } from '../config/index.js';
import { UsageError } from './usage-error.js';

/** The command line of a command with a server target, as target resolution reads it. */
export interface TargetLine {
  readonly command: string;
  /** The words: the target is taken out of them as it is resolved (for `call`, the tool and arguments stay). */
  positionals: string[];
  readonly serverCommand: readonly string[] | undefined;
  readonly protocol: string | undefined;
  readonly timeoutMs: number | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string | undefined;
  readonly settingsName?: string | undefined;
  readonly plaintextFile?: boolean;
  readonly configFile: string | undefined;
  readonly trustProject: boolean;
  /** `--extension` ids, passed to connect as they are (it checks them). */
  readonly extensions?: readonly string[];
  /** The configured server the target named (`NAME`, or `NAME` of `call NAME.TOOL`), once it is resolved. */
  configuredName?: string;
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
function placementProblem(parsed: TargetLine): void {
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
export function checkTargetOptions(parsed: TargetLine, config: ServerConfig): void {
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
export function targetUrl(
  parsed: Pick<TargetLine, 'serverCommand'> & { readonly positionals: readonly string[] },
): string | undefined {
  if (parsed.serverCommand) return undefined;
  const candidate = parsed.positionals[targetUrlIndex(parsed.positionals)];
  return candidate !== undefined && URL_LIKE.test(candidate) ? candidate : undefined;
}

/**
 * The server config for a parsed command line. With `--` the target is a command; otherwise the target
 * URL is the first positional, or the last when only that one is a URL (removed from `positionals`).
 */
export function targetConfig(parsed: TargetLine): ServerConfig {
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

/**
 * The command line's `--timeout`, `--protocol`, `--env`/`--cwd` (stdio) and `--header` (HTTP) over a
 * config from elsewhere (a configured server, saved settings); env and headers merge one level deep.
 * `AUTOS_MCP_TOKEN` fills an HTTP config's `authToken` when it has none.
 */
export function withCommandLine(config: ServerConfig, line: TargetLine): ServerConfig {
  const flags: Record<string, unknown> = {};
  if (line.timeoutMs !== undefined) flags['timeoutMs'] = line.timeoutMs;
  if (line.protocol !== undefined) flags['protocolVersion'] = line.protocol;
  if ('url' in config) {
    if (Object.keys(line.headers).length > 0) flags['headers'] = line.headers;
    const token = process.env['AUTOS_MCP_TOKEN'];
    if (token && config.authToken === undefined) flags['authToken'] = token;
  } else {
    if (Object.keys(line.env).length > 0) flags['env'] = line.env;
    if (line.cwd !== undefined) flags['cwd'] = line.cwd;
  }
  return mergeConfig(config, flags);
}
