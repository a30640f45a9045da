/**
 * The bounds of a run: defaults, and the options resolved against them. Each bound is one a hostile piece
 * of code (or a hostile tool result) can push, and test/code/attacks.test.ts pushes past each of them.
 */
import { McpError } from '../errors/index.js';
import type { RunCodeOptions } from './types.js';

/** The defaults, and the fixed bounds no option changes. */
export const DEFAULT_LIMITS = Object.freeze({
  timeoutMs: 30_000,
  memoryMb: 64,
  maxLogChars: 32_000,
  maxCalls: 1_000,
  maxConcurrentCalls: 16,
  maxValueChars: 1_000_000,
  /** The JSON of one call's arguments (or one search/describe request), in characters. */
  maxArgChars: 1_000_000,
  /** The JSON of one answer crossing into the sandbox (a tool result, search results), in characters. */
  maxInChars: 4_000_000,
  /**
   * The engine's stack, in bytes: deep recursion throws a catchable `InternalError`. Measured: at 512 KiB
   * V8's own stack overflowed first on a plain `f()` recursion; at 256 KiB QuickJS stops it (~1,300 frames).
   */
  maxStackBytes: 256 * 1024,
});

/** The bounds of one run. */
export interface Limits {
  timeoutMs: number;
  memoryBytes: number;
  maxLogChars: number;
  maxCalls: number;
  maxConcurrentCalls: number;
  maxValueChars: number;
  maxArgChars: number;
  maxInChars: number;
  maxStackBytes: number;
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0)
    throw new McpError('config', `runCode: ${name} must be a positive number, got ${String(value)}`);
  return value;
}

/** The options' bounds, defaults filled in; throws `config` on a bound that is not a positive number. */
export function limitsOf(options: RunCodeOptions): Limits {
  const d = DEFAULT_LIMITS;
  return {
    timeoutMs: positive('timeoutMs', options.timeoutMs, d.timeoutMs),
    memoryBytes: Math.floor(positive('memoryMb', options.memoryMb, d.memoryMb) * 1024 * 1024),
    maxLogChars: Math.floor(positive('maxLogChars', options.maxLogChars, d.maxLogChars)),
    maxCalls: Math.floor(positive('maxCalls', options.maxCalls, d.maxCalls)),
    maxConcurrentCalls: Math.floor(
      positive('maxConcurrentCalls', options.maxConcurrentCalls, d.maxConcurrentCalls),
    ),
    maxValueChars: Math.floor(positive('maxValueChars', options.maxValueChars, d.maxValueChars)),
    maxArgChars: d.maxArgChars,
    maxInChars: d.maxInChars,
    maxStackBytes: d.maxStackBytes,
  };
}
