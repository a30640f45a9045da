/**
 * How a run's failure becomes a `RunError`: the ends the host decides (deadline, signal, a broken engine),
 * and the plain data the prelude's `errorInfo` reads from a thrown value, checked and bounded again here.
 */
import type { Limits } from './limits.js';
import { WRAPPER_LINES } from './source.js';
import type { RunError } from './types.js';

/** An end the host decides, whatever the code is doing. */
export type Stop = 'timeout' | 'cancelled' | 'engine';

/** The error of a run the host ended. */
export function stopError(stop: Stop, limits: Limits): RunError {
  if (stop === 'timeout')
    return { kind: 'timeout', message: `the code did not finish within ${limits.timeoutMs} ms` };
  if (stop === 'cancelled') return { kind: 'cancelled', message: 'the run was cancelled (signal aborted)' };
  return {
    kind: 'engine',
    message: 'the sandbox engine failed in another run and was replaced; this run was ended, run it again',
  };
}

/** What the prelude's `errorInfo` reports of a thrown value. */
export interface ErrorInfo {
  name: string;
  message: string;
  line?: number;
  kind?: string;
  delivery?: string;
  ref?: string;
}

/** The line of the given source an engine line maps to (the wrapper's line taken off), if any. */
export function lineOf(info: ErrorInfo): { line?: number } {
  const line = info.line === undefined ? undefined : info.line - WRAPPER_LINES;
  return line !== undefined && line > 0 ? { line } : {};
}

const BOUND = 2_000;

/** The prelude's JSON about an error, each field checked and bounded again on this side. */
export function errorInfoOf(text: string): ErrorInfo | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text.slice(0, 20_000));
  } catch {
    return undefined;
  }
  if (data === null || typeof data !== 'object') return undefined;
  const record = data as Record<string, unknown>;
  const string = (key: string): string | undefined =>
    typeof record[key] === 'string' ? (record[key] as string).slice(0, BOUND) : undefined;
  const info: ErrorInfo = { name: string('name') ?? 'Error', message: string('message') ?? '' };
  const line = record['line'];
  if (typeof line === 'number' && Number.isInteger(line)) info.line = line;
  for (const key of ['kind', 'delivery', 'ref'] as const) {
    const value = string(key);
    if (value !== undefined) info[key] = value.slice(0, 200);
  }
  return info;
}
