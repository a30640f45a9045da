/**
 * One registry of live stdio servers per thread. A single `process.on('exit')` listener (added once, so
 * 500 connections add no listeners) SIGKILLs every remaining tree synchronously if the host exits without
 * closing them; a guard process per server (`guard.ts`) does the same when no exit hook can run (SIGKILL,
 * or the exit of a process whose thread this is); and one shared, unref'd timer re-scans /proc so
 * descendants that later leave the server's group are remembered before their parent can die and orphan them.
 */
import { type Guard, startGuard } from './guard.js';
import { signalGroup, snapshotProcesses } from './procfs.js';
import type { ServerTree } from './server-tree.js';

const SCAN_INTERVAL_MS = 2000;
const live = new Map<ServerTree, Guard | undefined>();
let hooked = false;
let timer: NodeJS.Timeout | undefined;

function killAll(): void {
  for (const [tree, guard] of live) {
    tree.killNow();
    void guard?.disarm();
  }
  live.clear();
}

function scan(): void {
  if (live.size === 0) return;
  // One /proc pass serves every connection.
  const table = snapshotProcesses();
  for (const tree of live.keys()) tree.remember(table);
}

/** Tracks `tree` until `untrack` is called; ends it if the host process exits first. */
export function track(tree: ServerTree): void {
  if (!hooked) {
    process.on('exit', killAll);
    hooked = true;
  }
  live.set(tree, live.get(tree) ?? startGuard(tree.pid));
  if (timer === undefined && process.platform === 'linux') {
    timer = setInterval(scan, SCAN_INTERVAL_MS);
    timer.unref();
  }
}

/**
 * The server process itself has exited: when nothing is left in its group, its guard is ended at once, so a
 * server that is never closed leaves no guard waiting to signal a group id that may be reused.
 */
export function rootExited(tree: ServerTree): void {
  if (process.platform === 'win32' || signalGroup(tree.pid, 0)) return;
  void live.get(tree)?.disarm();
}

/** Stops tracking `tree` (its close sequence has finished); resolves once its guard is reaped. */
export function untrack(tree: ServerTree): Promise<void> {
  const disarmed = live.get(tree)?.disarm() ?? Promise.resolve();
  live.delete(tree);
  if (live.size === 0 && timer !== undefined) {
    clearInterval(timer);
    timer = undefined;
  }
  return disarmed;
}

/** Number of trees currently tracked (for tests and diagnostics). */
export function trackedCount(): number {
  return live.size;
}
