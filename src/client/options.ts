/**
 * Options of `connect`, `callToolOnce` and `withClient`: the functions and per-run choices that do not belong
 * in the plain-data config. Giving a handler is what declares the matching client capability.
 */
import type { Dispatcher } from 'undici';
import type { SettingsReader } from '../config/index.js';
import type { Clock } from '../internal/clock.js';
import type { Authorizer } from '../transport/authorizer.js';
import type { Connection } from '../transport/connection.js';
import type { ApprovalHandler } from './approval.js';
import type { ToolsChangedListener } from './tool-changes.js';
import type { ElicitationRequest, ElicitResult, ServerLogEntry } from './types.js';

/** Context handed to every handler. */
export interface HandlerContext {
  /** The server's display name (its config target). */
  target: string;
  /** Aborted when the request that needs the input is cancelled or the client closes. */
  signal: AbortSignal;
}

/** How `connect`, `callToolOnce` and `withClient` behave: handlers, deadlines, and what a transport takes besides config. */
export interface ConnectOptions {
  /** Deadline for the connection to be ready (spawn + handshake or probe), in ms. Default: the config's connectTimeoutMs. */
  timeoutMs?: number;
  /** Aborting cancels the connection attempt and cleans up. */
  signal?: AbortSignal;
  /**
   * Answers elicitations: 2025's server-initiated `elicitation/create` and 2026's MRTR input requests.
   * Giving it declares the `elicitation` capability (form mode). Without it nothing is declared.
   */
  onElicitation?: (request: ElicitationRequest, context: HandlerContext) => Promise<ElicitResult>;
  /** Answers `sampling/createMessage` (deprecated in 2026). Declares `sampling`. */
  onSampling?: (params: Record<string, unknown>, context: HandlerContext) => Promise<Record<string, unknown>>;
  /** Answers `roots/list` (deprecated in 2026). Declares `roots`. */
  onListRoots?: (context: HandlerContext) => Promise<{ roots: Array<{ uri: string; name?: string }> }>;
  /**
   * Asked before each call to a tool the config's `tools.approve` names, with the tool, the arguments and
   * its annotations: `true` lets the call go. Anything else, a throw, or no handler at all refuses the call
   * with `kind: 'denied'`, `delivery: 'not_sent'`. The wait counts against the call's `timeoutMs` and ends
   * with its signal.
   */
  onApprove?: ApprovalHandler;
  /** Receives the server's `notifications/message` logs, bounded and redacted. */
  onLog?: (entry: ServerLogEntry) => void;
  /**
   * Called when the server says its tool list changed (`notifications/tools/list_changed`), after the
   * client dropped its cached list (the next `listToolsDetailed` asks the server again). A throw is logged.
   * Giving it asks for change events from the start, as `client.onToolsChanged` does (in 2026 it holds
   * a `subscriptions/listen` open). Events of one turn of the event loop are told once.
   */
  onToolListChanged?: ToolsChangedListener;
  /**
   * Check every `callTool`'s arguments against the tool's `inputSchema` before sending (a call's own
   * `validateArguments` wins). Needs the optional peer dependency `@cfworker/json-schema`. Default false.
   */
  validateArguments?: boolean;
  /** Most MRTR rounds one call may take before it fails with `kind: 'protocol'`. Default 8. */
  maxInputRounds?: number;
  /**
   * HTTP servers: asked for the `Authorization` value before every request and told about each 401/403
   * (e.g. the OAuth module). Not together with the config's `authToken`.
   */
  auth?: Authorizer;
  /**
   * HTTP servers: the undici dispatcher to send with (shared pool, proxy, CA settings, a mock agent).
   * The caller owns it; `close()` leaves it open. Not together with `proxy`, `ca` or `useEnvProxy`.
   */
  dispatcher?: Dispatcher;
  /**
   * stdio servers: where the config's `envFrom` settings are read (from `autos-mcp/settings`'s
   * `openSettings()`); default the OS credential store.
   */
  settings?: SettingsReader;
  /**
   * A ready connection to use instead of opening one from a config (e.g. one end of `createMemoryPair()`,
   * or a transport of your own: see docs/extending.md). The config then holds only the shared settings.
   */
  connection?: Connection;
  /**
   * Extensions to turn on for this connection, by id (e.g. `io.modelcontextprotocol/tasks`): each is
   * declared in the client capabilities (`capabilities.extensions[id]`; 2026 on every request, 2025 in
   * `initialize`). An id this client has a module for gets its behaviour (see docs/extensions.md); any
   * other valid id is declared as `{}` only. A malformed id is `kind: 'config'` before anything starts.
   * Default: none (nothing is declared).
   */
  extensions?: readonly string[];
  /** @internal The time source of task polling (tests move it instead of waiting); default the system's. */
  clock?: Clock;
}
