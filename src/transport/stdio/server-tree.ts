/**
 * The set of processes one stdio server is responsible for: its own process group (POSIX `detached`) plus
 * every descendant ever seen on Linux, remembered by pid + start time so that processes which left the group
 * (setsid, double fork) and were reparented after the server died can still be found and ended.
 * Windows: `taskkill /T /F` on the server's pid, then the direct child.
 */
import { spawnSync } from 'node:child_process';
import {
  descendantsOf,
  hasProcfs,
  isAlive,
  type ProcessRef,
  type ProcInfo,
  signalGroup,
  signalProcess,
  snapshotProcesses,
} from './procfs.js';

const isWindows = process.platform === 'win32';

export class ServerTree {
  readonly pid: number;
  readonly #known = new Map<number, ProcessRef>();
  #rootExited = false;

  constructor(pid: number) {
    this.pid = pid;
  }

  /** The server process itself has exited (and been reaped by Node). */
  markRootExited(): void {
    this.#rootExited = true;
  }

  get rootExited(): boolean {
    return this.#rootExited;
  }

  /** Records the current descendants (from a fresh or shared /proc snapshot). Linux only; cheap elsewhere. */
  remember(table: readonly ProcInfo[] = snapshotProcesses()): void {
    if (!hasProcfs) return;
    // Forget pids that are gone so the map stays bounded over a long session.
    for (const [pid, ref] of this.#known) if (!isAlive(ref)) this.#known.delete(pid);
    for (const ref of descendantsOf(this.pid, table)) this.#known.set(ref.pid, ref);
  }

  /**
   * How many of our processes (call `remember()` first for a fresh view) are still alive. On Linux this is verified per process; elsewhere it is
   * the server itself plus 1 when its process group still answers `kill(-pgid, 0)`.
   */
  countAlive(): number {
    const root = this.#rootExited ? 0 : 1;
    if (isWindows) return root;
    if (!hasProcfs) return root + (signalGroup(this.pid, 0) && root === 0 ? 1 : 0);
    // No re-scan here (callers poll this): only the remembered processes are checked, a few reads each.
    let alive = root;
    for (const ref of this.#known.values()) if (isAlive(ref)) alive++;
    return alive;
  }

  /** Signals the group, the remembered descendants, and the server (re-scanning first). Never throws. */
  signal(signal: NodeJS.Signals): void {
    if (isWindows) {
      this.#windowsKill();
      return;
    }
    this.remember();
    signalGroup(this.pid, signal);
    for (const ref of this.#known.values()) signalProcess(ref, signal);
    if (!this.#rootExited) {
      try {
        process.kill(this.pid, signal);
      } catch {
        // Exited meanwhile.
      }
    }
  }

  /** Synchronous SIGKILL of everything, for the host's `exit` hook (no re-scan needed to be correct, but cheap). */
  killNow(): void {
    this.signal('SIGKILL');
  }

  /** `taskkill /T /F` ends the tree Windows knows about; the direct kill covers a taskkill that failed. */
  #windowsKill(): void {
    if (this.#rootExited) return;
    spawnSync('taskkill', ['/T', '/F', '/PID', String(this.pid)], { stdio: 'ignore', windowsHide: true });
    try {
      process.kill(this.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}
