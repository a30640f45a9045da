/**
 * The server of a `tools`, `call`, `discover`, `types` or `pin` command: its target resolved (a configured
 * server, saved settings, a URL or a command), and a connection to it that is closed whatever happens.
 */

import type { ConnectOptions, ServerConfig } from '../client/index.js';
import { type Client, connect } from '../client/index.js';
import type { Settings } from '../settings/settings.js';
import { checkTargetOptions, type ParsedArgs } from './args.js';
import { storedLogin } from './auth.js';
import type { CliIo } from './main.js';
import { targetWithSettings } from './settings/target.js';

/** The target of `tools`, `call` and `discover`, with the options that do not apply to it refused. */
export async function resolveTarget(
  parsed: ParsedArgs,
  io: CliIo,
): Promise<{ config: ServerConfig; settings?: Settings }> {
  const { configuredTarget } = await import('./servers.js');
  const target = await targetWithSettings(parsed, io, await configuredTarget(parsed));
  checkTargetOptions(parsed, target.config);
  return target;
}

/**
 * Connects (an HTTP target with its stored login, if the store holds one; a stdio config's `envFrom`
 * read from the same settings as `--settings`), runs `fn`, and closes — also when `fn` throws — then
 * warns once on stderr about what the server wrote to stdout besides MCP messages (skipped, not fatal).
 */
export async function withServer<T>(
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
