/**
 * The generic command-line parser: the words, the options and everything after `--`, read against the
 * command table. An option's arity (flag or value) comes from the commands that declare it; an option the
 * chosen command does not declare is refused by naming the commands that do ("--out is an option of
 * types"), so the refusals follow the table and are written nowhere else.
 */
import type { Args, Command, CommandLine, Option, Options } from './command.js';
import { GLOBAL_OPTIONS, REFUSED_OPTIONS } from './options.js';
import { UsageError } from './usage-error.js';

const URL_LIKE = /^https?:\/\//i;

/** One option as typed: its name, its value ('' for a flag), where it stood. */
interface Given {
  readonly name: string;
  readonly text: string;
  readonly at: number;
}

/** A command line split into words and options (before the command's own options are read). */
export interface Tokens {
  readonly words: readonly string[];
  readonly options: readonly Given[];
  readonly serverCommand: readonly string[] | undefined;
  readonly json: boolean;
  readonly help: boolean;
  readonly version: boolean;
}

/** Every command of the table, a group's subcommands included. */
export function allCommands(table: readonly Command[]): Command[] {
  return table.flatMap((command) => [command, ...allCommands(command.subcommands ?? [])]);
}

/** Whether each option name takes a value, from every command that declares it. */
function arities(table: readonly Command[]): Map<string, boolean> {
  const takes = new Map<string, boolean>();
  for (const command of allCommands(table))
    for (const option of Object.values(command.options))
      for (const name of option.names) takes.set(name, option.value !== undefined);
  return takes;
}

const globalName = (names: readonly string[], arg: string): boolean => names.includes(arg);

/** Splits `argv` into words, options and the `--` command line; unknown and malformed options are refused. */
export function tokenize(argv: readonly string[], table: readonly Command[]): Tokens {
  const takesValue = arities(table);
  const words: string[] = [];
  const options: Given[] = [];
  let serverCommand: string[] | undefined;
  let json = false;
  let help = false;
  let version = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      serverCommand = argv.slice(i + 1);
      break;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 && takesValue.get(arg.slice(0, eq)) === true ? arg.slice(0, eq) : arg;
    const refused = REFUSED_OPTIONS[name] ?? (eq > 0 ? REFUSED_OPTIONS[arg.slice(0, eq)] : undefined);
    if (globalName(GLOBAL_OPTIONS.json.names, arg)) json = true;
    else if (globalName(GLOBAL_OPTIONS.help.names, arg)) help = true;
    else if (globalName(GLOBAL_OPTIONS.version.names, arg)) version = true;
    else if (refused !== undefined) throw new UsageError(refused);
    else if (takesValue.get(name) === true) {
      const text = name === arg ? argv[++i] : arg.slice(eq + 1);
      if (text === undefined) throw new UsageError(`${name} needs a value`);
      options.push({ name, text, at: i });
    } else if (takesValue.get(arg) === false) options.push({ name: arg, text: '', at: i });
    else if (arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option ${arg}`);
    else words.push(arg);
  }
  return { words, options, serverCommand, json, help, version };
}

/** The command named by the words (`autos-mcp <url> tools` too: a URL first, then a server command). */
export function findCommand(
  table: readonly Command[],
  words: readonly string[],
): { command: Command; positionals: string[] } | undefined {
  const [first, second, ...rest] = words;
  const byName = (name: string | undefined) => table.find((command) => command.name === name);
  const after = byName(second);
  if (first !== undefined && URL_LIKE.test(first) && after?.target === 'server')
    return { command: after, positionals: [first, ...rest] };
  const command = byName(first);
  if (command === undefined) return undefined;
  const positionals = words.slice(1);
  const sub = command.subcommands?.find((s) => s.name === `${command.name} ${positionals[0]}`);
  return sub === undefined ? { command, positionals } : { command: sub, positionals: positionals.slice(1) };
}

/** A group run without one of its subcommands: the usage error that names them. */
export function missingSubcommand(group: Command, word: string | undefined): UsageError {
  const names = (group.subcommands ?? []).map((sub) => sub.name.slice(group.name.length + 1));
  return new UsageError(
    word === undefined
      ? `${group.name} needs a subcommand: ${joined(names, 'or')}`
      : `unknown ${group.name} subcommand ${JSON.stringify(word.slice(0, 40))}`,
  );
}

/** `a`, `a and b`, `a, b and c`. */
function joined(names: readonly string[], last: 'and' | 'or'): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} ${last} ${names.at(-1)}`;
}

/** The commands that declare an option, named as a user types them (a whole group by its own name). */
export function ownersOf(name: string, table: readonly Command[]): string {
  const declares = (command: Command) =>
    Object.values(command.options).some((option) => option.names.includes(name));
  const owners = table.flatMap((command) => {
    const subs = command.subcommands ?? [];
    const taking = subs.filter(declares);
    if (declares(command) || (subs.length > 0 && taking.length === subs.length)) return [command.name];
    return taking.map((sub) => sub.name);
  });
  return joined(owners, 'and');
}

/** The option of `command` called `name`, and its key in the command's options. */
function optionOf(command: Command, name: string): [string, Option<unknown>] | undefined {
  return Object.entries(command.options).find(([, option]) => option.names.includes(name));
}

/**
 * The typed arguments of `command`: each of its options read in the order given. An option it does not
 * declare, `--json` where it is refused, or a `--` command where it takes none: a UsageError.
 */
export function bind(
  command: Command,
  tokens: Tokens,
  positionals: readonly string[],
  table: readonly Command[],
): Args<Options> {
  if (tokens.json && command.json === false) throw new UsageError(`${command.name} takes no option --json`);
  const values: Record<string, unknown> = {};
  for (const [key, option] of Object.entries(command.options)) values[key] = option.initial;
  for (const given of tokens.options) {
    const found = optionOf(command, given.name);
    if (found === undefined)
      throw new UsageError(
        Object.keys(command.options).length === 0
          ? `${command.name} takes no option ${given.name}`
          : `${given.name} is an option of ${ownersOf(given.name, table)}`,
      );
    const [key, option] = found;
    values[key] = option.add(values[key], given.text, given.at);
  }
  const [word] = positionals;
  if (command.words === false && word !== undefined)
    throw new UsageError(`${command.name} takes no argument (got ${JSON.stringify(word)})`);
  if (tokens.serverCommand !== undefined && (command.target === 'url' || command.target === 'none'))
    throw new UsageError(`${command.name} takes nothing after --`);
  const line: CommandLine = {
    command: command.name,
    positionals: [...positionals],
    serverCommand: tokens.serverCommand,
    json: tokens.json,
    help: tokens.help,
  };
  return { ...values, ...line };
}

/** Whether `--json` was given before any `--` (for usage errors found before parsing finished). */
export function jsonRequested(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}
