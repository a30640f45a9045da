/** Linux /proc probes for the tests: process state and parent, children of this process, open fds. */
import { readdirSync, readFileSync } from 'node:fs';

/**
 * The state letter (`R`, `S`, `Z`, …) and parent pid of `pid` from `/proc/<pid>/stat`, or `undefined`
 * when there is no such process. The fields are read after the last `)`, since the command name may hold any.
 */
export function procStat(pid: number | string): { state: string; ppid: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', ppid: Number(fields[1]) };
  } catch {
    return undefined;
  }
}

/** True while a process exists and is not a zombie. */
export function alive(pid: number): boolean {
  const stat = procStat(pid);
  return stat !== undefined && stat.state !== 'Z';
}

/**
 * Pids whose parent is this process (live or zombie) — leaving out tsx's own esbuild service, which the
 * loader may start at any time.
 */
export function childPids(): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || procStat(entry)?.ppid !== process.pid) continue;
    try {
      if (!/esbuild/.test(readFileSync(`/proc/${entry}/cmdline`, 'utf8'))) out.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}

/** Open file descriptors of this process. */
export function fdCount(): number {
  return readdirSync('/proc/self/fd').length;
}
