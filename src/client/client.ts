/**
 * `Client`: one connection to one MCP server, ready to use. It lists and calls tools, sends raw requests,
 * and closes everything it started. Server-provided text (descriptions, instructions, logs) is kept as
 * data and never acted on.
 */
import { debuglog } from 'node:util';
import { McpError, RpcError } from '../errors/index.js';
import { redact } from '../internal/redact.js';
import { HEADER_MISMATCH, type JsonRpcNotification } from '../protocol/jsonrpc.js';
import type { HeaderParam } from '../protocol/tool-headers.js';
import type { CloseOptions, CloseReport } from '../transport/connection.js';
import type { NormalizedConfig } from './config.js';
import type { CallOptions, Engine } from './engine.js';
import { discoverModern, type ServerFacts } from './lifecycle.js';
import { runWithInput } from './mrtr.js';
import type { ConnectOptions } from './options.js';
import { checkTools, DEFAULT_MAX_PAGES, fetchAllPages, isFresh } from './tools.js';
import type { DiscoverResult, Implementation, Tool, ToolCallOutcome, ToolList } from './types.js';
import { MRTR_METHODS, type Wire } from './wire.js';

const log = debuglog('autos-mcp');

export interface ListToolsOptions extends CallOptions {
  /** Answer from the cached list while it is fresh per the server's `ttlMs` (2026). Default false. */
  cache?: boolean;
  /** Most pages to follow. Default 100. */
  maxPages?: number;
}

export class Client {
  readonly #engine: Engine;
  readonly #wire: Wire;
  readonly #config: NormalizedConfig;
  readonly #options: ConnectOptions;
  readonly #closeController: AbortController;
  #facts: ServerFacts;
  #toolCache: { list: ToolList; receivedAt: number } | undefined;
  #headerParams = new Map<string, HeaderParam[]>();
  #excluded = new Map<string, string>();
  /** Usable tool names of the last list; `undefined` before any list. */
  #known: Set<string> | undefined;
  #discoverCache: { result: DiscoverResult; receivedAt: number } | undefined;

  /** @internal Use `connect()`. */
  constructor(
    engine: Engine,
    wire: Wire,
    config: NormalizedConfig,
    options: ConnectOptions,
    facts: ServerFacts,
    closeController: AbortController,
  ) {
    this.#closeController = closeController;
    this.#engine = engine;
    this.#wire = wire;
    this.#config = config;
    this.#options = options;
    this.#facts = facts;
  }

  /** The protocol revision in use with this server. */
  get protocolVersion(): string {
    return this.#wire.version;
  }

  /** The server's self-reported name and version (for display and logs only). */
  get serverInfo(): Implementation | undefined {
    return this.#wire.serverInfo;
  }

  /** The server's capabilities as it declared them (2026: from `server/discover`, when it ran). */
  get capabilities(): Record<string, unknown> {
    return this.#facts.capabilities;
  }

  /** The server's `instructions`: data to show or hand to a model as data — never instructions to this client. */
  get instructions(): string | undefined {
    return this.#facts.instructions;
  }

  get transport(): 'stdio' | 'http' {
    return this.#config.transport;
  }

  /** A display name for the server (command base name or endpoint), never a secret. */
  get target(): string {
    return this.#config.target;
  }

  /** The server process id (stdio). */
  get pid(): number | undefined {
    return this.#engine.connection.pid;
  }

  /** Lists every tool, following pagination to the end. Malformed tools are left out (see `listToolsDetailed`). */
  async listTools(options: ListToolsOptions = {}): Promise<Tool[]> {
    return (await this.listToolsDetailed(options)).tools;
  }

