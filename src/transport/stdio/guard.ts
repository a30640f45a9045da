/**
 * A guard per stdio server, for when the host goes without running any code: SIGKILL, an out-of-memory
 * kill, or a `process.exit()` from a thread whose exit hooks never run (a server opened in a worker
 * thread, by a worker thread). The guard is a tiny `/bin/sh` in its own session that reads a pipe from
 * this process; nothing is ever written to it, so `read` returns only when the pipe closes — when this
 * process (or the thread that holds the pipe) is gone — and the guard then SIGKILLs the server's process
 * group. On a normal close the guard is SIGKILLed first, so it never signals a group that has ended (whose
 * id could be reused). It ignores the terminal's signals, so a Ctrl-C that ends the host still ends the
 * server. POSIX only, where `/bin/sh` exists; a guard that cannot start is skipped (the exit hook and the
 * close sequence still apply). Processes that left the group (setsid) are not the guard's to find.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

const SHELL = '/bin/sh';
/** `$1` is the server's process group id. The `read` ends at end of file: the host is gone. */
const SCRIPT = `trap '' INT HUP TERM QUIT PIPE; read _; kill -KILL -- -"$1" 2>/dev/null; kill -KILL "$1" 2>/dev/null`;

const available = process.platform !== 'win32' && existsSync(SHELL);

/**
 * A started guard: `disarm` ends it without signalling anything, and resolves once it has been reaped
 * (at most {@link REAP_WAIT_MS} later), so a worker thread that ends right after a close leaves no zombie.
 */
export interface Guard {
  disarm(): Promise<void>;
}

/** Longest wait for a SIGKILLed guard to be reaped; it takes a few milliseconds. */
const REAP_WAIT_MS = 1000;

/** Starts a guard for the process group `pgid`; undefined where guards are not available. */
export function startGuard(pgid: number): Guard | undefined {
  if (!available) return undefined;
  let guard: ChildProcess;
  try {
    guard = spawn(SHELL, ['-c', SCRIPT, 'autos-mcp-guard', String(pgid)], {
      stdio: ['pipe', 'ignore', 'ignore'],
      detached: true,
      env: {},
      windowsHide: true,
    });
  } catch {
    return undefined;
  }
  guard.on('error', () => {}); // a guard that failed to start guards nothing; the exit hook remains
  guard.stdin?.on('error', () => {});
  // Neither the guard nor its pipe keeps the host alive.
  guard.unref();
  const pipe: unknown = guard.stdin;
  if (pipe !== null && typeof pipe === 'object' && 'unref' in pipe && typeof pipe.unref === 'function')
    pipe.unref();
  const exited = new Promise<void>((resolve) => {
    if (guard.exitCode !== null || guard.signalCode !== null) resolve();
    guard.once('exit', () => resolve());
    guard.once('error', () => resolve());
  });
  let disarmed: Promise<void> | undefined;
  return {
    disarm() {
      if (disarmed !== undefined) return disarmed;
      // SIGKILL before the pipe closes: the guard must not see end of file and signal an ended group.
      guard.kill('SIGKILL');
      guard.stdin?.destroy();
      // Held until reaped: the loop of the thread that started it is the one that reaps it.
      guard.ref();
      let timer: NodeJS.Timeout | undefined;
      disarmed = Promise.race([
        exited,
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, REAP_WAIT_MS);
        }),
      ]).finally(() => {
        clearTimeout(timer);
        guard.unref();
      });
      return disarmed;
    },
  };
}
