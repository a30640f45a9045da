/**
 * Sends requests in the era the server speaks. Legacy (2025-11-25): plain params, and on HTTP the
 * negotiated `MCP-Protocol-Version` after initialization. Modern (2026-07-28): every request carries its
 * version, capabilities and client info in `_meta`, mirrored into headers on HTTP, and every result
 * carries a `resultType`. Spec: S26/basic/index, S26/basic/versioning, S26/basic/transports/streamable-http.
 */
import { McpError, RpcError, UnsupportedProtocolVersionError } from '../errors/index.js';
import { UNSUPPORTED_PROTOCOL_VERSION } from '../protocol/jsonrpc.js';
import { legacyRequestHeaders, modernRequestHeaders } from '../protocol/request-headers.js';
import type { HeaderParam } from '../protocol/tool-headers.js';
import {
  type Era,
  META_CLIENT_CAPABILITIES,
  META_CLIENT_INFO,
  META_PROTOCOL_VERSION,
  META_SERVER_INFO,
  MODERN_SUPPORTED,
} from '../protocol/versions.js';
import type { NormalizedConfig } from './config.js';
import type { CallOptions, Engine } from './engine.js';
import type { Implementation } from './types.js';

export interface WireRequestOptions extends CallOptions {
  /** `x-mcp-header` parameters of the tool being called (HTTP, 2026). */
  toolHeaders?: readonly HeaderParam[];
  noCancelNotification?: boolean;
}

/** Methods that may answer `input_required` (S26/basic/patterns/mrtr). */
export const MRTR_METHODS: ReadonlySet<string> = new Set(['tools/call', 'resources/read', 'prompts/get']);

export class Wire {
  era: Era = 'legacy';
  version = '2025-11-25';
  /** Legacy: set once `initialize` succeeded, so the version header goes on later HTTP requests. */
  initialized = false;
  serverInfo: Implementation | undefined;
  readonly #engine: Engine;
  readonly #config: NormalizedConfig;
  readonly #capabilities: Record<string, unknown>;

  constructor(engine: Engine, config: NormalizedConfig, capabilities: Record<string, unknown>) {
    this.#engine = engine;
    this.#config = config;
    this.#capabilities = capabilities;
  }

  get capabilities(): Record<string, unknown> {
    return this.#capabilities;
  }

  /** Sends one request in the current era and checks the result's shape. */
  async request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: WireRequestOptions = {},
  ): Promise<Record<string, unknown>> {
    if (this.era === 'legacy') return this.#legacy(method, params, options);
    return this.#modern(method, params, options, false);
  }

  /** Sends a notification in the current era. */
  notify(method: string, params?: Record<string, unknown>): Promise<void> {
    return this.#engine.notify(method, params, this.notificationHeaders());
  }

  /** Headers of a notification: over HTTP after a 2025 handshake, the negotiated version. */
  notificationHeaders(): Record<string, string> | undefined {
    return this.#isHttp() && this.era === 'legacy' && this.initialized
      ? legacyRequestHeaders(this.version)
      : undefined;
  }

  #isHttp(): boolean {
    return this.#config.transport === 'http';
  }

  #legacy(method: string, params: Record<string, unknown> | undefined, options: WireRequestOptions) {
    const http = this.#isHttp();
    const headers = http && this.initialized ? legacyRequestHeaders(this.version) : undefined;
    return this.#engine.request(method, params, {
      ...options,
      ...(headers ? { headers } : {}),
      // A broken 2025 response stream is resumed with GET + Last-Event-ID, never re-sent (S25/basic/transports).
      resumable: http,
    });
  }

  /** The `_meta` every 2026 request carries (S26/basic/index). */
  modernMeta(extra?: unknown): Record<string, unknown> {
    return {
      ...(typeof extra === 'object' && extra !== null ? (extra as Record<string, unknown>) : {}),
      [META_PROTOCOL_VERSION]: this.version,
      [META_CLIENT_CAPABILITIES]: this.#capabilities,
      [META_CLIENT_INFO]: this.#config.clientInfo,
    };
  }

  async #modern(
    method: string,
    params: Record<string, unknown> | undefined,
    options: WireRequestOptions,
    retried: boolean,
  ): Promise<Record<string, unknown>> {
    const full = { ...params, _meta: this.modernMeta(params?.['_meta']) };
    let headers: Record<string, string> | undefined;
    if (this.#isHttp()) {
      headers = modernRequestHeaders(
        { jsonrpc: '2.0', id: 0, method, params: full },
        this.version,
        options.toolHeaders,
      );
    }
    let result: Record<string, unknown>;
    try {
      result = await this.#engine.request(method, full, { ...options, ...(headers ? { headers } : {}) });
    } catch (error) {
      if (retried || !(error instanceof RpcError) || error.code !== UNSUPPORTED_PROTOCOL_VERSION) throw error;
      // -32022: the server refused the version before processing anything, so sending again with a version
      // both sides support is not a replay (S26/basic/versioning). One retry per request, no more.
      this.version = this.chooseVersion(error);
      return this.#modern(method, params, options, true);
    }
    this.#checkResultType(method, result);
    this.#noteServerInfo(result);
    return result;
  }

  /** Picks a modern version in both our list and the server's `supported`, or throws. */
  chooseVersion(error: RpcError): string {
    const data = error.data as { supported?: unknown } | undefined;
    const supported = Array.isArray(data?.supported)
      ? data.supported.filter((v) => typeof v === 'string')
      : [];
    const common = MODERN_SUPPORTED.find((v) => supported.includes(v));
    if (!common)
      throw new UnsupportedProtocolVersionError(this.#config.target, this.version, supported, {
        cause: error,
      });
    return common;
  }

  #checkResultType(method: string, result: Record<string, unknown>): void {
    const type = result['resultType'];
    // A missing resultType is "complete" (S26/basic/index); anything unrecognised is invalid.
    if (type === undefined || type === 'complete') return;
    if (type === 'input_required' && MRTR_METHODS.has(method)) return;
    throw new McpError(
      'protocol',
      `${method} on ${this.#config.target}: the server answered with resultType ${JSON.stringify(type).slice(0, 40)}, which ${method} may not use`,
      { delivery: 'delivered' },
    );
  }

  #noteServerInfo(result: Record<string, unknown>): void {
    const info = (result['_meta'] as Record<string, unknown> | undefined)?.[META_SERVER_INFO];
    if (isImplementation(info)) this.serverInfo = info;
  }
}

export function isImplementation(value: unknown): value is Implementation {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Implementation).name === 'string' &&
    typeof (value as Implementation).version === 'string'
  );
}
