/**
 * Starting the server process: pre-flight checks (cwd, Windows PATH+PATHEXT resolution, optional Linux PID
 * namespace), then `child_process.spawn` without a shell, and spawn failures turned into `McpError('spawn')`
 * naming the program that failed — the command, the interpreter of its `#!` line, or `unshare` — never
 * an argument's value or the environment, with a hint at the likely cause. A command that does not exist
 * but is a program and its arguments written as one string (`"node server.mjs"`) is a `config` error
 * showing the split form.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { accessSync, closeSync, constants, existsSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { McpError } from '../../errors/index.js';
import { redact } from '../../internal/redact.js';
import { programName, serverDisplayName } from '../../internal/server-name.js';
import type { StdioTransportOptions } from '../options.js';
import { buildChildEnv, getEnv } from './env.js';
import { buildWindowsCommandLine, resolveWindowsCommand } from './windows.js';

const HINTS: Readonly<Record<string, string>> = {
  ENOENT: 'is it installed and on PATH?',
  EACCES: 'is it executable?',
  EPERM: 'is it executable?',
  ENOTDIR: 'does cwd exist?',
};

/** Words of a command-with-spaces shown in the suggested split form; the rest is elided. */
const SPLIT_WORDS_SHOWN = 4;
/** Long enough for a real absolute path, so the suggestion can be copied; short enough to bound a hostile config. */
const SPLIT_WORD_MAX = 240;

/** The display name of a server started with `command` and `args` (see internal/server-name.ts). */
export function commandTarget(command: string, args: readonly string[] = []): string {
  return serverDisplayName(command, args);
}

/** Finds a command as spawn would (PATH on POSIX, PATH+PATHEXT on Windows): its path, or undefined. */
type Resolver = (command: string) => string | undefined;

/** Spawns the server and resolves once it is running; rejects with `McpError('spawn' | 'config')`. */
export async function spawnServer(options: StdioTransportOptions): Promise<ChildProcess> {
  const target = commandTarget(options.command, options.args);
  const cwd = options.cwd ?? process.cwd();
  // Node reports a bad cwd as ENOENT *of the command*, which misleads; check it ourselves first.
  let cwdProblem: string | undefined;
  try {
    if (!statSync(cwd).isDirectory()) cwdProblem = 'ENOTDIR';
  } catch (error) {
    cwdProblem = (error as NodeJS.ErrnoException).code ?? 'ENOENT';
  }
  if (cwdProblem !== undefined) {
    throw new McpError(
      'spawn',
      `cannot start ${target}: working directory ${redact(cwd)} is not usable (${cwdProblem}); does cwd exist?`,
    );
  }
  const env = buildChildEnv(process.env, options.env, process.platform);
  let file = options.command;
  let args = [...options.args];
  let windowsVerbatimArguments = false;
  const find: Resolver =
    process.platform === 'win32'
      ? (command) => resolveWindowsCommand(command, env, cwd, existsSync)
      : (command) => resolvePosixCommand(command, env['PATH'] ?? '', cwd);
  const missing = (): McpError => missingProgram(target, options, find);
  if (process.platform === 'win32') {
    const resolved = resolveWindowsCommand(options.command, env, cwd, existsSync);
    if (resolved === undefined) throw missing();
    const plan = buildWindowsCommandLine(resolved, args, getEnv(env, 'COMSPEC', 'win32') ?? 'cmd.exe');
    ({ file, args, windowsVerbatimArguments } = plan);
  } else if (options.isolate === true) {
    const flags = unshareFlags();
    if (flags === undefined) {
      throw new McpError(
        'config',
        `cannot isolate ${target}: unshare(1) cannot create a PID namespace here (isolate needs Linux and util-linux unshare with user or root namespaces)`,
      );
    }
    // unshare execs the command itself, so check it (and its #! interpreter) first: otherwise the failure
    // would be unshare's exit status, naming neither.
    const resolved = find(options.command);
    if (resolved === undefined) throw missing();
    const interpreter = shebangInterpreter(resolved);
    if (interpreter !== undefined && path.isAbsolute(interpreter) && !existsSync(interpreter))
      throw interpreterMissing(target, options.command, interpreter);
    args = [...flags, '--', options.command, ...args];
    file = 'unshare';
  }
  let child: ChildProcess;
  try {
    child = spawn(file, args, {
      cwd,
      env,
      shell: false,
      // POSIX: the server leads a new session and process group, so one kill(-pid) reaches all it started.
      detached: process.platform !== 'win32',
      windowsHide: true,
      windowsVerbatimArguments,
      stdio: ['pipe', 'pipe', options.stderr === 'capture' ? 'pipe' : options.stderr],
    });
  } catch (error) {
    throw spawnThrew(target, file, error);
  }
  await new Promise<void>((resolve, reject) => {
    const onSpawn = (): void => {
      child.off('error', onError);
      resolve();
    };
    const onError = (error: NodeJS.ErrnoException): void => {
      child.off('spawn', onSpawn);
      const code = error.code ?? 'unknown';
      if (code !== 'ENOENT') reject(spawnError(target, programName(file), code, error));
      else if (file !== options.command) reject(spawnError(target, programName(file), code, error));
      else reject(missingProgram(target, options, find, error));
    };
    child.once('spawn', onSpawn);
    child.once('error', onError);
  });
  return child;
}

