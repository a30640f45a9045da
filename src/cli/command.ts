/**
 * What a command of the table is: its name, usage, options, target kind and `run`. Each command is one
 * `commands/*.ts` file; `table.ts` lists them; the parser, the "is an option of …" refusals and the help
 * are read from these declarations. An option is declared once, with how its value is read: `run` gets a
 * typed object with one field per option of its own command (and nothing of another's).
 */
import type { CliIo } from './io.js';

/** One option: its names, its value (none for a flag), and how each occurrence adds to what it holds. */
export interface Option<T> {
  /** `--timeout`, or `--help` and `-h`: the first is the one messages name. */
  readonly names: readonly [string, ...string[]];
  /** The value's name in the help (`ms`, `NAME=value`); a flag has none. */
  readonly value?: string;
  /** Given more than once, every occurrence counts (else the last one wins). */
  readonly repeatable?: boolean;
  readonly description: string;
  /** What `run` gets when the option is not given. */
  readonly initial: T;
  /**
   * What the option holds after one more occurrence: `text` is its value ('' for a flag), `at` where it
   * stands on the command line (to keep the order of several options). A malformed value: a UsageError.
   */
  add(held: T, text: string, at: number): T;
}

export type Options = Readonly<Record<string, Option<unknown>>>;

/** The typed value of each option of `O`. */
export type Values<O extends Options> = { readonly [K in keyof O]: O[K] extends Option<infer T> ? T : never };

/** What every command gets besides its options. */
export interface CommandLine {
  /** The command as named on the line (`tools`, `settings set`). */
  readonly command: string;
  /** The words that are not options (a subcommand's name taken out). */
  readonly positionals: readonly string[];
  /** Everything after `--`: a server's command line (never a shell string). */
  readonly serverCommand: readonly string[] | undefined;
  /** `--json`: machine-readable output on stdout. */
  readonly json: boolean;
  /** `--help` was given (and the command runs with it: `call <tool> --help <target>`). */
  readonly help: boolean;
}

/** The typed arguments of a command with options `O`. */
export type Args<O extends Options> = Values<O> & CommandLine;

/**
 * What a command takes as its target: `server` a URL, `-- command…`, a configured server or `--settings`;
 * `url` a URL word; `command` what follows `--` (saved, not started); `none` nothing after `--`.
 */
export type TargetKind = 'server' | 'url' | 'command' | 'none';

export interface Command<O extends Options = Options> {
  /** `tools`; a subcommand has its group's name first (`settings set`). */
  readonly name: string;
  /** The forms, each what follows `autos-mcp <name> ` (the first line of the help's Usage). */
  readonly usage: readonly string[];
  /** The overview's form and one-line summary (a group's subcommands share the group's). */
  readonly synopsis?: string;
  readonly summary?: string;
  /** The help's text after Usage (options are listed after it, from `options`). */
  readonly about?: string;
  readonly options: O;
  readonly target: TargetKind;
  /** `false`: `--json` is refused (demo-server: stdout is the protocol channel). */
  readonly json?: false;
  /** `false`: takes no words besides its name (`demo`, `demo-server`). */
  readonly words?: false;
  /** A group's subcommands, chosen by the word after the group's name. */
  readonly subcommands?: readonly Command[];
  /** `--help` runs the command instead of printing its help (`call <tool> --help <target>`). */
  helpRuns?(args: Args<O>): boolean;
  /** The command itself; a group without one needs a subcommand. */
  run?(args: Args<O>, io: CliIo): Promise<number>;
}

/** A command with its options' types checked against its `run` (an identity function). */
export function defineCommand<O extends Options>(command: Command<O>): Command<O> {
  return command;
}
