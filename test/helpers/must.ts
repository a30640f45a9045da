/** Test assertions that narrow: a value the test needs, or a failure naming what was missing. */
import assert from 'node:assert/strict';

/** Returns `value`, failing the test with `what` when it is undefined or null. */
export function must<T>(value: T | undefined | null, what: string): T {
  assert.ok(value !== undefined && value !== null, `want ${what}, got ${String(value)}`);
  return value;
}
