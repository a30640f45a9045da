/**
 * `Client`: one connection to one MCP server, ready to use. It lists and calls tools, sends raw requests,
 * and closes everything it started. Server-provided text (descriptions, instructions, logs) is kept as
 * data and never acted on. It owns the negotiated state (`Negotiated`) and replaces it whole when it changes.
 */
import type { NormalizedCommon } from '../config/index.js';
import { debugLog } from '../diagnostics/publish.js';
import { McpError, RpcError } from '../errors/index.js';
import { readServerExtensions, type TurnedOn } from '../extensions/index.js';
import { HEADER_MISMATCH } from '../protocol/jsonrpc.js';
import { META_SERVER_INFO, MODERN_VERSION } from '../protocol/versions.js';
import type { Connection, ProcessReport, TransportKind } from '../transport/connection.js';
import { abortable } from './abortable.js';
import { approveCall, needsApproval } from './approval.js';
import { checkBeforeSending, listFirstFailure } from './call-checks.js';
import { type CallFlow, callThrough } from './call-flow.js';
import type { CallOptions, CallToolOptions, ListToolsOptions } from './call-options.js';
import { checkCallResult } from './call-result.js';
import type { ToolCatalog } from './catalog.js';
import type { CloseReport } from './close-report.js';
import type { Engine } from './engine.js';
import { discoverModern } from './lifecycle.js';
import type { McpClient } from './mcp-client.js';
import { type Negotiated, revise } from './negotiated.js';
import type { ConnectOptions } from './options.js';
import { modernPinRefused } from './pinned-revision.js';
import { ResourceMethods } from './resource-methods.js';
import { applyBudget, budgetOf } from './result-budget.js';
import type { ToolChanges, ToolsChangedListener } from './tool-changes.js';
import { filterRefusal } from './tool-filter.js';
import { applyToolPolicy, pinOf } from './tool-pins.js';
import { checkTools, DEFAULT_MAX_PAGES, fetchAllPages } from './tools.js';
import type { DiscoverResult, Implementation, Tool, ToolCallOutcome, ToolList } from './types.js';
import { listOptions, unknownToolError } from './unknown-tool.js';
import {
  isImplementation,
  sameImplementation,
  type Wire,
  type WireRequestOptions,
  withVersionRetry,
} from './wire.js';

const log = debugLog;

export type { CloseReport } from './close-report.js';

/** The parts `connect()` assembles a client from. */
interface ClientParts {
  engine: Engine;
  wire: Wire;
  connection: Connection;
  config: NormalizedCommon;
  options: ConnectOptions;
  negotiated: Negotiated;
  catalog: ToolCatalog;
  changes: ToolChanges;
  closeController: AbortController;
  /** How the first process ended, when `auto`'s probe ended it and this client runs the second. */
  probeRestart: ProcessReport | undefined;
  extensions: TurnedOn;
}

/**
 * A connected MCP client for one server. Get one from `connect()` or `withClient()`; close it with
 * `close()` (or `await using`). Calls may run concurrently; each settles exactly once. `Outcome` is what
 * `callTool` resolves to: `CallToolResult` for a client connected with a config that pins 2025-11-25 (or
 * names no `protocolVersion`), where no `input_required` result can come back; else `ToolCallOutcome`.
 */
