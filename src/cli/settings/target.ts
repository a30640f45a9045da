/**
 * `--settings <name>` on `tools`, `call` and `discover`: the saved settings as the target, or merged over
 * the target given (the target gives the server, the settings the secrets).
 */
import { McpError, type ServerConfig } from '../../client/index.js';
import { mergeConfig } from '../../config/index.js';
import type { Settings } from '../../settings/settings.js';
import type { CliIo } from '../io.js';
import { type TargetLine, targetConfig, targetUrl, withCommandLine } from '../target.js';
import { UsageError } from '../usage-error.js';
import { NAME, openCliSettings } from './store.js';

/**
 * The config of a `tools`/`call`/`discover` target, with `--settings <name>`: the saved settings alone
 * (they then hold a `command` or a `url`), or merged over a URL / `--` command target or a `configured`
 * server (the target gives the server, the settings the secrets). `--timeout`, `--protocol`, `--env`, `--header` and `--cwd` given
 * on the command line win over both. The `Settings` are returned too, for `envFrom`.
 */
export async function targetWithSettings(
  parsed: TargetLine,
  io: CliIo,
  configured?: ServerConfig,
): Promise<{ config: ServerConfig; settings?: Settings }> {
  if (parsed.settingsName === undefined) {
    if (parsed.plaintextFile)
      throw new UsageError('--plaintext-file goes with --settings <name> (or settings …)');
    return { config: configured ?? targetConfig(parsed) };
  }
  const name = parsed.settingsName;
  if (!NAME.test(name))
    throw new UsageError(
      '--settings needs a settings name (A-Z a-z 0-9 . _ -, starting with a letter or digit)',
    );
  const hasTarget =
    configured !== undefined || parsed.serverCommand !== undefined || targetUrl(parsed) !== undefined;
  // The target is checked (and taken out of the positionals) before the store is touched; a configured
  // server (autos-mcp/servers) is a target too.
  const target = hasTarget ? (configured ?? targetConfig(parsed)) : undefined;
  const { settings } = await openCliSettings(parsed, io);
  const saved = (await settings.load(name)) ?? {};
  let config: ServerConfig;
  if (target !== undefined) config = mergeConfig(target, saved);
  else {
    if (typeof saved['command'] !== 'string' && typeof saved['url'] !== 'string')
      throw new McpError(
        'config',
        `the settings "${name}" hold no command or url: give a target (a URL, or -- command …), or save one (autos-mcp settings set ${name} --command … or --url …)`,
      );
    // A whole config: the saved server (its command, or else its url) with every saved field over it.
    const server =
      typeof saved['command'] === 'string' ? { command: saved['command'] } : { url: String(saved['url']) };
    config = mergeConfig(server, saved);
  }
  return { config: withCommandLine(config, parsed), settings };
}
