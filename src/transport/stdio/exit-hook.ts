/**
 * One process-wide registry of live stdio servers. A single `process.on('exit')` listener (added once, so
 * 500 connections add no listeners) SIGKILLs every remaining tree synchronously if the host exits without
 * closing them; and one shared, unref'd timer re-scans /proc so descendants that later leave the server's
 * group are remembered before their parent can die and orphan them.
 */
import { snapshotProcesses } from './procfs.js';
import type { ServerTree } from './server-tree.js';

const SCAN_INTERVAL_MS = 2000;
const live = new Set<ServerTree>();
let hooked = false;
let timer: NodeJS.Timeout | undefined;

function killAll(): void {
  for (const tree of live) tree.killNow();
  live.clear();
}

function scan(): void {
  if (live.size === 0) return;
  // One /proc pass serves every connection.
  const table = snapshotProcesses();
  for (const tree of live) tree.remember(table);
}

/** Tracks `tree` until `untrack` is called; ends it if the host process exits first. */
export function track(tree: ServerTree): void {
  if (!hooked) {
    process.on('exit', killAll);
    hooked = true;
  }
  live.add(tree);
  if (timer === undefined && process.platform === 'linux') {
    timer = setInterval(scan, SCAN_INTERVAL_MS);
    timer.unref();
  }
}

/** Stops tracking `tree` (its close sequence has finished). */
export function untrack(tree: ServerTree): void {
  live.delete(tree);
  if (live.size === 0 && timer !== undefined) {
    clearInterval(timer);
    timer = undefined;
  }
}

/** Number of trees currently tracked (for tests and diagnostics). */
export function trackedCount(): number {
  return live.size;
}
