/**
 * The last line of defence against orphans: signal a stdio server's process group (the transport starts
 * every server `detached`, so its pid is its group id) and count what is left of it. Used when a thread
 * died without its cleanup, at process exit, and on a retried close after the client's own sequence.
 */
import { readdirSync, readFileSync } from 'node:fs';

const POLL_MS = 25;

/** SIGKILLs the process group `pgid` and the process itself; never throws. */
export function killGroup(pgid: number): void {
  if (process.platform !== 'win32') {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // no such group any more
    }
  }
  try {
    process.kill(pgid, 'SIGKILL');
  } catch {
    // no such process any more
  }
}

/** Live (non-zombie) members of the process group `pgid`; where /proc is missing, whether the leader lives. */
export function countGroup(pgid: number): number {
  if (process.platform !== 'linux') {
    try {
      process.kill(pgid, 0);
      return 1;
    } catch {
      return 0;
    }
  }
  let count = 0;
  for (const entry of readdirSync('/proc')) {
    if (entry.charCodeAt(0) > 57) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') count += 1;
    } catch {
      // the process ended while we looked
    }
  }
  return count;
}

/** Waits up to `waitMs` for the group `pgid` to be gone; the number of members still alive. */
export async function groupSurvivors(pgid: number, waitMs: number): Promise<number> {
  const deadline = Date.now() + waitMs;
  let left = countGroup(pgid);
  while (left > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    left = countGroup(pgid);
  }
  return left;
}
