/**
 * Shared bits of the reliability suite: the size switch (`AUTOS_MCP_FULL_RELIABILITY=1`) and a trap that
 * turns unhandled rejections and uncaught exceptions into test failures. The /proc probes are in
 * `test/helpers/proc.ts`, the waits in `test/helpers/wait.ts`.
 */
import assert from 'node:assert/strict';
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
