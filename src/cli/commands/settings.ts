/**
 * `autos-mcp settings set|get|list|rm`: named server configs, full or partial, in the OS credential store
 * by default (the plaintext file backend only when asked for by name: `--plaintext-file`, or
 * `AUTOS_MCP_SETTINGS_BACKEND`, with `AUTOS_MCP_SETTINGS_DIR` for its directory). `--settings <name>` on
 * `tools`, `call`, `discover` and `types` uses them (`settings/target.ts`).
 *
 * Secret values (`env` values, `headers` values, `authToken`) never come from the command line: `set`
 * reads them from stdin or a hidden prompt (`settings/set.ts`), and `get` masks them unless `--reveal`.
 */
import { type Args, defineCommand } from '../command.js';
import { safeText } from '../format.js';
import type { CliIo } from '../io.js';
import { configLines, maskConfig } from '../settings/mask.js';
import { GET_OPTIONS, SET_OPTIONS, STORE_ONLY_OPTIONS } from '../settings/options.js';
import { setCommand } from '../settings/set.js';
import { NAME, openCliSettings, SETTINGS_BACKEND_ENV, SETTINGS_DIR_ENV } from '../settings/store.js';
import { UsageError } from '../usage-error.js';

/** The one name word of `set`, `get` and `rm`, checked. */
function nameArgument(positionals: readonly string[], sub: string): string {
  const [name, extra] = positionals;
  if (name === undefined) throw new UsageError(`settings ${sub} needs a name`);
  if (!NAME.test(name))
    throw new UsageError(
      'a settings name is 1-64 characters of A-Z a-z 0-9 . _ - and starts with a letter or digit',
    );
  if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(safeText(extra))}`);
  return name;
}

export const settingsCommand = defineCommand({
  name: 'settings',
  usage: [],
  synopsis: 'set|get|list|rm [<name>]',
  summary: 'saved server configs and secrets (OS credential store)',
  about: `Named server configs, full or partial (only the secrets, or a whole server), kept in the OS credential
store. Use them with --settings <name> on tools, call, discover and types.
  set             saves; merged into settings of the same name (env and headers one level deep)
                  unless --replace. Secret VALUES are never taken from the command line: for each
                  --env KEY, --header NAME and --auth-token, in the order given, one line is read from
                  stdin, or asked for at a hidden prompt on a terminal (nothing echoed)
  get             prints the settings with every secret masked (•••• (40 chars)); --reveal shows them
  list, rm        the names saved; remove one (exit code 0 whether or not it was there)
--plaintext-file keeps them in a plaintext file (0600) instead: ~/.config/autos-mcp/oauth/settings.json
on Linux, or $${SETTINGS_DIR_ENV}/settings.json; also ${SETTINGS_BACKEND_ENV}=plaintext-file (a note on
stderr says when it is used).
No OS credential store (e.g. no Secret Service on Linux): an error that names the fix, exit code 2.
Ctrl-C at a prompt: nothing is saved, exit code 130.
Example: printf '%s\\n' "$API_KEY" | autos-mcp settings set demo --env API_KEY`,
  options: {},
  target: 'none',
  subcommands: [
    defineCommand({
      name: 'settings set',
      usage: [
        '<name> [--env KEY]... [--header NAME]... [--auth-token] [options]',
        '<name> --json-config < config.json',
      ],
      options: SET_OPTIONS,
      target: 'command',
      run: (args, io) => setCommand(args, nameArgument(args.positionals, 'set'), io),
    }),
    defineCommand({
      name: 'settings get',
      usage: ['<name> [--reveal] [--json]'],
      options: GET_OPTIONS,
      target: 'none',
      run: get,
    }),
    defineCommand({
      name: 'settings list',
      usage: ['[--json]'],
      options: STORE_ONLY_OPTIONS,
      target: 'none',
      run: list,
    }),
    defineCommand({
      name: 'settings rm',
      usage: ['<name>'],
      options: STORE_ONLY_OPTIONS,
      target: 'none',
      run: rm,
    }),
  ],
});

async function get(parsed: Args<typeof GET_OPTIONS>, io: CliIo): Promise<number> {
  const name = nameArgument(parsed.positionals, 'get');
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

async function list(parsed: Args<typeof STORE_ONLY_OPTIONS>, io: CliIo): Promise<number> {
  const [extra] = parsed.positionals;
  if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(safeText(extra))}`);
  const { settings, where } = await openCliSettings(parsed, io);
  const names = await settings.list();
  if (parsed.json) io.stdout.write(`${JSON.stringify({ store: where, names })}\n`);
  else if (names.length === 0) io.stdout.write(`No saved settings (${where})\n`);
  else io.stdout.write(`${names.map(safeText).join('\n')}\n`);
  return 0;
}

async function rm(parsed: Args<typeof STORE_ONLY_OPTIONS>, io: CliIo): Promise<number> {
  const name = nameArgument(parsed.positionals, 'rm');
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
