/**
 * Linux process-tree inspection through /proc, used to find a server's descendants, including those that
 * left its process group (setsid, double fork), and to verify they are gone. Each process is identified by
 * pid *and* start time, so a recycled pid is never mistaken for (or killed as) one of ours.
 * Off Linux every function degrades to "unknown" answers and callers fall back to group signals.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** A process as seen in /proc/<pid>/stat. */
export interface ProcInfo {
  pid: number;
  ppid: number;
  pgrp: number;
  state: string;
  /** Field 22, clock ticks since boot: with `pid` it names one process for its whole life. */
  startTime: string;
}

/** A remembered process: pid plus start time. */
export interface ProcessRef {
  pid: number;
  startTime: string;
}

export const hasProcfs = process.platform === 'linux';

/** Reads one /proc/<pid>/stat; undefined when the process is gone or /proc is unavailable. */
export function readProc(pid: number): ProcInfo | undefined {
  if (!hasProcfs) return undefined;
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return undefined;
  }
}

/** Parses a stat line. The command name is in parentheses and may itself contain spaces and ')'. */
export function parseStat(line: string): ProcInfo | undefined {
  const close = line.lastIndexOf(')');
  const pid = Number.parseInt(line, 10);
  if (close < 0 || !Number.isFinite(pid)) return undefined;
  // Fields after the name start at field 3 (state); startTime is field 22.
  const rest = line.slice(close + 2).split(' ');
  const [state, ppid, pgrp] = rest;
  const startTime = rest[19];
  if (state === undefined || ppid === undefined || pgrp === undefined || startTime === undefined)
    return undefined;
  return { pid, ppid: Number(ppid), pgrp: Number(pgrp), state, startTime };
}

/** Every process on the system, one pass over /proc. Empty off Linux. */
export function snapshotProcesses(): ProcInfo[] {
  if (!hasProcfs) return [];
  const out: ProcInfo[] = [];
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return out;
  }
  for (const name of names) {
    const code = name.charCodeAt(0);
    if (code < 48 || code > 57) continue;
    const info = readProc(Number(name));
    if (info) out.push(info);
  }
  return out;
}

/** The live (non-zombie) descendants of `rootPid` in `table`, at any depth, and members of group `pgid`. */
export function descendantsOf(rootPid: number, table: readonly ProcInfo[]): ProcessRef[] {
  const children = new Map<number, ProcInfo[]>();
  for (const info of table) {
    const list = children.get(info.ppid);
    if (list) list.push(info);
    else children.set(info.ppid, [info]);
  }
  const found = new Map<number, ProcessRef>();
  const queue = [rootPid];
  for (let pid = queue.pop(); pid !== undefined; pid = queue.pop()) {
    for (const child of children.get(pid) ?? []) {
      if (found.has(child.pid) || child.pid === rootPid) continue;
      found.set(child.pid, { pid: child.pid, startTime: child.startTime });
      queue.push(child.pid);
    }
  }
  // Group members whose parent already died were reparented away from the tree; the group still names them.
  for (const info of table) {
    if (info.pgrp === rootPid && info.pid !== rootPid && !found.has(info.pid)) {
      found.set(info.pid, { pid: info.pid, startTime: info.startTime });
    }
  }
  const byPid = new Map(table.map((info) => [info.pid, info]));
  return [...found.values()].filter((ref) => byPid.get(ref.pid)?.state !== 'Z');
}

/**
 * True while the referenced process exists and is not a zombie. Off Linux (no start time to compare)
 * falls back to `kill(pid, 0)`.
 */
export function isAlive(ref: ProcessRef): boolean {
  if (!hasProcfs) {
    try {
      process.kill(ref.pid, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  }
  const info = readProc(ref.pid);
  return info !== undefined && info.startTime === ref.startTime && info.state !== 'Z';
}

/** Sends `signal` to the referenced process if it is still the same process. Never throws. */
export function signalProcess(ref: ProcessRef, signal: NodeJS.Signals): void {
  if (hasProcfs && !isAlive(ref)) return;
  try {
    process.kill(ref.pid, signal);
  } catch {
    // Already gone (ESRCH) or not ours (EPERM): nothing to do.
  }
}

/** Sends `signal` to the whole process group `pgid` (POSIX). Returns false when the group is empty. Never throws. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}
