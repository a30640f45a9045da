/**
 * The help texts, generated from the command table: the overview (`autos-mcp --help`) lists each command's
 * synopsis and summary; a command's help (`autos-mcp <command> --help`, and after a usage error) is its
 * usage, its text and its options. A subcommand shows its group's help.
 */
import type { Command, Option } from './command.js';
import { GLOBAL_OPTIONS, TARGET_OPTIONS } from './options.js';

/** What a target is: in the overview and in the help of every command that takes a server target. */
export const TARGET_HELP = `A target is a URL (https://…, or http:// on loopback), or -- followed by a command and its
arguments (never a shell string), or the name of a configured server (autos-mcp servers lists them; for
call, NAME.TOOL), or --settings <name> (saved with autos-mcp settings set); with another target too, the
saved settings are merged over it (the target gives the server, the settings the secrets).
--config FILE reads configured servers from that file only; --trust-project starts the servers of project
config files not trusted yet, for this run (trust one for good: autos-mcp servers trust FILE).`;

const EXIT_CODES = `Exit codes: 0 ok, 1 the tool returned isError, 2 usage or config error, 3 failure
(connection, protocol, timeout…), 4 the server needs input (2026 MRTR), 130 a secret prompt was
cancelled (Ctrl-C).`;

/** The options the overview lists: the global ones and those of a server target. */
const OVERVIEW_OPTIONS: readonly Option<unknown>[] = [
  GLOBAL_OPTIONS.json,
  ...Object.values(TARGET_OPTIONS).filter((option) => option !== TARGET_OPTIONS.plaintextFile),
  GLOBAL_OPTIONS.help,
  GLOBAL_OPTIONS.version,
];

/** `-h, --help`, `--timeout <ms>`. */
function label(option: Option<unknown>): string {
  const names = [...option.names].sort((a, b) => a.length - b.length).join(', ');
  return option.value === undefined ? names : `${names} ${option.value}`;
}

/** One line per option, descriptions in a column (a long label puts its description on the next line). */
function optionLines(options: readonly Option<unknown>[], column: number): string {
  return options
    .map((option) => {
      const name = `  ${label(option)}`;
      const text = option.description.replaceAll('\n', `\n${' '.repeat(column)}`);
      return name.length < column ? `${name.padEnd(column)}${text}` : `${name}\n${' '.repeat(column)}${text}`;
    })
    .join('\n');
}

/** The overview: every command, what a target is, the common options, the exit codes. */
export function overview(table: readonly Command[]): string {
  const column = 51;
  const commands = table
    .map((command) => {
      const line = `  autos-mcp ${command.name} ${command.synopsis ?? command.usage[0] ?? ''}`.trimEnd();
      const summary = (command.summary ?? '').replaceAll('\n', `\n${' '.repeat(column)}`);
      return line.length < column - 1
        ? `${line.padEnd(column)}${summary}`
        : `${line}\n${' '.repeat(column)}${summary}`;
    })
    .join('\n');
  return `autos-mcp — call the tools of MCP servers on demand.

Usage:
${commands}

${TARGET_HELP}
An HTTP target uses the stored login of its URL, when there is one (see autos-mcp login --help).

Options:
${optionLines(OVERVIEW_OPTIONS, 23)}

${EXIT_CODES}`;
}

/** The help of a command (of its group, for a subcommand): usage, text, then its options. */
export function commandHelp(command: Command, table: readonly Command[]): string {
  const group = table.find((top) => top.subcommands?.includes(command)) ?? command;
  const forms = [group, ...(group.subcommands ?? [])].flatMap((c) =>
    c.usage.map((usage) => `autos-mcp ${c.name} ${usage}`.trimEnd()),
  );
  const seen = new Set<Option<unknown>>();
  const options = [group, ...(group.subcommands ?? [])]
    .flatMap((c) => Object.values(c.options))
    .filter((option) => !seen.has(option) && seen.add(option) !== undefined);
  const unique = options.filter(
    (option, i) => options.findIndex((o) => o.names[0] === option.names[0]) === i,
  );
  const common = [
    ...(group.json === false ? [] : [GLOBAL_OPTIONS.json]),
    { ...GLOBAL_OPTIONS.help, description: 'this help' },
  ];
  const listed = [...unique, ...common];
  const column = Math.min(25, Math.max(...listed.map((o) => label(o).length)) + 4);
  return [
    `Usage: ${forms.join('\n       ')}`,
    '',
    group.about ?? group.summary ?? '',
    '',
    `Options:\n${optionLines(listed, column)}`,
  ].join('\n');
}