export class Client<Outcome extends ToolCallOutcome = ToolCallOutcome>
  extends ResourceMethods
  implements McpClient<Outcome>
{
  readonly #engine: Engine;
  readonly #wire: Wire;
  readonly #connection: Connection;
  readonly #config: NormalizedCommon;
  readonly #options: ConnectOptions;
  readonly #closeController: AbortController;
  readonly #catalog: ToolCatalog;
  readonly #probeRestart: ProcessReport | undefined;
  readonly #flow: CallFlow;
  #negotiated: Negotiated;
  #discoverCache: { result: DiscoverResult; receivedAt: number } | undefined;
  /** The implicit `tools/list` in flight, shared by concurrent first calls. */
  #listing: Promise<ToolList> | undefined;
  #modernAnswered = false; // a 2026 request was answered: the server speaks 2026-07-28 (`#pinned`)
  /** Calls `listener` when the server's tools change, after the cached list was dropped (`ToolsChangedEvent`; in 2026
   * the first listener opens a `subscriptions/listen`, removing the last cancels it). Returns the remover. */
  readonly onToolsChanged: (listener: ToolsChangedListener) => () => void;

  private constructor(parts: ClientParts) {
    super();
    this.#engine = parts.engine;
    this.#wire = parts.wire;
    this.#connection = parts.connection;
    this.#config = parts.config;
    this.#options = parts.options;
    this.#negotiated = parts.negotiated;
    this.#catalog = parts.catalog;
    this.onToolsChanged = (listener) => parts.changes.add(listener);
    this.#closeController = parts.closeController;
    this.#probeRestart = parts.probeRestart;
    const { extensions, config, options } = parts;
    const send = (m: string, p: Record<string, unknown>, o: WireRequestOptions) => this.#request(m, p, o);
    this.#flow = { extensions, config, options, closeSignal: parts.closeController.signal, send };
  }

  /** @internal Used by `connect()`. */
  static assemble<Outcome extends ToolCallOutcome>(parts: ClientParts): Client<Outcome> {
    return new Client<Outcome>(parts);
  }

  /** The protocol revision in use with this server. */
  get protocolVersion(): string {
    return this.#negotiated.version;
  }

  /** The server's self-reported name and version (for display and logs only). */
  get serverInfo(): Implementation | undefined {
    return this.#negotiated.serverInfo;
  }

  /** The server's capabilities as it declared them (2026: from `server/discover`, when it ran). */
  get capabilities(): Record<string, unknown> {
    return this.#negotiated.capabilities;
  }

  /**
   * The extensions the server offers (`capabilities.extensions` of `server/discover` or `initialize`), by id;
   * `{}` when none. Server data, bounded (docs/extensions.md). Offered is not turned on (`extensions` option).
   */
  get serverExtensions(): Readonly<Record<string, Readonly<Record<string, unknown>>>> {
    return readServerExtensions(this.#negotiated.capabilities);
  }

  /** The server's `instructions`: data to show or hand to a model as data — never instructions to this client. */
  get instructions(): string | undefined {
    return this.#negotiated.instructions;
  }

  /** The transport in use, for display: the `kind` of the connection. */
  get transport(): TransportKind {
    return this.#connection.kind;
  }

  /** A display name for the server (command base name or endpoint), never a secret. */
  get target(): string {
    return this.#config.target;
  }

  /** The server's process id, when the connection runs it as a local process. */
  get pid(): number | undefined {
    return this.#connection.process?.pid;
  }

  /** Lists every tool, following pagination to the end. Malformed tools are left out (see `listToolsDetailed`). */
  async listTools(options: ListToolsOptions = {}): Promise<Tool[]> {
    return (await this.listToolsDetailed(options)).tools;
  }

  /**
   * Lists every tool, with the ones left out and why (malformed, filtered by the config's `tools`, or
   * drifted from its `pin`), each listed tool's digests, the list's digest, and the 2026 cache hints.
   */
  async listToolsDetailed(options: ListToolsOptions = {}): Promise<ToolList> {
    if (options.cache) {
      const fresh = this.#catalog.fresh(Date.now());
      if (fresh) return fresh;
    }
    const { items, last } = await fetchAllPages(
      (cursor) => this.#request('tools/list', cursor === undefined ? {} : { cursor }, options),
      this.#config.target,
      options.maxPages ?? DEFAULT_MAX_PAGES,
    );
    const checked = applyToolPolicy(checkTools(items, { headerRules: this.#headerRules() }), this.#config);
    for (const item of checked.excluded)
      log('%s: tool %s left out: %s', this.#config.target, item.name, item.reason);
    return this.#catalog.store(checked, last, Date.now());
  }

  /**
   * Calls a tool and returns its result as the server sent it. `isError: true` is a result, not an
   * exception. In 2026, an `input_required` result without matching handlers is returned as data.
   * A tool the config's `tools` filter leaves out is refused (`invalid_tool`) before anything is sent; a
   * pinned tool is checked against the last list (listed first when there is none, or the server said
   * its tools changed) and refused (`tool_changed`) when it drifted or is no longer listed. A tool in
   * `tools.approve` waits for `onApprove` (else `denied`); `maxResultChars` bounds the result.
   */
  async callTool(
    name: string,
    args: Record<string, unknown> = {},
    options: CallToolOptions = {},
  ): Promise<Outcome> {
    if (typeof name !== 'string' || name === '') throw new McpError('config', 'callTool needs a tool name');
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw new McpError('config', `callTool ${name}: arguments must be an object`);
    }
    const refused = filterRefusal(this.#config, name);
    if (refused !== undefined) throw refused;
    const wanted = budgetOf(options.maxResultChars, this.#config.maxResultChars, undefined); // checked first
    const headerRules = this.#headerRules();
    // With 2026 per-message headers the x-mcp-header parameters must be mirrored, so the definition must
    // be known first: list before the first call, and again for a name the last list did not have. A
    // pinned tool needs its current definition too: the last list, unless a list_changed invalidated it.
    const pinned = pinOf(this.#config, name) !== undefined;
    // Checking the arguments needs the tool's current schema too (S25+26/server/tools `inputSchema`).
    const validate = options.validateArguments ?? this.#options.validateArguments ?? false;
    if (
      (headerRules && !this.#catalog.listed(name)) ||
      ((pinned || validate) && !this.#catalog.current()) ||
      (validate && !this.#catalog.listed(name))
    )
      await this.#listFirst(name, options);
    const approve = needsApproval(this.#config, name);
    // Annotations (for the approver) and the size hint come from the definition: a list first, best effort.
    if ((approve || wanted !== undefined) && !this.#catalog.listed(name))
      await this.#listFirst(name, options).catch((error: unknown) => {
        if (options.signal?.aborted === true || this.#closeController.signal.aborted) throw error;
      });
    const tool = this.#catalog.tool(name);
    const budget = budgetOf(wanted, undefined, tool);
    const signals = { call: options, close: this.#closeController.signal };
    if (approve) await approveCall(this.#options.onApprove, this.#config, tool ?? name, args, signals);
    let outcome: Outcome;
    try {
      outcome = await this.#callListed(name, args, options, headerRules, validate);
    } catch (error) {
      if (!headerRules || !(error instanceof RpcError) || error.code !== HEADER_MISMATCH) throw error;
      // -32020: the server refused the headers before running anything, so re-fetching the definitions and
      // sending once more with corrected headers is not a replay (S26/basic/transports/streamable-http: SHOULD).
      await this.#listFirst(name, options);
      outcome = await this.#callListed(name, args, options, headerRules, validate);
    }
    if (budget === undefined || outcome.resultType === 'input_required') return outcome;
    return (await applyBudget(outcome, budget)) as Outcome;
  }

  /**
   * The `tools/list` a call needs before it can be sent. Concurrent callers share one request in flight
   * (single flight); each caller's own signal still ends its wait at once. If the list fails, the call
   * never left: `delivery: 'not_sent'`.
   */
  async #listFirst(name: string, options: CallOptions): Promise<void> {
    // Shared, so not ended by one caller's signal (each caller's signal ends only its own wait).
    const shared: CallOptions = {};
    if (options.timeoutMs !== undefined) shared.timeoutMs = options.timeoutMs;
    if (options.maxTotalTimeoutMs !== undefined) shared.maxTotalTimeoutMs = options.maxTotalTimeoutMs;
    this.#listing ??= this.listToolsDetailed(shared).finally(() => {
      this.#listing = undefined;
    });
    try {
      await abortable(this.#listing, options.signal);
    } catch (error) {
      throw listFirstFailure(name, this.#config.target, error, options.signal?.aborted === true);
    }
  }

  async #callListed(
    name: string,
    args: Record<string, unknown>,
    options: CallToolOptions,
    headerRules: boolean,
    validate: boolean,
  ): Promise<Outcome> {
    await checkBeforeSending(this.#catalog, this.#config.target, name, args, validate);
    const toolHeaders = headerRules ? this.#catalog.headerParams(name) : undefined;
    const { validateArguments: _validate, maxResultChars: _budget, ...requestOptions } = options;
    const raw = await this.#call(
      'tools/call',
      { name, arguments: args },
      toolHeaders ? { ...requestOptions, toolHeaders } : requestOptions,
    ).catch(async (error: unknown) => {
      // An unknown name (-32602) is said with the names the server has (a tools/list if none is current).
      throw await unknownToolError(
        error,
        name,
        this.#config.target,
        async () =>
          this.#catalog.names() ??
          (await this.listToolsDetailed(listOptions(options))).tools.map((t) => t.name),
      );
    });
    // The check that makes `Outcome` true: a 2025 connection never hands back `input_required`.
    return checkCallResult(
      raw,
      this.#negotiated.era,
      `tools/call ${name} on ${this.#config.target}`,
    ) as Outcome;
  }

  /** Sends any request (resources, prompts, custom methods) and returns its raw `result`. */
  request(
    method: string,
    params?: Record<string, unknown>,
    options: CallOptions = {},
  ): Promise<Record<string, unknown>> {
    if (typeof method !== 'string' || method === '')
      return Promise.reject(new McpError('config', 'request needs a method name'));
    if (method === 'initialize' || method === 'server/discover') {
      return Promise.reject(
        new McpError('config', `${method} is managed by the client; use connect() or discover()`),
      );
    }
    return this.#call(method, params ?? {}, options);
  }

  /**
   * What the server says about itself: 2026 `server/discover` (cached for its `ttlMs`), or for a 2025
   * server the same facts from `initialize`.
   */
  async discover(options: CallOptions = {}): Promise<DiscoverResult> {
    const negotiated = this.#negotiated;
    if (negotiated.era === 'legacy') {
      return (
        negotiated.discover ?? {
          supportedVersions: [negotiated.version],
          capabilities: negotiated.capabilities,
          source: 'initialize',
        }
      );
    }
    const cached = this.#discoverCache;
    if (cached && Date.now() < cached.receivedAt + Math.max(0, cached.result.ttlMs ?? 0))
      return cached.result;
    const { discover, stance } = await this.#pinned('server/discover', () =>
      discoverModern(this.#wire, negotiated, this.#config.target, options),
    );
    this.#discoverCache = { result: discover, receivedAt: Date.now() };
    this.#negotiated = revise(this.#negotiated, {
      version: stance.version ?? negotiated.version,
      capabilities: discover.capabilities,
      instructions: discover.instructions,
      discover,
      ...(discover.serverInfo ? { serverInfo: discover.serverInfo } : {}),
    });
    return discover;
  }

  /**
   * Closes the connection and, for a local server process, its whole process tree. Idempotent and safe to call
   * concurrently; pending calls are rejected with `kind: 'closed'`.
   */
  close(): Promise<CloseReport> {
    this.#closeController.abort();
    const first = this.#probeRestart;
    const closing = this.#engine.close();
    return first === undefined ? closing : closing.then((report) => ({ ...report, probeRestart: first }));
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** A 2026 request; until a pinned server answered one, a 2025 server's refusal says so (`modernPinRefused`). */
  async #pinned<T>(method: string, send: () => Promise<T>): Promise<T> {
    if (this.#modernAnswered || this.#config.protocolVersion !== MODERN_VERSION) return send();
    try {
      const value = await send();
      this.#modernAnswered = true;
      return value;
    } catch (error) {
      throw (
        modernPinRefused(error, this.#config.target, method, this.#closeController.signal.aborted) ?? error
      );
    }
  }

  /** 2026 over a transport with per-message headers: the `x-mcp-header` rules apply (S26/server/tools). */
  #headerRules(): boolean {
    return this.#negotiated.era === 'modern' && this.#connection.traits.perMessageHeaders;
  }

  /** A request, through MRTR where it applies, and followed by the extension that claims its result. */
  #call(method: string, params: Record<string, unknown>, options: WireRequestOptions) {
    return callThrough(this.#flow, this.#negotiated.era, { method, params, options });
  }

  /** One request on the negotiated terms; a 2026 version change or a new server identity replaces it. */
  async #request(
    method: string,
    params: Record<string, unknown>,
    options: WireRequestOptions,
  ): Promise<Record<string, unknown>> {
    const negotiated = this.#negotiated;
    if (negotiated.era === 'legacy') return this.#wire.request(negotiated, method, params, options);
    const { value, stance } = await this.#pinned(method, () =>
      withVersionRetry(negotiated, this.#config.target, (s) =>
        this.#wire.request(s, method, params, options),
      ),
    );
    const info = (value['_meta'] as Record<string, unknown> | undefined)?.[META_SERVER_INFO];
    const changedInfo = isImplementation(info) && !sameImplementation(info, this.#negotiated.serverInfo);
    if (changedInfo || stance.version !== this.#negotiated.version) {
      this.#negotiated = revise(this.#negotiated, {
        ...(stance.version !== undefined ? { version: stance.version } : {}),
        ...(changedInfo ? { serverInfo: info } : {}),
      });
    }
    return value;
  }
}
