/**
 * Sends requests in the era the server speaks; it keeps no negotiated state of its own — each call says
 * which era and version to use (a `Stance`). Legacy (2025-11-25): plain params, and on a transport with
 * per-message headers the negotiated `MCP-Protocol-Version` after initialization. Modern (2026-07-28):
 * every request carries its version, capabilities and client info in `_meta`, mirrored into headers where
 * the transport carries them, and every result carries a `resultType`.
 * Spec: S26/basic/index, S26/basic/versioning, S26/basic/transports/streamable-http.
 */
import type { ClientInfo } from '../config/index.js';
import { McpError, RpcError, UnsupportedProtocolVersionError } from '../errors/index.js';
import { UNSUPPORTED_PROTOCOL_VERSION } from '../protocol/jsonrpc.js';
import { legacyRequestHeaders, modernRequestHeaders } from '../protocol/request-headers.js';
import type { HeaderParam } from '../protocol/tool-headers.js';
import {
  carriesVersionHeader,
  type Era,
  META_CLIENT_CAPABILITIES,
  META_CLIENT_INFO,
  META_PROTOCOL_VERSION,
  MODERN_SUPPORTED,
  MODERN_VERSION,
} from '../protocol/versions.js';
import { type RequestTrace, traceRequest } from '../telemetry/index.js';
import type { ConnectionTraits } from '../transport/connection.js';
import type { CallOptions } from './call-options.js';
import type { Engine } from './engine.js';
import type { Implementation } from './types.js';

/** How to send: the era, and the version (`undefined` in the legacy era until `initialize` answered). */
export interface Stance {
  readonly era: Era;
  readonly version: string | undefined;
}

export interface WireRequestOptions extends CallOptions {
  /** `x-mcp-header` parameters of the tool being called (2026, transports with per-message headers). */
  toolHeaders?: readonly HeaderParam[] | undefined;
  noCancelNotification?: boolean;
  /** `Mcp-Name` of a method the core does not name (an extension's, e.g. the task id of `tasks/get`). */
  routeName?: string | undefined;
  /** Hears the request's JSON-RPC id before it is sent. */
  onId?: ((id: number) => void) | undefined;
}

/** True when a turned-on extension takes results of `method` with this `resultType`. */
export type ResultClaims = (method: string, resultType: unknown) => boolean;

/** Methods that may answer `input_required` (S26/basic/patterns/mrtr). */
export const MRTR_METHODS: ReadonlySet<string> = new Set(['tools/call', 'resources/read', 'prompts/get']);

export class Wire {
  readonly #engine: Engine;
  readonly #traits: ConnectionTraits;
  readonly #clientInfo: ClientInfo;
  readonly #capabilities: Record<string, unknown>;
  readonly #target: string;
  readonly #claims: ResultClaims;
  /** The legacy version header of the last version used: computed once, not per request. */
  #legacyHeaders: { version: string; headers: Record<string, string> } | undefined;
  #meta: { version: string; meta: Readonly<Record<string, unknown>> } | undefined;

  constructor(
    engine: Engine,
    traits: ConnectionTraits,
    settings: {
      clientInfo: ClientInfo;
      capabilities: Record<string, unknown>;
      target: string;
      claims?: ResultClaims;
    },
  ) {
    this.#engine = engine;
    this.#traits = traits;
    this.#clientInfo = settings.clientInfo;
    this.#capabilities = settings.capabilities;
    this.#target = settings.target;
    this.#claims = settings.claims ?? (() => false);
  }

  /** The client capabilities this client declares (from the handlers it was given). */
  get capabilities(): Record<string, unknown> {
    return this.#capabilities;
  }

  /** Sends one request in `stance` and checks the result's shape. */
  request(
    stance: Stance,
    method: string,
    params: Record<string, unknown> | undefined,
    options: WireRequestOptions = {},
  ): Promise<Record<string, unknown>> {
    // Trace context (SEP-414): nothing is loaded or added unless OpenTelemetry is set up (telemetry/).
    const trace = traceRequest({
      method,
      target: this.#target,
      protocolVersion: stance.version,
      name: method === 'tools/call' || method === 'prompts/get' ? nameOf(params) : undefined,
    });
    if (trace === undefined) return this.#send(stance, method, params, options);
    return trace.then((t) =>
      t === undefined
        ? this.#send(stance, method, params, options)
        : this.#traced(t, stance, method, params, options),
    );
  }

