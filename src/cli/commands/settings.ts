/**
 * `autos-mcp settings set|get|list|rm`, and `--settings <name>` as the target (or the secrets) of `tools`,
 * `call` and `discover`. Settings live in the OS credential store by default (`autos-mcp/settings`); the
 * plaintext file backend only when asked for by name (`--plaintext-file`, or the environment variable
 * `AUTOS_MCP_SETTINGS_BACKEND`, with `AUTOS_MCP_SETTINGS_DIR` for its directory). The settings module is
 * loaded with a dynamic import, and only by these commands, so a plain `tools`/`call` never loads it.
 *
 * Secret values (`env` values, `headers` values, `authToken`) never come from the command line: `set`
 * reads them from stdin (one line each, in the order the options were given) or from a hidden prompt on a
 * terminal, and `get` masks them unless `--reveal`. No message ever shows one.
 *
 * This file checks the command line and runs `get`, `list` and `rm`; `set` is `set.ts`, `--settings`
 * `target.ts`, the backend `store.ts`, reading secrets `stdin.ts` and `prompt.ts`.
 */
import { type ParsedArgs, UsageError } from '../args.js';
import { safeText } from '../format.js';
import type { CliIo } from '../main.js';
import { configLines, maskConfig } from './mask.js';
import { setCommand } from './set.js';
import { NAME, openCliSettings } from './store.js';

function checkName(name: string | undefined, sub: string): string {
  if (name === undefined) throw new UsageError(`settings ${sub} needs a name`);
  if (!NAME.test(name))
    throw new UsageError(
      'a settings name is 1-64 characters of A-Z a-z 0-9 . _ - and starts with a letter or digit',
    );
  return name;
}

export async function settingsCommand(parsed: ParsedArgs, io: CliIo): Promise<number> {
  const [sub, name, extra] = parsed.positionals;
  if (parsed.settingsName !== undefined)
    throw new UsageError('--settings is an option of tools, call and discover');
  if (parsed.protocol !== undefined) throw new UsageError('--protocol is not an option of settings');
  if (parsed.serverCommand !== undefined && (sub === 'get' || sub === 'list' || sub === 'rm'))
    throw new UsageError(`settings ${sub} takes nothing after --`);
  if (sub === 'get' || sub === 'list' || sub === 'rm') {
    const misplaced = [
      ...parsed.settingsOptions.filter((o) => o !== '--reveal'),
      ...parsed.secretItems.map((i) => (i.kind === 'authToken' ? '--auth-token' : `--${i.kind}`)),
      ...(parsed.cwd !== undefined ? ['--cwd'] : []),
    ][0];
    if (misplaced !== undefined) throw new UsageError(`${misplaced} is an option of settings set`);
  }
  if (sub !== 'get' && parsed.reveal) throw new UsageError('--reveal is an option of settings get');
  switch (sub) {
    case 'set':
      if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(safeText(extra))}`);
      return setCommand(parsed, checkName(name, 'set'), io);
    case 'get':
      if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(safeText(extra))}`);
      return getCommand(parsed, checkName(name, 'get'), io);
    case 'list':
      if (name !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(safeText(name))}`);
      return listCommand(parsed, io);
    case 'rm':
      if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(safeText(extra))}`);
      return rmCommand(parsed, checkName(name, 'rm'), io);
    default:
      throw new UsageError(
        sub === undefined
          ? 'settings needs a subcommand: set, get, list or rm'
          : `unknown settings subcommand ${JSON.stringify(safeText(sub.slice(0, 40)))}`,
      );
  }
}

async function getCommand(parsed: ParsedArgs, name: string, io: CliIo): Promise<number> {
  const { settings, where } = await openCliSettings(parsed, io);
  const config = (await settings.load(name)) ?? {};
  const shown = parsed.reveal ? config : maskConfig(config);
  if (parsed.json) {
    io.stdout.write(`${JSON.stringify(shown)}\n`);
    return 0;
  }
  io.stdout.write(`settings "${name}" (${where}):\n${configLines(shown).join('\n')}\n`);
  return 0;
}

async function listCommand(parsed: ParsedArgs, io: CliIo): Promise<number> {
  const { settings, where } = await openCliSettings(parsed, io);
  const names = await settings.list();
  if (parsed.json) io.stdout.write(`${JSON.stringify({ store: where, names })}\n`);
  else if (names.length === 0) io.stdout.write(`No saved settings (${where})\n`);
  else io.stdout.write(`${names.map(safeText).join('\n')}\n`);
  return 0;
}

async function rmCommand(parsed: ParsedArgs, name: string, io: CliIo): Promise<number> {
  const { settings, where } = await openCliSettings(parsed, io);
  const removed = await settings.remove(name);
  if (parsed.json) io.stdout.write(`${JSON.stringify({ name, removed })}\n`);
  else
    io.stdout.write(
      removed
        ? `Removed settings "${name}" from ${where}\n`
        : `No settings named "${name}" in ${where}: nothing was removed\n`,
    );
  return 0;
}
