/**
 * The catalog's public shapes: its options, the `Catalog` handle, search hits, a tool's description and
 * the problems that name a server. Plain data everywhere a result crosses a boundary (a sandbox, JSON).
 */
import type { ApprovalHandler } from '../client/approval.js';
import type { CallToolOptions } from '../client/call-options.js';
import type { CloseReport } from '../client/client.js';
import type { ConnectOptions } from '../client/options.js';
import type { Tool, ToolCallOutcome } from '../client/types.js';

/** How much of each tool a search hit carries. */
export type SearchDetail = 'names' | 'descriptions' | 'full';

/** Options of a catalog call: those of `callTool` (`maxResultChars` absent: the catalog's). */
export type CatalogCallOptions = CallToolOptions;

/** Options of `catalog()`. */
export interface CatalogOptions {
  /**
   * Servers of `loadServers()`: start those of project files not trusted yet (the CLI's `--trust-project`).
   * Without it such a server is a problem of kind `untrusted`, never started.
   */
  trustProject?: boolean;
  /**
   * Which tools the catalog offers, as `server.tool` globs (`*` matches any run of characters), on top of
   * each server's own `tools` filter: a tool outside `allow` or inside `deny` is not listed, described or
   * called (deny wins). `approve`: calls to these refs (`server.tool`, globs in both parts) wait for a yes
   * from `onApprove`, and are refused (`denied`, not sent) without one; they join each server's own
   * `tools.approve`, so the client decides them as it decides every approval.
   */
  tools?: { allow?: readonly string[]; deny?: readonly string[]; approve?: readonly string[] };
  /**
   * Asked before a call to a tool that needs approval (the catalog's `tools.approve` or a server's own),
   * with `server` set to the server's catalog name; a server's `connect` options' own handler wins.
   */
  onApprove?: ApprovalHandler;
  /**
   * Options of each server's connection (handlers, auth, …), or a function of the server's name that
   * gives them. `onToolListChanged` is chained, not replaced.
   */
  connect?: ConnectOptions | ((server: string) => ConnectOptions);
  /**
   * Longest a server may take to connect and list its tools for a search, `list` or `describe`, in ms
   * (default 10,000): past it, the server is a problem of kind `timeout` and the others answer.
   */
  listTimeoutMs?: number;
  /** Default result budget of every `call` (see `CatalogCallOptions.maxResultChars`). */
  maxResultChars?: number;
  /** @internal The clock of the back-off and of list lifetimes (tests move it instead of waiting). */
  now?: () => number;
}

/** Options of `search`. */
export interface SearchOptions {
  /** Most hits (1 to 1,000; default 10). */
  limit?: number;
  /** `names`: refs only; `descriptions` (default): and title and description; `full`: and schemas and annotations. */
  detail?: SearchDetail;
  /** Search only these servers (only they are started). */
  servers?: readonly string[];
}

/** Something that keeps one server out of an answer; the others still answer. */
export interface CatalogProblem {
  /** The server's name in the catalog. */
  server: string;
  /**
   * An `ErrorKind` of the failure (`spawn`, `timeout`, `transport`, …), or `untrusted` (a project file not
   * trusted), `disabled` (disabled in its file) or `config` (a name or a config that cannot be used).
   */
  kind: string;
  /** One sentence, redacted: never a secret. */
  message: string;
}

/** One search hit. */
export interface SearchHit {
  /** `server.tool`: what `describe` and `call` take. */
  ref: string;
  server: string;
  tool: string;
  /** The BM25F score (4 decimals); `list()` gives 0. Higher is better; ties are ordered by ref. */
  score: number;
  /** At `descriptions` and `full`, when the tool has one (cut to 200 characters). */
  title?: string;
  /** At `descriptions` and `full`, when the tool has one (cut to 1,000 characters, ending with `…`). */
  description?: string;
  /** At `full` only. */
  inputSchema?: Tool['inputSchema'];
  outputSchema?: NonNullable<Tool['outputSchema']>;
  annotations?: NonNullable<Tool['annotations']>;
}

/** What `search` and `list` return. */
export interface CatalogSearch {
  results: SearchHit[];
  /** The servers that could not answer, and why. */
  problems: CatalogProblem[];
}

/** A tool's whole definition, as the server listed it, with its digest. */
export interface ToolDescription {
  ref: string;
  server: string;
  tool: string;
  title?: string;
  description?: string;
  inputSchema: Tool['inputSchema'];
  outputSchema?: NonNullable<Tool['outputSchema']>;
  annotations?: NonNullable<Tool['annotations']>;
  /** `sha256:…` of the definition, as the client computes it (`toolDigest`): what a pin records. */
  digest: string;
}

/** Many servers as one: search, describe and call their tools by `server.tool`. */
export interface Catalog {
  /** Every server name, in order (the ones that are problems too). */
  readonly servers: readonly string[];
  /** The best tools for `query`, across every server (or `options.servers`), and the servers that failed. */
  search(query: string, options?: SearchOptions): Promise<CatalogSearch>;
  /** The whole definition of `ref` with its digest; an unknown ref is `invalid_tool`, with suggestions. */
  describe(ref: string): Promise<ToolDescription>;
  /** Calls `ref` on its server; `isError` results are returned, errors keep their `delivery`. */
  call(ref: string, args?: Record<string, unknown>, options?: CatalogCallOptions): Promise<ToolCallOutcome>;
  /** Every tool (names detail, by ref), and the servers that failed. */
  list(): Promise<CatalogSearch>;
  /** The current problems: servers that cannot start, and those whose last attempt failed. */
  problems(): readonly CatalogProblem[];
  /** Ends every server started, with each one's report (undefined for a server never started). */
  close(): Promise<Record<string, CloseReport | undefined>>;
}
