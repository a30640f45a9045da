/**
 * The public shapes of `autos-mcp/code`: what `runCode` takes (the catalog it calls through, the limits) and
 * what it returns (the value, the captured logs, one record per tool call, the error). Plain types only; the
 * defaults live in `limits.ts`.
 */

/**
 * What the sandbox calls through. Structural: the catalog of `autos-mcp/catalog` satisfies it, and so does a
 * small object over one `Client` (`call` maps a `server.tool` ref onto `client.callTool`). It holds every
 * credential, header and token; the sandbox sees only the plain data these methods return.
 */
export interface CodeCatalog {
  /** Ranked tools across every server; the result crosses into the sandbox as JSON. */
  search(
    query: string,
    options?: { limit?: number; detail?: 'names' | 'descriptions' | 'full' },
  ): Promise<unknown>;
  /** One tool's full definition; its `annotations` hints are shown on a failed call's error. */
  describe(ref: string): Promise<unknown>;
  /** Calls the tool `ref` (`server.tool`); an `isError` result is a result, a failure rejects. */
  call(
    ref: string,
    args?: Record<string, unknown>,
    options?: { signal?: AbortSignal; timeoutMs?: number },
  ): Promise<unknown>;
}

/** The options of `runCode`. Every bound has a default (docs/code-mode.md lists them). */
export interface RunCodeOptions {
  /** What `mcp.*` and `servers.*` call through (it holds the credentials; the code never sees them). */
  catalog: CodeCatalog;
  /**
   * Refs the code may call, as `server.tool` globs (`*` matches any run of characters, dots included):
   * `['github.*', 'memory.read_graph']`. Default: every ref. A call outside them fails with kind `denied`,
   * delivery `not_sent`, and never reaches the catalog.
   */
  allow?: readonly string[];
  /** The whole run's deadline, calls included (default 30,000 ms); past it the run ends with `timeout`. */
  timeoutMs?: number;
  /** The sandbox's heap cap in MiB (default 64); past it the run ends with `too_large`. */
  memoryMb?: number;
  /** Aborting it ends the run with `cancelled` (seen between steps of the code and while it awaits calls). */
  signal?: AbortSignal;
  /** The characters of `console.*` output kept (default 32,000); the rest is cut with a marker line. */
  maxLogChars?: number;
  /** The bridge requests a run may make: calls, searches and describes (default 1,000). */
  maxCalls?: number;
  /** Tool calls in flight at once (default 16); more wait their turn, in order. */
  maxConcurrentCalls?: number;
  /** The returned value's JSON size in characters (default 1,000,000); over it the run ends `too_large`. */
  maxValueChars?: number;
  /** `js`, `ts` (types stripped with sucrase), or unset: JavaScript, else TypeScript when it does not parse. */
  language?: 'js' | 'ts';
}

/** What crossed the bridge for one tool call (`mcp.call` or `servers.<server>.<tool>`). */
export interface CallRecord {
  /** The `server.tool` ref the code named. */
  ref: string;
  /** True when the tool answered with a result (an `isError` result included). */
  ok: boolean;
  /** Milliseconds from the call leaving the sandbox to its answer (0 when it was refused at once). */
  ms: number;
  /** Whether the request reached the server: `not_sent` is always safe to retry. */
  delivery?: 'not_sent' | 'unknown' | 'delivered';
  /** The failure's kind (`denied`, `timeout`, `too_large`, …) when `ok` is false. */
  kind?: string;
  /** True when the tool answered with `isError: true`. */
  isError?: boolean;
}

/** Why a run ended without a value. Stable strings: match on them. */
export type RunErrorKind =
  /** The source does not parse (JavaScript, or TypeScript once its types are stripped). */
  | 'syntax'
  /** The code threw, or its promise rejected, and nothing caught it. */
  | 'thrown'
  /** The run's deadline passed. */
  | 'timeout'
  /** `signal` was aborted. */
  | 'cancelled'
  /** The heap cap was reached, or the returned value is over `maxValueChars`. */
  | 'too_large'
  /** The returned value is not plain data (a function, a cycle, a BigInt, a symbol). */
  | 'not_plain'
  /** The code awaits a promise nothing can settle (no call in flight, no job queued). */
  | 'unsettled'
  /** The shared engine broke in a concurrent run and was replaced: this run was ended; run it again. */
  | 'engine';

/** The error of a run. */
export interface RunError {
  kind: RunErrorKind;
  /** What happened, in words; for `thrown`, the error's `name: message`. */
  message: string;
  /** The line in the given source, when the engine said where. */
  line?: number;
  /** For `thrown` when the uncaught error came from a bridge call: what that call's error said. */
  call?: { ref?: string; kind?: string; delivery?: string };
}

/** The outcome of `runCode`. Every field is plain data, copied out of the sandbox. */
export interface RunResult {
  /** What the code returned, copied as JSON; absent when it returned nothing or failed. */
  value?: unknown;
  /** `console.*` lines (`warn`/`error` prefixed with `[warn] ` / `[error] `), bounded by `maxLogChars`. */
  logs: string[];
  /** One record per tool call, in the order the calls were made. */
  calls: CallRecord[];
  /** Why the run ended without a value. */
  error?: RunError;
}
