/**
 * What one demo tool is: the definition `tools/list` shows and the function that answers `tools/call`.
 * Bad arguments are thrown as `ToolInputError`, which the server turns into a tool error the model can read
 * (`isError: true`), not a protocol error (S25/server/tools).
 */
import type { Json } from './wire.js';

/** One `tools/call` as a tool sees it. */
export interface ToolCall {
  /** The request's `params` (`_meta`, `inputResponses`, …). */
  params: Json;
  /** Aborted when the client cancels the call or stdin ends. */
  signal: AbortSignal;
  /** Sends a notification to the client. */
  notify(message: Json): void;
  /** How many `tools/call` requests the server received before this one. */
  callsBefore: number;
}

/** One tool of the demo server. */
export interface DemoTool {
  definition: { name: string; description: string; inputSchema: Json; outputSchema?: Json };
  call(args: Json, call: ToolCall): Json | Promise<Json>;
}

/** Arguments that do not fit the tool's schema: answered as a tool error. */
export class ToolInputError extends Error {}

/** The integer argument `name` (or `fallback`), refused unless from `min` to `max`. */
export function integerArg(args: Json, name: string, fallback: number, min: number, max: number): number {
  const value = args[name] ?? fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new ToolInputError(`${name} must be an integer from ${min} to ${max}`);
  return value;
}
