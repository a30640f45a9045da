/**
 * Millisecond options mean what they say. Node's timers clamp a delay above 2³¹−1 ms to 1 ms (and warn),
 * so `timeoutMs: 1e12` would fire at once; here `Infinity` means "no deadline", larger finite values are
 * waited out in steps (the engine's `arm`), and `NaN`, negatives and non-numbers are a `config` error
 * before anything is sent. One validator for every millisecond option.
 */
import { McpError } from '../errors/index.js';

/** The longest single `setTimeout` delay Node honours. */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * Checks a millisecond option: a number ≥ 0 (or > 0 with `positive`), `Infinity` allowed unless
 * `finite`. Returns `fallback` when absent; throws `McpError` `config` naming the option otherwise.
 */
export function durationMs(
  value: unknown,
  name: string,
  fallback: number,
  rules: { positive?: boolean; finite?: boolean } = {},
): number {
  if (value === undefined) return fallback;
  const ok =
    typeof value === 'number' &&
    !Number.isNaN(value) &&
    (rules.positive ? value > 0 : value >= 0) &&
    (rules.finite !== true || Number.isFinite(value));
  if (!ok) {
    const range = `${rules.positive ? 'a positive' : 'a non-negative'} number of milliseconds${rules.finite ? '' : ' or Infinity'}`;
    throw new McpError('config', `${name} must be ${range} (got ${describe(value)})`);
  }
  return value as number;
}

function describe(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return `a string of ${value.length} characters`;
  return typeof value;
}
