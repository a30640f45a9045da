/**
 * The shapes the client hands back: tools, tool results, MRTR input requests, discovery. They describe
 * what servers send; everything in them is data from the server, never an instruction to anyone.
 * Spec: T25/T26 (`Tool`, `CallToolResult`, `InputRequiredResult`, `DiscoverResult`).
 */
import type { ToolPart } from '../config/tool-policy.js';
import type { ContentBlock } from './content-blocks.js';

export type {
  Annotations,
  AudioContent,
  BlobResourceContents,
  ContentBlock,
  EmbeddedResource,
  Icon,
  ImageContent,
  ResourceLink,
  Role,
  TextContent,
  TextResourceContents,
  UnknownContent,
} from './content-blocks.js';

/** An MCP `Implementation` (serverInfo / clientInfo). Self-reported: for display and logs only. */
export interface Implementation {
  name: string;
  version: string;
  title?: string;
  [key: string]: unknown;
}

/** A tool definition exactly as the server gave it (schemas never dereferenced or stripped). */
export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  outputSchema?: Record<string, unknown>;
  /** Untrusted hints unless you trust the server (S25+26/server/tools). */
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * A tool left out of `listTools`, with the reason: its definition is malformed, the config's `tools`
 * filter leaves it out, or it drifted from its `pin` (then `drift` says how). Calling it is refused.
 */
export interface ExcludedTool {
  name: string;
  reason: string;
  /** Set when the tool is refused because of its pin. */
  drift?: ToolDrift;
}

/** How a pinned tool differs from its pin. */
export interface ToolDrift {
  /** The parts whose digest differs from the pin; empty when the pin has no part digests, or when `missing`. */
  changed: ToolPart[];
  /** True when the server no longer lists the pinned tool. */
  missing: boolean;
}

/** The digests of one tool definition (see `toolDigest`). */
export interface ToolDigest {
  /** `sha256:<hex>` of the whole definition: `name` and the parts present. */
  digest: string;
  /** `sha256:<hex>` of each part the definition has; a part it lacks has no entry. */
  parts: Partial<Record<ToolPart, string>>;
}

/** `listToolsDetailed()`: the usable tools, the excluded ones, and the 2026 cache hints of the last page. */
export interface ToolList {
  /** The usable tools a model may be offered: every model-facing output is built from these. */
  tools: Tool[];
  /**
   * Usable tools that are app-only (MCP Apps: `_meta.ui.visibility` without `"model"`, see `isAppOnly`):
   * callable by name (`callTool`), never in `tools`, so never offered to a model. Not in `excluded`,
   * whose tools are refused at call.
   */
  appOnly: Tool[];
  /** Tools left out and refused at call: malformed, filtered by the config's `tools`, drifted from a pin. */
  excluded: ExcludedTool[];
  /** The digests of each tool in `tools`, by name (`toolDigest`). */
  digests: Record<string, ToolDigest>;
  /** The digest of `tools` as a whole: of the object of name → whole digest. */
  listDigest: string;
  /** How long the list may be reused, in ms (2026-07-28 servers). */
  ttlMs?: number;
  cacheScope?: 'public' | 'private';
  /** True when the answer came from the client's cache (`cache: true`). */
  fromCache: boolean;
}

/**
 * A complete tool result, as the server sent it, its blocks checked (see `ContentBlock`). `isError: true`
 * is a result, not an exception.
 */
export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  resultType?: 'complete';
  _meta?: Record<string, unknown>;
  /**
   * Set by this client (never by the server) when the result was over its `maxResultChars` budget: it
   * was cut, its last text block says so, and `file` holds the whole result as JSON.
   */
  truncated?: ResultTruncation;
  [key: string]: unknown;
}

/** How a result over its `maxResultChars` budget was cut. */
export interface ResultTruncation {
  /** Characters (UTF-16 code units) of the whole result's JSON: the length of the file's text. */
  originalChars: number;
  /** A private file (mode 0600, in a 0700 directory) holding the whole result as JSON; yours to remove. */
  file: string;
}

/**
 * A tool's annotations as far as they have the types the spec gives them (S25+26/server/tools): hints
 * from the server, untrusted unless you trust the server.
 */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** One server→client input request inside an MRTR `input_required` result. */
export interface InputRequest {
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list' | (string & {});
  params?: Record<string, unknown>;
}

/**
 * A 2026-07-28 `input_required` result returned as data because no handler was given for what it asks.
 * Nothing was executed on your behalf; call again with handlers in `connect` options to complete it.
 */
export interface InputRequiredResult {
  resultType: 'input_required';
  inputRequests?: Record<string, InputRequest>;
  requestState?: string;
  /** Absent on an incomplete result; declared so `result.content` type-checks on the union. */
  content?: never;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * What `callTool` resolves with on a client that may get an incomplete result (2026-07-28, `auto`): check
 * `isInputRequired(result)` first. A 2025-11-25 client's `callTool` resolves to `CallToolResult`.
 */
export type ToolCallOutcome = CallToolResult | InputRequiredResult;

/**
 * The `protocolVersion` of a config type that can only mean 2025-11-25: absent or `'2025-11-25'`. A client
 * connected with such a config resolves `callTool` to `CallToolResult` (no `input_required` in 2025).
 */
export interface LegacyVersion {
  protocolVersion?: '2025-11-25' | undefined;
}

/** True when a result is an MRTR `input_required` result that was not completed. */
export function isInputRequired(result: unknown): result is InputRequiredResult {
  return (
    typeof result === 'object' &&
    result !== null &&
    (result as { resultType?: unknown }).resultType === 'input_required'
  );
}

/** `server/discover` (2026-07-28), or the same facts taken from `initialize` (2025-11-25). */
export interface DiscoverResult {
  supportedVersions: string[];
  capabilities: Record<string, unknown>;
  instructions?: string;
  serverInfo?: Implementation;
  ttlMs?: number;
  cacheScope?: 'public' | 'private';
  /** Where the facts came from. */
  source: 'server/discover' | 'initialize';
}

/** An elicitation the server asks the user for (form mode unless `mode` says otherwise). */
export interface ElicitationRequest {
  mode?: 'form' | 'url' | (string & {});
  message: string;
  requestedSchema?: Record<string, unknown>;
  url?: string;
  elicitationId?: string;
  [key: string]: unknown;
}

/** The answer to an elicitation. `content` only with `accept` in form mode. */
export interface ElicitResult {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean | string[]>;
  [key: string]: unknown;
}

/** A `notifications/message` log entry from the server; `data` is bounded and redacted. */
export interface ServerLogEntry {
  level: string;
  logger?: string;
  data: string;
}
