/**
 * Shared bits of the reliability suite: the size switch (`AUTOS_MCP_FULL_RELIABILITY=1`), a trap that turns
 * unhandled rejections and uncaught exceptions into test failures, and Linux /proc probes for child
 * processes and open file descriptors of this test process.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach } from 'node:test';

/** True when the full (slow) sizes were asked for. */
export const FULL = process.env['AUTOS_MCP_FULL_RELIABILITY'] === '1';

/** `ci` by default, `full` under `AUTOS_MCP_FULL_RELIABILITY=1`. */
export function size(ci: number, full: number): number {
  return FULL ? full : ci;
}

/** Property runs: a few hundred by default, more in the full run. */
export const RUNS = size(300, 2000);

/**
 * Installs process-wide traps and fails the current test if anything escaped since the last test:
 * an unhandled rejection or an uncaught exception means the client let an error leak into the host.
 */
export function trapEscapes(): void {
  const escaped: string[] = [];
  process.on('unhandledRejection', (reason) => {
    escaped.push(`unhandledRejection: ${reason instanceof Error ? reason.stack : String(reason)}`);
  });
  process.on('uncaughtException', (error) => {
    escaped.push(`uncaughtException: ${error.stack ?? String(error)}`);
  });
  afterEach(async () => {
    // Rejections are reported after a macrotask turn: give them one before judging.
    await new Promise((resolve) => setImmediate(resolve));
    const found = escaped.splice(0);
    assert.deepEqual(found, [], `want no escaped errors, got ${found.length}`);
  });
}

/**
 * Pids whose parent is this process (live or zombie), from /proc — leaving out tsx's own esbuild service,
 * which the loader may start at any time.
 */
export function childPids(): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) !== process.pid) continue;
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!/esbuild/.test(command)) out.push(Number(entry));
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

/** Waits until `check()` is true or `ms` elapse; returns the last value of `check()`. */
export async function eventually(check: () => boolean, ms = 2000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}