  async #traced(
    trace: RequestTrace,
    stance: Stance,
    method: string,
    params: Record<string, unknown> | undefined,
    options: WireRequestOptions,
  ): Promise<Record<string, unknown>> {
    // In 2025 the keys go in `params._meta`; in 2026 beside the version keys. A caller's own keys win.
    const own = params?.['_meta'];
    const meta = typeof own === 'object' && own !== null ? { ...trace.meta, ...own } : trace.meta;
    try {
      const result = await trace.run(() => this.#send(stance, method, { ...params, _meta: meta }, options));
      trace.succeeded(result);
      return result;
    } catch (error) {
      trace.failed(error);
      throw error;
    }
  }

  #send(
    stance: Stance,
    method: string,
    params: Record<string, unknown> | undefined,
    options: WireRequestOptions,
  ): Promise<Record<string, unknown>> {
    if (stance.era === 'legacy') {
      return this.#engine.request(method, params, {
        ...options,
        headers: this.#legacyHeadersFor(stance.version),
        // A broken 2025 response stream is resumed, never re-sent (S25/basic/transports).
        resumable: this.#traits.resumable,
      });
    }
    return this.#modern(stance, method, params, options);
  }

  /** Sends a notification in `stance`. */
  notify(stance: Stance, method: string, params?: Record<string, unknown>): Promise<void> {
    return this.#engine.notify(
      method,
      params,
      stance.era === 'legacy' ? this.#legacyHeadersFor(stance.version) : undefined,
    );
  }

  /** The `_meta` every 2026 request carries (S26/basic/index). */
  modernMeta(version: string, extra?: unknown): Record<string, unknown> {
    if (typeof extra !== 'object' || extra === null) {
      // The usual case: no `_meta` of the caller's. One frozen object per version, shared by every message.
      if (this.#meta?.version !== version)
        this.#meta = { version, meta: Object.freeze(this.#buildMeta(version, {})) };
      return this.#meta.meta;
    }
    return this.#buildMeta(version, extra as Record<string, unknown>);
  }

  #buildMeta(version: string, extra: Record<string, unknown>): Record<string, unknown> {
    return {
      ...extra,
      [META_PROTOCOL_VERSION]: version,
      [META_CLIENT_CAPABILITIES]: this.#capabilities,
      [META_CLIENT_INFO]: this.#clientInfo,
    };
  }

  #legacyHeadersFor(version: string | undefined): Record<string, string> | undefined {
    if (!this.#traits.perMessageHeaders || version === undefined || !carriesVersionHeader(version))
      return undefined;
    if (this.#legacyHeaders?.version !== version) {
      this.#legacyHeaders = { version, headers: legacyRequestHeaders(version) };
    }
    return this.#legacyHeaders.headers;
  }

  async #modern(
    stance: Stance,
    method: string,
    params: Record<string, unknown> | undefined,
    options: WireRequestOptions,
  ): Promise<Record<string, unknown>> {
    const version = stance.version ?? MODERN_VERSION;
    const full = { ...params, _meta: this.modernMeta(version, params?.['_meta']) };
    const headers = this.#traits.perMessageHeaders
      ? modernRequestHeaders(
          { jsonrpc: '2.0', id: 0, method, params: full },
          version,
          options.toolHeaders,
          options.routeName,
        )
      : undefined;
    const result = await this.#engine.request(method, full, { ...options, headers });
    checkResultType(method, result, this.#target, this.#claims);
    return result;
  }
}

/**
 * Runs `send` in `stance`; when a 2026 server refuses the version with -32022 (before processing anything,
 * so sending again is not a replay: S26/basic/versioning), sends once more in a version both support.
 * Resolves with the value and the stance that got it; throws `unsupported_version` when none is common.
 */
export async function withVersionRetry<T>(
  stance: Stance,
  target: string,
  send: (stance: Stance) => Promise<T>,
): Promise<{ value: T; stance: Stance }> {
  try {
    return { value: await send(stance), stance };
  } catch (error) {
    if (
      stance.era !== 'modern' ||
      !(error instanceof RpcError) ||
      error.code !== UNSUPPORTED_PROTOCOL_VERSION
    )
      throw error;
    const next = { era: 'modern' as const, version: chooseVersion(error, stance.version ?? '', target) };
    return { value: await send(next), stance: next };
  }
}

/** Picks a modern version in both our list and the server's `supported`, or throws. */
function chooseVersion(error: RpcError, requested: string, target: string): string {
  const data = error.data as { supported?: unknown } | undefined;
  const supported = Array.isArray(data?.supported) ? data.supported.filter((v) => typeof v === 'string') : [];
  const common = MODERN_SUPPORTED.find((v) => supported.includes(v));
  if (!common) throw new UnsupportedProtocolVersionError(target, requested, supported, { cause: error });
  return common;
}

function checkResultType(
  method: string,
  result: Record<string, unknown>,
  target: string,
  claims: ResultClaims,
): void {
  const type = result['resultType'];
  // A missing resultType is "complete" (S26/basic/index); anything unrecognised is invalid — but for the
  // values of extensions this client advertised (S26/basic/index: "core values plus those of extensions").
  if (type === undefined || type === 'complete') return;
  if (type === 'input_required' && MRTR_METHODS.has(method)) return;
  if (claims(method, type)) return;
  throw new McpError(
    'protocol',
    `${method} on ${target}: the server answered with resultType ${JSON.stringify(type).slice(0, 40)}, which ${method} may not use`,
    { delivery: 'delivered' },
  );
}

function nameOf(params: Record<string, unknown> | undefined): string | undefined {
  const name = params?.['name'];
  return typeof name === 'string' ? name : undefined;
}

export function isImplementation(value: unknown): value is Implementation {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Implementation).name === 'string' &&
    typeof (value as Implementation).version === 'string'
  );
}

/** True when `b` is the same implementation as `a` (name, version and title). */
export function sameImplementation(a: Implementation, b: Implementation | undefined): boolean {
  return b !== undefined && a.name === b.name && a.version === b.version && a.title === b.title;
}