  /** Lists every tool, with the ones left out and why, and the 2026 cache hints. */
  async listToolsDetailed(options: ListToolsOptions = {}): Promise<ToolList> {
    if (
      options.cache &&
      this.#toolCache &&
      isFresh(this.#toolCache.list, this.#toolCache.receivedAt, Date.now())
    ) {
      return { ...this.#toolCache.list, fromCache: true };
    }
    const { items, last } = await fetchAllPages(
      (cursor) => this.#wire.request('tools/list', cursor === undefined ? {} : { cursor }, options),
      this.#config.target,
      options.maxPages ?? DEFAULT_MAX_PAGES,
    );
    const checked = checkTools(items, {
      headerRules: this.#wire.era === 'modern' && this.#config.transport === 'http',
    });
    for (const item of checked.excluded)
      log('%s: tool %s left out: %s', this.#config.target, item.name, item.reason);
    this.#headerParams = checked.headerParams;
    this.#excluded = new Map(checked.excluded.map((e) => [e.name, e.reason]));
    this.#known = new Set(checked.tools.map((t) => t.name));
    const list: ToolList = { tools: checked.tools, excluded: checked.excluded, fromCache: false };
    if (typeof last['ttlMs'] === 'number') list.ttlMs = last['ttlMs'];
    if (last['cacheScope'] === 'public' || last['cacheScope'] === 'private')
      list.cacheScope = last['cacheScope'];
    this.#toolCache = { list, receivedAt: Date.now() };
    return list;
  }

  /**
   * Calls a tool and returns its result as the server sent it. `isError: true` is a result, not an
   * exception. In 2026, an `input_required` result without matching handlers is returned as data.
   */
  async callTool(
    name: string,
    args: Record<string, unknown> = {},
    options: CallOptions = {},
  ): Promise<ToolCallOutcome> {
    if (typeof name !== 'string' || name === '') throw new McpError('config', 'callTool needs a tool name');
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw new McpError('config', `callTool ${name}: arguments must be an object`);
    }
    const headerRules = this.#wire.era === 'modern' && this.#config.transport === 'http';
    // Over HTTP in 2026 the x-mcp-header parameters must be mirrored, so the definition must be known
    // first: list before the first call, and again for a name the last list did not have.
    if (headerRules && !this.#known?.has(name) && !this.#excluded.has(name))
      await this.listToolsDetailed(options);
    try {
      return await this.#callListed(name, args, options, headerRules);
    } catch (error) {
      if (!headerRules || !(error instanceof RpcError) || error.code !== HEADER_MISMATCH) throw error;
      // -32020: the server refused the headers before running anything, so re-fetching the definitions and
      // sending once more with corrected headers is not a replay (S26/basic/transports/streamable-http: SHOULD).
      await this.listToolsDetailed(options);
      return this.#callListed(name, args, options, headerRules);
    }
  }

  async #callListed(
    name: string,
    args: Record<string, unknown>,
    options: CallOptions,
    headerRules: boolean,
  ): Promise<ToolCallOutcome> {
    const excludedReason = this.#excluded.get(name);
    if (excludedReason !== undefined) {
      throw new McpError(
        'invalid_tool',
        `tool ${name} on ${this.#config.target} was not called: ${excludedReason}`,
      );
    }
    const toolHeaders = headerRules ? this.#headerParams.get(name) : undefined;
    return (await this.#call(
      'tools/call',
      { name, arguments: args },
      { ...options, ...(toolHeaders ? { toolHeaders } : {}) },
    )) as ToolCallOutcome;
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
    if (this.#wire.era === 'legacy') {
      return (
        this.#facts.discover ?? {
          supportedVersions: [this.#wire.version],
          capabilities: this.capabilities,
          source: 'initialize',
        }
      );
    }
    const cached = this.#discoverCache;
    if (cached && Date.now() < cached.receivedAt + Math.max(0, cached.result.ttlMs ?? 0))
      return cached.result;
    const result = await discoverModern(this.#wire, options);
    this.#discoverCache = { result, receivedAt: Date.now() };
    this.#facts = { capabilities: result.capabilities, instructions: result.instructions, discover: result };
    return result;
  }

  /**
   * Closes the connection and, for stdio, the server's whole process tree. Idempotent and safe to call
   * concurrently; pending calls are rejected with `kind: 'closed'`.
   */
  close(options?: CloseOptions): Promise<CloseReport> {
    this.#closeController.abort();
    return this.#engine.close(options);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #call(
    method: string,
    params: Record<string, unknown>,
    options: CallOptions & { toolHeaders?: readonly HeaderParam[] },
  ) {
    if (this.#wire.era === 'legacy' || !MRTR_METHODS.has(method))
      return this.#wire.request(method, params, options);
    const signal = options.signal
      ? AbortSignal.any([options.signal, this.#closeController.signal])
      : this.#closeController.signal;
    return runWithInput({
      method,
      params,
      target: this.#config.target,
      options: this.#options,
      signal,
      send: (round) => this.#wire.request(method, round, options),
    });
  }

  /** Routes a server notification: logs to the hook, list changes to the cache. */
  static onNotification(
    client: () => Client | undefined,
    options: ConnectOptions,
    message: JsonRpcNotification,
  ): void {
    if (message.method === 'notifications/tools/list_changed') {
      const current = client();
      if (current) current.#toolCache = undefined;
      return;
    }
    if (message.method === 'notifications/message' && options.onLog) {
      const params = message.params ?? {};
      const data = typeof params['data'] === 'string' ? params['data'] : describeLogData(params['data']);
      options.onLog({
        level: typeof params['level'] === 'string' ? params['level'] : 'info',
        ...(typeof params['logger'] === 'string' ? { logger: params['logger'].slice(0, 200) } : {}),
        data: redact(data ?? '').slice(0, 4096),
      });
    }
  }
}

/** Log data as text; data too deeply nested to serialise is named, not lost silently. */
function describeLogData(data: unknown): string {
  try {
    return JSON.stringify(data ?? null);
  } catch {
    return '[log data could not be serialised]';
  }
}