/** `cannot start node server.mjs: node failed (EACCES); is it executable?` — the program that failed named. */
function spawnError(target: string, program: string, code: string, cause?: unknown): McpError {
  const hint = HINTS[code] ?? 'check the command and its permissions';
  const what = code === 'ENOENT' ? `${program} was not found` : `${program} could not be run`;
  return new McpError(
    'spawn',
    `cannot start ${target}: ${what} (${code}); ${hint}`,
    // Node's spawn error carries `spawnargs` and `path`, which may hold a secret argument: keep only its code.
    cause === undefined ? {} : { cause: causeSummary(cause) },
  );
}

/**
 * ENOENT for the command, explained: the command is not there (or is a program and its arguments in one
 * string: a `config` error showing the split form), or it is there and what is missing is the interpreter
 * its `#!` line names (the kernel reports that as ENOENT of the script).
 */
function missingProgram(
  target: string,
  options: StdioTransportOptions,
  find: Resolver,
  cause?: unknown,
): McpError {
  const { command } = options;
  const found = find(command);
  if (found === undefined) {
    const words = command.trim().split(/\s+/);
    const first = words[0];
    if (words.length > 1 && first !== undefined && find(first) !== undefined)
      return commandWithSpaces(command, words, options.args);
    return spawnError(target, programName(command), 'ENOENT', cause);
  }
  const interpreter = shebangInterpreter(found);
  if (interpreter !== undefined) return interpreterMissing(target, command, interpreter);
  return spawnError(target, programName(command), 'ENOENT', cause);
}

/** `command: "node server.mjs"`: there is no such program, but `node` is one; show the split form. */
function commandWithSpaces(command: string, words: readonly string[], args: readonly string[]): McpError {
  const quote = (word: string): string =>
    JSON.stringify(word.length > SPLIT_WORD_MAX ? `${word.slice(0, SPLIT_WORD_MAX)}…` : word);
  const rest = [...words.slice(1), ...args];
  const shown = rest.slice(0, SPLIT_WORDS_SHOWN).map(quote);
  if (rest.length > SPLIT_WORDS_SHOWN) shown.push('…');
  return new McpError(
    'config',
    `no program ${quote(command)}: the command is not split on spaces; did you mean command: ${quote(words[0] ?? command)}, args: [${shown.join(', ')}]?`,
  );
}

function interpreterMissing(target: string, command: string, interpreter: string): McpError {
  return new McpError(
    'spawn',
    `cannot start ${target}: the interpreter ${JSON.stringify(clipPath(interpreter))} named on the #! line of ${programName(command)} was not found (ENOENT); is it installed?`,
  );
}

/** The program a script's `#!` line names (its first word), or undefined when the file has none. */
function shebangInterpreter(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const head = Buffer.alloc(256);
    const read = readSync(fd, head, 0, head.length, 0);
    const text = head.subarray(0, read).toString('latin1');
    if (!text.startsWith('#!')) return undefined;
    const line = text.slice(2).split(/\r?\n/, 1)[0] ?? '';
    const word = line.trim().split(/[ \t]+/, 1)[0];
    return word === undefined || word === '' ? undefined : word;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function clipPath(text: string): string {
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  return clean.length > 120 ? `${clean.slice(0, 119)}…` : clean;
}

/** A spawn error reduced to its name and code: what explains the failure, nothing of the command line. */
function causeSummary(cause: unknown): Error {
  const code = (cause as { code?: unknown } | null)?.code;
  const summary = new Error(typeof code === 'string' ? `spawn failed: ${code}` : 'spawn failed');
  if (typeof code === 'string') Object.assign(summary, { code });
  return summary;
}

/**
 * What `spawn` threw synchronously. Node throws a `TypeError` (`ERR_INVALID_ARG_VALUE`/`_TYPE`) for a NUL
 * in the command, an argument, cwd or an env name or value, and its message quotes that value: it becomes
 * a `config` error naming only the code, with no cause. normalizeConfig refuses such configs first; this
 * is for values that slip past it.
 */
function spawnThrew(target: string, file: string, error: unknown): McpError {
  const code = (error as { code?: unknown } | null)?.code;
  const shown = typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? code : 'unknown';
  if (error instanceof TypeError || shown.startsWith('ERR_INVALID_ARG')) {
    return new McpError(
      'config',
      `cannot start ${target} (${shown}): the command, an argument, cwd or the environment holds a value spawn refuses (such as a NUL byte)`,
    );
  }
  return spawnError(target, programName(file), shown);
}

let unshareCache: readonly string[] | null | undefined;

/** Flags that let `unshare` give the server a private PID namespace as this user, or undefined. Cached. */
function unshareFlags(): readonly string[] | undefined {
  if (unshareCache !== undefined) return unshareCache ?? undefined;
  unshareCache = null;
  if (process.platform !== 'linux') return undefined;
  // --kill-child: the namespace's init dies with unshare, and the kernel then kills every process inside.
  const base = ['--pid', '--fork', '--kill-child', '--mount-proc'];
  for (const flags of [base, ['--user', '--map-current-user', ...base]]) {
    const probe = spawnSync('unshare', [...flags, 'true'], {
      stdio: 'ignore',
      timeout: 5000,
      windowsHide: true,
    });
    if (probe.status === 0) {
      unshareCache = flags;
      break;
    }
  }
  return unshareCache ?? undefined;
}

function resolvePosixCommand(command: string, pathVar: string, cwd: string): string | undefined {
  const candidates = command.includes('/')
    ? [path.resolve(cwd, command)]
    : pathVar
        .split(':')
        .filter(Boolean)
        .map((dir) => path.join(dir, command));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Try the next directory.
    }
  }
  return undefined;
}
