/**
 * `McpClient`: what a connected `Client` and a lazy `Session` both are, so code that lists and calls tools
 * takes either (the agent formats in `autos-mcp/tools` and `autos-mcp/ai` do). Both implement it; a test
 * double that implements it stands in for both.
 */
import type { CallOptions, CallToolOptions, ListToolsOptions } from './call-options.js';
import type { CloseReport } from './client.js';
import type { Tool, ToolCallOutcome, ToolList } from './types.js';

/**
 * One server's tools, behind a `Client` (connected) or a `Session` (connects on first use). `Outcome` is
 * what `callTool` resolves to: `CallToolResult` where no `input_required` result can come back.
 */
export interface McpClient<Outcome extends ToolCallOutcome = ToolCallOutcome> {
  /** Every tool, following pagination to the end; malformed tools left out (`listToolsDetailed` says why). */
  listTools(options?: ListToolsOptions): Promise<Tool[]>;
  /** Every tool, with the ones left out and why, their digests and the cache hints. */
  listToolsDetailed(options?: ListToolsOptions): Promise<ToolList>;
  /** Calls a tool over the open connection; `isError: true` is a result, not an exception. */
  callTool(name: string, args?: Record<string, unknown>, options?: CallToolOptions): Promise<Outcome>;
  /** Sends any request (resources, prompts, custom methods) and resolves with its raw `result`. */
  request(
    method: string,
    params?: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<Record<string, unknown>>;
  /** Closes what was opened (a `Session` that never connected has nothing to report: undefined). */
  close(): Promise<CloseReport | undefined>;
}
