/**
 * The server of a `tools`, `call`, `discover`, `types` or `pin` command: its target resolved (a configured
 * server, saved settings, a URL or a command), and a connection to it that is closed whatever happens.
 */

import type { ConnectOptions, ServerConfig } from '../client/index.js';
import { type Client, connect } from '../client/index.js';
import type { Settings } from '../settings/settings.js';
import { storedLogin } from './auth.js';
import type { CliIo } from './io.js';
import { targetWithSettings } from './settings/target.js';
import { checkTargetOptions, type TargetLine } from './target.js';

/** A resolved target: the config to connect with, and the saved settings it used (for `envFrom`). */
export interface Target {
  readonly config: ServerConfig;
  readonly settings?: Settings;
  /** The extensions to turn on (`--extension`). */
  readonly extensions?: readonly string[];
}

/** A resolved target, with the words left once it was taken out and the configured server it named. */
export interface ResolvedTarget extends Target {
  /** The command line's words without the target (`call`: the tool and its arguments). */
  readonly words: string[];
  /** The configured server named (`NAME` of `tools NAME`, `call NAME.TOOL`), for hints that echo it. */
  readonly configuredName?: string;
}

/** The target of `tools`, `call`, `discover` and `types`, with the options that do not apply to it refused. */
export async function resolveTarget(
  args: Omit<TargetLine, 'positionals' | 'configuredName'> & { readonly positionals: readonly string[] },
  io: CliIo,
): Promise<ResolvedTarget> {
  const line: TargetLine = { ...args, positionals: [...args.positionals] };
  const { configuredTarget } = await import('./configured-target.js');
  const target = await targetWithSettings(line, io, await configuredTarget(line));
  checkTargetOptions(line, target.config);
  return {
    ...target,
    ...(args.extensions === undefined || args.extensions.length === 0 ? {} : { extensions: args.extensions }),
    words: line.positionals,
    ...(line.configuredName === undefined ? {} : { configuredName: line.configuredName }),
  };
}

/** The same target with one more extension turned on (a command that needs it, e.g. `skills`). */
export function turningOn<T extends Target>(target: T, id: string): T {
  return { ...target, extensions: [...(target.extensions ?? []), id] };
}

/**
 * Connects (an HTTP target with its stored login, if the store holds one; a stdio config's `envFrom`
 * read from the same settings as `--settings`), runs `fn`, and closes — also when `fn` throws — then
 * warns once on stderr about what the server wrote to stdout besides MCP messages (skipped, not fatal).
 */
export async function withServer<T>(
  target: Target,
  io: CliIo,
  fn: (client: Client) => Promise<T>,
  extra: ConnectOptions = {},
): Promise<T> {
  const { config, settings, extensions } = target;
  const auth = await storedLogin(config, io);
  const options: ConnectOptions = {
    ...extra,
    ...(extensions === undefined ? {} : { extensions }),
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
