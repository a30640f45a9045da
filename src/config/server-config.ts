/**
 * The server config as users write it: plain JSON data naming one server — a command to spawn (stdio) or
 * a URL (Streamable HTTP) — and the limits of talking to it. Handlers (elicitation, logging, progress) are
 * functions and go in options, never here. The rules of each field are in `fields.ts`; `normalize.ts`
 * applies them.
 */
import type { ProtocolVersionChoice } from '../protocol/versions.js';
import type { EnvSource } from './env-from.js';
import type { ToolFilterConfig, ToolPinsConfig } from './tool-policy.js';

/** What happens to a stdio server's stderr. */
export type StderrMode = 'capture' | 'inherit' | 'ignore';

/** `clientInfo` sent to servers (an MCP `Implementation`). */
export interface ClientInfo {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
}

/** Settings every server config shares; alone, they configure a connection handed to `connect()` in options. */
export interface BaseServerConfig {
  /** Default deadline of every request, in ms (per-call `timeoutMs` wins); `Infinity`: none. Default 60000. */
  timeoutMs?: number | undefined;
  /**
   * Deadline of the whole connect phase (spawn, then `initialize`, or the `auto` probe and `initialize`), in
   * ms, apart from the per-request `timeoutMs`; `Infinity`: none. Default 30000, or `timeoutMs` if smaller.
   */
  connectTimeoutMs?: number | undefined;
  /** Largest message accepted from the server, in bytes. Default 16 MiB. */
  maxMessageBytes?: number | undefined;
  /**
   * Result budget of every `callTool`, in characters of the result's JSON (a call's own `maxResultChars`
   * wins): a larger result comes back cut, with `truncated: { originalChars, file }` and the whole result
   * in a private file. An integer from 512 to 2^31 - 1; absent: results come back whole.
   */
  maxResultChars?: number | undefined;
  /** `'2025-11-25'` (default), `'2026-07-28'`, or `'auto'`. */
  protocolVersion?: ProtocolVersionChoice | undefined;
  /** The `clientInfo` sent to the server. Default `{ name: 'autos-mcp', version: <this package's version> }`. */
  clientInfo?: ClientInfo | undefined;
  /**
   * Which tools are listed and may be called: `allow` (only these), `deny` (never these; wins over allow),
   * each a list of exact names or `*` globs. Others are in `listToolsDetailed().excluded` and refused with
   * `invalid_tool`, `not_sent`.
   */
  tools?: ToolFilterConfig | undefined;
  /**
   * Approved definitions, per tool name: a digest from `toolDigest()` (the string, or `{ digest, parts }`
   * so a change can be named by part). A pinned tool whose definition differs, or that is no longer
   * listed, is refused with `tool_changed`, `not_sent`.
   */
  pin?: ToolPinsConfig | undefined;
  /**
   * Extensions to turn on for this server, by id (e.g. `io.modelcontextprotocol/tasks`), together with the
   * connect option `extensions`: see that option and docs/extensions.md. At most 32.
   */
  extensions?: readonly string[] | undefined;
}

/** A server started as a child process and spoken to over stdin/stdout. */
export interface StdioServerConfig extends BaseServerConfig {
  /**
   * The executable. Never a shell string: it is not split on spaces (one that does not exist but is a
   * program followed by words, like `"node server.mjs"`, fails with a `config` error showing the split form).
   */
  command: string;
  args?: string[] | undefined;
  cwd?: string | undefined;
  /** Variables for the child, on top of a small allow-list of the parent's environment. */
  env?: Record<string, string> | undefined;
  /**
   * Variables whose values are looked up just before the server is spawned: `{ setting, key }` from
   * `autos-mcp/settings`, or `{ env }` from this process's environment. Never in `env` as well.
   */
  envFrom?: Record<string, EnvSource> | undefined;
  /** What happens to the server's stderr. Default `'capture'` (bounded, redacted, shown in close reports). */
  stderr?: StderrMode | undefined;
  /** Linux only: run the server in its own PID namespace (opt-in, feature-detected). */
  isolate?: boolean | undefined;
  /** How long `close()` waits after closing stdin before SIGTERM, and again before SIGKILL. Default 2000 ms. */
  graceMs?: number | undefined;
  /**
   * stdout lines that are not MCP messages (banners, log lines) are skipped and reported; past this many in
   * all the connection fails with `kind: 'protocol'`. Default 1000; 0 fails on the first.
   */
  maxSkippedLines?: number | undefined;
  /** The same bound in bytes of such lines. Default 1 MiB. */
  maxSkippedBytes?: number | undefined;
  /**
   * Bytes of messages waiting to be written to a server that does not read its stdin, before the connection
   * fails with `kind: 'transport'`. Default 32 MiB; one message larger than this alone is still sent.
   */
  maxQueuedBytes?: number | undefined;
}

/** A remote server spoken to over Streamable HTTP. */
export interface HttpServerConfig extends BaseServerConfig {
  /** The MCP endpoint. `https:`, or `http:` on loopback only. */
  url: string;
  /** Extra request headers; they may not override the headers autos-mcp manages. */
  headers?: Record<string, string> | undefined;
  /** Sent as `Authorization: Bearer <authToken>` on every request. */
  authToken?: string | undefined;
  /** Extra CA certificates (PEM) trusted on top of the system ones. */
  ca?: string[] | undefined;
  /** An HTTP(S) proxy URL for this server. */
  proxy?: string | undefined;
  /** Honour `HTTPS_PROXY`/`HTTP_PROXY`/`NO_PROXY` from the environment. Default false. */
  useEnvProxy?: boolean | undefined;
}

/**
 * One MCP server, as plain data: `{ command, args? }` for a local server spoken to over stdin/stdout, or
 * `{ url }` for a remote one over Streamable HTTP, plus the shared settings of `BaseServerConfig`.
 */
export type ServerConfig = StdioServerConfig | HttpServerConfig;

export const DEFAULT_TIMEOUT_MS = 60_000;
/** The connect phase's deadline when the config sets none (or `timeoutMs` when that is smaller). */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
