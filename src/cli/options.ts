/**
 * How options read their values (a flag, one value, a repeatable value), and the options several commands
 * share: the global ones and those of a server target. A command's own options live in its file.
 */
import { MIN_RESULT_CHARS } from '../config/checks.js';
import type { Option } from './command.js';
import { UsageError } from './usage-error.js';

type Names = readonly [string, ...string[]];

/** A flag: true once given. */
export function flag(names: Names, description: string): Option<boolean> {
  return { names, description, initial: false, add: () => true };
}

/** An option with one value (the last one given wins), read by `read` (which throws a UsageError). */
export function single<T>(
  names: Names,
  value: string,
  description: string,
  read: (text: string) => T,
): Option<T | undefined> {
  return { names, value, description, initial: undefined, add: (_held, text) => read(text) };
}

/** A whole number from `min` to `max` (digits only: no sign, point or exponent). */
export function wholeNumber(name: string, min: number, max: number): (text: string) => number {
  return (text) => {
    const value = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max)
      throw new UsageError(`${name} needs a whole number from ${min} to ${max}`);
    return value;
  };
}

/** A value that must not be empty. */
export function nonEmpty(message: string): (text: string) => string {
  return (text) => {
    if (text === '') throw new UsageError(message);
    return text;
  };
}

/** `NAME=value` / `Name: value` added to a record (repeatable). */
function pairs(
  names: Names,
  value: string,
  description: string,
  split: (text: string) => [string, string],
): Option<Readonly<Record<string, string>>> {
  return {
    names,
    value,
    repeatable: true,
    description,
    initial: {},
    add: (held, text) => {
      const [key, item] = split(text);
      return { ...held, [key]: item };
    },
  };
}

/** `--max-chars N`: the result budget of `call` and of each call inside `run` (the config's bounds). */
export const MAX_CHARS = single(
  ['--max-chars'],
  '<n>',
  `result budget in characters of its JSON (at least ${MIN_RESULT_CHARS}); more is cut, whole in a file`,
  wholeNumber('--max-chars', MIN_RESULT_CHARS, 2 ** 31 - 1),
);

/** `--help`, `-h`, `--version`, `-V` and `--json`: taken by every command (`--json` not by demo-server). */
export const GLOBAL_OPTIONS = {
  json: flag(['--json'], 'machine-readable output on stdout'),
  help: flag(
    ['--help', '-h'],
    "help (also after a command; call <tool> --help <target>: that tool's parameters)",
  ),
  version: flag(['--version', '-V'], 'the version of autos-mcp'),
} as const;

/**
 * Names never taken, with why: a secret on the command line is visible to other users (`ps`), so the
 * option that would take one is refused by name rather than as unknown.
 */
export const REFUSED_OPTIONS: Readonly<Record<string, string>> = {
  '--client-secret':
    '--client-secret is not taken on the command line (other users can see it); put the secret in an environment variable and name it with --client-secret-env VAR',
};

export const PROTOCOL = single(
  ['--protocol'],
  '<v>',
  '2025-11-25 (default), 2026-07-28 or auto',
  (text) => text,
);

export const TIMEOUT = single(['--timeout'], '<ms>', 'deadline per step (default 60000)', (text) => {
  const ms = Number(text);
  if (!Number.isInteger(ms) || ms <= 0)
    throw new UsageError('--timeout needs a positive number of milliseconds');
  return ms;
});

export const HEADERS = pairs(
  ['--header'],
  '"N: v"',
  'extra HTTP header (repeatable); AUTOS_MCP_TOKEN sets a bearer token',
  (text) => {
    const colon = text.indexOf(':');
    if (colon <= 0) throw new UsageError('--header needs "Name: value"');
    return [text.slice(0, colon).trim(), text.slice(colon + 1).trim()];
  },
);

export const ENV = pairs(
  ['--env'],
  'NAME=value',
  'extra environment variable for a stdio server (repeatable)',
  (text) => {
    const eq = text.indexOf('=');
    if (eq <= 0) throw new UsageError('--env needs NAME=value');
    return [text.slice(0, eq), text.slice(eq + 1)];
  },
);

export const CWD = single(['--cwd'], '<dir>', 'working directory of a stdio server', (text) => text);

export const CONFIG = single(
  ['--config'],
  '<file>',
  'configured servers from this file only (see autos-mcp servers --help)',
  nonEmpty('--config needs a file'),
);

export const TRUST_PROJECT = flag(
  ['--trust-project'],
  'start servers of project config files not trusted yet, for this run',
);

export const PLAINTEXT_FILE = flag(
  ['--plaintext-file'],
  'with --settings: the saved settings are in the plaintext file (see autos-mcp settings --help)',
);

/** The options of a connection to a server: how to speak to it, and what a stdio or HTTP target gets. */
export const CONNECTION_OPTIONS = {
  protocol: PROTOCOL,
  timeoutMs: TIMEOUT,
  headers: HEADERS,
  env: ENV,
  cwd: CWD,
} as const;

/** The options of a configured server as a target (`autos-mcp servers` lists them). */
export const CONFIGURED_OPTIONS = { configFile: CONFIG, trustProject: TRUST_PROJECT } as const;

/** `--extension <id>` (repeatable): an extension to turn on; connect checks the id (a bad one is exit code 2). */
export const EXTENSIONS: Option<readonly string[]> = {
  names: ['--extension'],
  value: '<id>',
  repeatable: true,
  description: 'turn on an extension for this connection (repeatable), e.g. io.modelcontextprotocol/tasks',
  initial: [],
  add: (held, text) => [...held, text],
};

/** The options of a server target (`tools`, `call`, `discover`, `types`): connection, settings, config files. */
export const TARGET_OPTIONS = {
  ...CONNECTION_OPTIONS,
  settingsName: single(
    ['--settings'],
    '<name>',
    'use the saved settings <name> (see autos-mcp settings --help)',
    nonEmpty('--settings needs the name of saved settings'),
  ),
  plaintextFile: PLAINTEXT_FILE,
  ...CONFIGURED_OPTIONS,
  extensions: EXTENSIONS,
} as const;
