/**
 * `session()`: a server handle that connects only when first used. The first call resolves the config
 * (a default config, or a trusted local resolver function), merges a local override saved in
 * `autos-mcp/settings` under `configName` over it, and connects; later calls reuse that connection;
 * `close()` ends it. A failed connect leaves nothing behind and the next call tries again; a connection
 * that broke is not reconnected behind your back.
 */
import type { CallOptions, CallToolOptions, ListToolsOptions } from '../client/call-options.js';
import type { Client, CloseReport } from '../client/client.js';
import type { McpClient } from '../client/mcp-client.js';
import type { ConnectOptions } from '../client/options.js';
import type {
  GetPromptResult,
  ListOptions,
  PromptList,
  ReadResourceResult,
  ResourceList,
  ResourceTemplateList,
} from '../client/resource-types.js';
import type { ReadSkillOptions } from '../client/skills.js';
import type { ToolsChangedEvent, ToolsChangedListener } from '../client/tool-changes.js';
import type { CallToolResult, LegacyVersion, Tool, ToolCallOutcome, ToolList } from '../client/types.js';
import { mergeConfig, type ServerConfig } from '../config/index.js';
import { debugLog } from '../diagnostics/publish.js';
import { McpError } from '../errors/index.js';
import type { ReadSkillResult, Skill, SkillList } from '../extensions/skills/index.js';
import type { Settings } from '../settings/settings.js';

/** A trusted local function that says which server to use (discovery, a later authorization…). */
export type ConfigResolver = (options: {
  readonly configName: string | undefined;
}) => ServerConfig | Promise<ServerConfig>;

export interface SessionOptions extends ConnectOptions {
  /** Where `configName` overrides are read (default: `openSettings()`, the OS credential store). */
  readonly settings?: Settings;
}

/**
 * A lazy handle on one server. `Outcome` is what `callTool` resolves to: `CallToolResult` when the config
 * can only mean 2025-11-25 and no local override can change it, else `ToolCallOutcome`.
 */
