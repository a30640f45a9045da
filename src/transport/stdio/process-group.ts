/**
 * A stdio server's process group reached by its pid alone, for a caller that no longer holds the connection:
 * the thread that ran it died, or its close sequence already ran and left survivors. Every server starts
 * `detached`, so its pid is its process group id. Ending it goes through the same `ServerTree` as the close
 * sequence (the group, the descendants /proc still shows, then the process; `taskkill /T /F` on Windows).
 */
import { hasProcfs, signalGroup, snapshotProcesses } from './procfs.js';
import { ServerTree } from './server-tree.js';
import { waitUntil } from './terminate.js';

/** SIGKILLs the process group `pgid`, its descendants and the process itself, now. Never throws. */
export function killProcessGroup(pgid: number): void {
  new ServerTree(pgid).killNow();
}

/**
 * Live (non-zombie) members of the process group `pgid`. Without /proc: 1 while the group or its leader
 * still answers signal 0, else 0.
 */
export function countProcessGroup(pgid: number): number {
  if (!hasProcfs) return signalGroup(pgid, 0) || signalLeader(pgid) ? 1 : 0;
  let count = 0;
  for (const info of snapshotProcesses()) if (info.pgrp === pgid && info.state !== 'Z') count += 1;
  return count;
}

/** SIGKILLs the group `pgid` and waits up to `verifyMs` for it to be gone; the members still alive. */
export async function endProcessGroup(pgid: number, verifyMs: number): Promise<number> {
  killProcessGroup(pgid);
  await waitUntil(() => countProcessGroup(pgid) === 0, verifyMs);
  return countProcessGroup(pgid);
}

function signalLeader(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
