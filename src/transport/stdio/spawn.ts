/**
 * Starting the server process: pre-flight checks (cwd, Windows PATH+PATHEXT resolution, optional Linux PID
 * namespace), then `child_process.spawn` without a shell, and spawn failures turned into `McpError('spawn')`
 * naming the command (never its arguments or environment) with a hint at the likely cause.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { McpError } from '../../errors/index.js';
import { redact } from '../../internal/redact.js';
import type { StdioTransportOptions } from '../options.js';
import { buildChildEnv, getEnv } from './env.js';
import { buildWindowsCommandLine, resolveWindowsCommand } from './windows.js';

const HINTS: Readonly<Record<string, string>> = {
  ENOENT: 'is it installed and on PATH?',
  EACCES: 'is it executable?',
  EPERM: 'is it executable?',
  ENOTDIR: 'does cwd exist?',
};

/** The display name of a command: its base name (never arguments or environment). */
export function commandTarget(command: string): string {
  return path.win32.basename(path.posix.basename(command)) || command;
}

/** Spawns the server and resolves once it is running; rejects with `McpError('spawn' | 'config')`. */
export async function spawnServer(options: StdioTransportOptions): Promise<ChildProcess> {
  const target = commandTarget(options.command);
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
  if (process.platform === 'win32') {
    const resolved = resolveWindowsCommand(options.command, env, cwd, existsSync);
    if (resolved === undefined) throw spawnError(target, 'ENOENT');
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
    // unshare execs the command itself, so check it exists first to keep the ENOENT error precise.
    if (resolvePosixCommand(options.command, env['PATH'] ?? '', cwd) === undefined)
      throw spawnError(target, 'ENOENT');
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
    throw spawnThrew(target, error);
  }
  await new Promise<void>((resolve, reject) => {
    const onSpawn = (): void => {
      child.off('error', onError);
      resolve();
    };
    const onError = (error: NodeJS.ErrnoException): void => {
      child.off('spawn', onSpawn);
      reject(spawnError(target, error.code ?? 'unknown', error));
    };
    child.once('spawn', onSpawn);
    child.once('error', onError);
  });
  return child;
}

function spawnError(target: string, code: string, cause?: unknown): McpError {
  const hint = HINTS[code] ?? 'check the command and its permissions';
  return new McpError(
    'spawn',
    `cannot start ${target} (${code}): ${hint}`,
    // Node's spawn error carries `spawnargs` and `path`, which may hold a secret argument: keep only its code.
    cause === undefined ? {} : { cause: causeSummary(cause) },
  );
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
function spawnThrew(target: string, error: unknown): McpError {
  const code = (error as { code?: unknown } | null)?.code;
  const shown = typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? code : 'unknown';
  if (error instanceof TypeError || shown.startsWith('ERR_INVALID_ARG')) {
    return new McpError(
      'config',
      `cannot start ${target} (${shown}): the command, an argument, cwd or the environment holds a value spawn refuses (such as a NUL byte)`,
    );
  }
  return spawnError(target, shown);
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
    const probe = spawnSync('unshare', [...flags, 'true'], { stdio: 'ignore', timeout: 5000 });
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