export class Session<Outcome extends ToolCallOutcome = ToolCallOutcome> implements McpClient<Outcome> {
  readonly #source: ServerConfig | ConfigResolver;
  readonly #configName: string | undefined;
  readonly #options: SessionOptions;
  #client: Promise<Client<Outcome>> | undefined;
  #closed = false;
  /** `onToolsChanged` listeners, kept across connections; the open client tells them through `#tell`. */
  readonly #listeners = new Set<ToolsChangedListener>();
  /** The client once connected, and what removes `#tell` from it while it listens. */
  #connected: Client<Outcome> | undefined;
  #unlisten: (() => void) | undefined;
  readonly #tell = (event: ToolsChangedEvent): void => {
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch (error) {
        debugLog('a tool change listener threw: %o', error); // the others are still told
      }
    }
  };

  /** @internal Use `session()`. */
  constructor(
    source: ServerConfig | ConfigResolver,
    configName: string | undefined,
    options: SessionOptions,
  ) {
    this.#source = source;
    this.#configName = configName;
    this.#options = options;
  }

  /** True once a connection is open (or being opened). */
  get started(): boolean {
    return this.#client !== undefined;
  }

  /** The connected client, connecting on first use. */
  client(): Promise<Client<Outcome>> {
    if (this.#closed) return Promise.reject(new McpError('closed', 'this session was closed'));
    if (this.#client === undefined) {
      const opening = this.#connect();
      this.#client = opening;
      opening.then((client) => {
        if (this.#client !== opening) return;
        this.#connected = client;
        this.#follow();
      }, noop);
      opening.catch(() => {
        if (this.#client === opening) this.#client = undefined; // nothing was left open: try again next call
      });
    }
    return this.#client;
  }

  /**
   * Calls `listener` when the server's tools change (see `Client.onToolsChanged`). It does not connect:
   * events come once the session is connected. Returns the function that removes the listener.
   */
  onToolsChanged(listener: ToolsChangedListener): () => void {
    const own = (event: ToolsChangedEvent) => listener(event);
    this.#listeners.add(own);
    this.#follow();
    return () => {
      this.#listeners.delete(own);
      this.#follow();
    };
  }

  /** Has the connected client tell the listeners while there are any (in 2026 that holds its subscription open). */
  #follow(): void {
    if (this.#listeners.size > 0 && this.#connected !== undefined && this.#unlisten === undefined)
      this.#unlisten = this.#connected.onToolsChanged(this.#tell);
    else if (this.#listeners.size === 0 && this.#unlisten !== undefined) {
      this.#unlisten();
      this.#unlisten = undefined;
    }
  }

  async listTools(options?: ListToolsOptions): Promise<Tool[]> {
    return (await this.client()).listTools(options);
  }

  async listToolsDetailed(options?: ListToolsOptions): Promise<ToolList> {
    return (await this.client()).listToolsDetailed(options);
  }

  async callTool(name: string, args?: Record<string, unknown>, options?: CallToolOptions): Promise<Outcome> {
    return (await this.client()).callTool(name, args, options);
  }

  async request(
    method: string,
    params?: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<Record<string, unknown>> {
    return (await this.client()).request(method, params, options);
  }

  async listResources(options?: ListOptions): Promise<ResourceList> {
    return (await this.client()).listResources(options);
  }

  async listResourceTemplates(options?: ListOptions): Promise<ResourceTemplateList> {
    return (await this.client()).listResourceTemplates(options);
  }

  async readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult> {
    return (await this.client()).readResource(uri, options);
  }

  async listPrompts(options?: ListOptions): Promise<PromptList> {
    return (await this.client()).listPrompts(options);
  }

  async getPrompt(
    name: string,
    args?: Record<string, string>,
    options?: CallOptions,
  ): Promise<GetPromptResult> {
    return (await this.client()).getPrompt(name, args, options);
  }

  /** Every skill the server offers (see `Client.listSkills`, docs/skills.md). */
  async listSkills(options?: ListOptions): Promise<SkillList> {
    return (await this.client()).listSkills(options);
  }

  /** One skill's files, verified against its manifest, written whole to `options.dir` (see `Client.readSkill`). */
  async readSkill(skill: Skill | string, options: ReadSkillOptions): Promise<ReadSkillResult> {
    return (await this.client()).readSkill(skill, options);
  }

  /** Ends the connection, if one was opened; the session cannot be used afterwards. */
  async close(): Promise<CloseReport | undefined> {
    this.#closed = true;
    const pending = this.#client;
    this.#client = undefined;
    this.#connected = undefined;
    this.#unlisten = undefined;
    if (pending === undefined) return undefined;
    const client = await pending.catch(() => undefined);
    return client?.close();
  }

  async #connect(): Promise<Client<Outcome>> {
    const base =
      typeof this.#source === 'function'
        ? await this.#source({ configName: this.#configName })
        : this.#source;
    let config = base;
    if (this.#configName !== undefined) {
      const settings = this.#options.settings ?? (await import('../settings/settings.js')).openSettings();
      const override = await settings.load(this.#configName, true);
      if (override !== null) config = mergeConfig(base, override);
    }
    const { connect } = await import('../client/api.js');
    const { settings: _settings, ...connectOptions } = this.#options;
    // `session()`'s overloads give a narrow `Outcome` only for a config that can only mean 2025-11-25.
    return connect(config, {
      ...connectOptions,
      ...(this.#options.settings ? { settings: this.#options.settings } : {}),
    }) as Promise<Client<Outcome>>;
  }
}

/**
 * A lazy server handle: nothing happens until the first call. `source` is a default config or a resolver;
 * `configName` names a local override in `autos-mcp/settings` (missing: the default is used; corrupt: an error).
 */
export function session(
  source: ServerConfig & LegacyVersion,
  configName?: undefined,
  options?: SessionOptions,
): Session<CallToolResult>;
/** `session()` whose server may speak 2026-07-28 (its config, a resolver, or an override): results may be `input_required`. */
export function session(
  source: ServerConfig | ConfigResolver,
  configName?: string,
  options?: SessionOptions,
): Session;
export function session(
  source: ServerConfig | ConfigResolver,
  configName?: string,
  options: SessionOptions = {},
): Session {
  if (typeof source !== 'function' && (typeof source !== 'object' || source === null))
    throw new McpError('config', 'session() needs a server config or a resolver function');
  return new Session(source, configName, options);
}

function noop(): void {}
