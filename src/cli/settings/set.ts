/**
 * `autos-mcp settings set <name>`: the non-secret fields from options, the secrets from stdin or a hidden
 * prompt (never from the command line), merged into the saved settings of that name unless `--replace`.
 */
import { McpError } from '../../client/index.js';
import { mergeConfig } from '../../config/index.js';
import type { PartialServerConfig } from '../../settings/settings.js';
import type { Args } from '../command.js';
import type { CliIo } from '../io.js';
import { UsageError } from '../usage-error.js';
import { isRecord, maskConfig, savedFields } from './mask.js';
import { type SET_OPTIONS, secretItems } from './options.js';
import { promptAll } from './prompt.js';
import { itemLabel, readAll, readLines } from './stdin.js';
import { openCliSettings } from './store.js';

/** The command line of `settings set`. */
export type SetArgs = Args<typeof SET_OPTIONS>;

/** The non-secret fields given as options: `--command`/`--arg` (or `-- command args…`), `--url`, `--cwd`. */
function fieldsFromOptions(parsed: SetArgs): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (parsed.serverCommand !== undefined) {
    if (parsed.setCommand !== undefined || parsed.setArgs !== undefined)
      throw new UsageError('give the server command with --command/--arg or after --, not both');
    const [command, ...args] = parsed.serverCommand;
    if (command === undefined) throw new UsageError('nothing after --: give the server command');
    fields['command'] = command;
    fields['args'] = args;
  }
  if (parsed.setCommand !== undefined) fields['command'] = parsed.setCommand;
  if (parsed.setArgs !== undefined) fields['args'] = parsed.setArgs;
  if (parsed.setUrl !== undefined) fields['url'] = parsed.setUrl;
  if (parsed.cwd !== undefined) fields['cwd'] = parsed.cwd;
  return fields;
}

/** Saves the settings `name` (already checked); exit code 0. */
export async function setCommand(parsed: SetArgs, name: string, io: CliIo): Promise<number> {
  const items = secretItems(parsed);
  const stdin = io.stdin ?? process.stdin;
  if (parsed.jsonConfig && items.length > 0)
    throw new UsageError(
      '--json-config reads the whole config from stdin: give the secrets in it, not with --env/--header/--auth-token',
    );
  if (parsed.jsonConfig && stdin.isTTY === true)
    throw new UsageError(
      '--json-config reads the JSON from stdin: pipe it in (… < config.json), it is not typed at a terminal',
    );
  const fields = fieldsFromOptions(parsed);
  if (!parsed.jsonConfig && items.length === 0 && Object.keys(fields).length === 0)
    throw new UsageError(
      'nothing to save: give --env KEY, --header NAME, --auth-token, --command, --url… or --json-config',
    );
  const seen = new Set<string>();
  for (const item of items) {
    const key = item.kind === 'authToken' ? 'authToken' : `${item.kind} ${item.name}`;
    if (seen.has(key)) throw new UsageError(`${itemLabel(item)} is given twice`);
    seen.add(key);
  }

  const { settings, where } = await openCliSettings(parsed, io);
  // Read before any prompt: a store that is not there (or corrupt settings) fails before secrets are typed.
  let existing: PartialServerConfig | null = null;
  if (parsed.replace) await settings.list();
  else existing = await settings.load(name, true);

  let partial: Record<string, unknown> = {};
  if (parsed.jsonConfig) {
    const text = await readAll(stdin);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new McpError('config', '--json-config: stdin is not valid JSON');
    }
    if (!isRecord(value)) throw new McpError('config', '--json-config: stdin must hold a JSON object');
    partial = value;
  } else if (items.length > 0) {
    const values =
      stdin.isTTY === true ? await promptAll(stdin, io, items) : await readLines(stdin, items.length, items);
    const env: Record<string, string> = {};
    const headers: Record<string, string> = {};
    for (const [index, item] of items.entries()) {
      const value = values[index] ?? '';
      if (value === '') throw new UsageError(`the value of ${itemLabel(item)} is empty: nothing was saved`);
      if (item.kind === 'authToken') partial['authToken'] = value;
      else if (item.kind === 'env')
        Object.defineProperty(env, item.name, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else
        Object.defineProperty(headers, item.name, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
    }
    if (Object.keys(env).length > 0) partial['env'] = env;
    if (Object.keys(headers).length > 0) partial['headers'] = headers;
  }
  partial = mergeConfig(partial, fields);
  const config: PartialServerConfig = existing === null ? partial : mergeConfig(existing, partial);
  await settings.save(name, config);

  if (parsed.json) {
    io.stdout.write(`${JSON.stringify({ name, saved: true, store: where, config: maskConfig(config) })}\n`);
    return 0;
  }
  const how = existing === null ? 'Saved' : 'Updated';
  io.stdout.write(`${how} settings "${name}" in ${where}: ${savedFields(config)}\n`);
  return 0;
}
