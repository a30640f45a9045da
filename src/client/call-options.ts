import type { TaskUpdate } from '../extensions/index.js';

/**
 * What every request accepts from the caller: a deadline that progress restarts, a hard cap, a signal; and
 * what a tool call and a tool list add to it.
 */

/** A `notifications/progress` update for one call. */
export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

/** Options every request accepts. */
export interface CallOptions {
  /** Deadline in ms; restarts on each progress update of this call (see `maxTotalTimeoutMs`). */
  timeoutMs?: number;
  /** Hard cap in ms however much progress arrives. Default: 5 × the deadline. */
  maxTotalTimeoutMs?: number;
  /** Aborting cancels the call at once: `kind: 'cancelled'`. */
  signal?: AbortSignal;
  /** Called for each progress update the server sends for this call. */
  onProgress?: (progress: Progress) => void;
}

/** Options of `callTool`: those of every request, and the argument check. */
export interface CallToolOptions extends CallOptions {
  /**
   * Check the arguments against the tool's `inputSchema` before anything is sent (listing the tools
   * first when the client has no current list): a violation is `kind: 'invalid_arguments'`,
   * `delivery: 'not_sent'`. Needs the optional peer dependency `@cfworker/json-schema`. Default: the
   * client's `validateArguments` (connect options), else false.
   */
  validateArguments?: boolean;
  /**
   * Result budget in characters of the result's JSON, from 512 to 2^31 - 1 (wins over the config's
   * `maxResultChars`; a tool's `_meta["anthropic/maxResultSizeChars"]` may lower it). A result over it comes
   * back cut, ending with a text block that says so, with `truncated: { originalChars, file }`; `file`
   * holds the whole result as JSON (mode 0600) and is yours to remove. With a budget, text blocks that
   * repeat `structuredContent` are left out. See docs/client.md, "Result budgets".
   */
  maxResultChars?: number;
  /**
   * With the tasks extension on, told the task's id when the server answers with a task, then each status
   * it is seen in (`working`, `input_required`, `completed`, …). A throw is logged, never the call's failure.
   */
  onTask?: (update: TaskUpdate) => void;
}

/** Options of `listTools` and `listToolsDetailed`. */
export interface ListToolsOptions extends CallOptions {
  /** Answer from the cached list while it is fresh per the server's `ttlMs` (2026). Default false. */
  cache?: boolean;
  /** Most pages to follow. Default 100. */
  maxPages?: number;
}

/** What the client layers add per request on top of the caller's options. */
export interface EngineRequestOptions extends CallOptions {
  headers?: Readonly<Record<string, string>> | undefined;
  resumable?: boolean | undefined;
  /** `initialize` MUST NOT be cancelled (S25/basic/utilities/cancellation). */
  noCancelNotification?: boolean | undefined;
  /** Hears the request's JSON-RPC id before it is sent (a `subscriptions/listen` correlates by it). */
  onId?: ((id: number) => void) | undefined;
}
