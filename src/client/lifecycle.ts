/**
 * Getting ready to talk: the 2025-11-25 `initialize` handshake, and `auto` — dual-era detection with a
 * `server/discover` probe on the same connection (never a throwaway process), the era cached per server.
 * Spec: S25/basic/lifecycle, S26/basic/versioning, S26/basic/transports/stdio, …/streamable-http.
 */
import { isMcpError, RpcError, UnsupportedProtocolVersionError } from '../errors/index.js';
import {
  HEADER_MISMATCH,
  MISSING_REQUIRED_CLIENT_CAPABILITY,
  UNSUPPORTED_PROTOCOL_VERSION,
} from '../protocol/jsonrpc.js';
import {
  type Era,
  LEGACY_COMPATIBLE,
  LEGACY_VERSION,
  META_SERVER_INFO,
  MODERN_SUPPORTED,
  MODERN_VERSION,
} from '../protocol/versions.js';
import type { NormalizedConfig } from './config.js';
import type { CallOptions } from './engine.js';
import type { DiscoverResult } from './types.js';
import { isImplementation, type Wire } from './wire.js';

/** Facts learnt while getting ready. */
export interface ServerFacts {
  capabilities: Record<string, unknown>;
  instructions: string | undefined;
  discover: DiscoverResult | undefined;
}

/** Runs `initialize` then `notifications/initialized` (S25/basic/lifecycle). */
export async function initializeLegacy(
  wire: Wire,
  config: NormalizedConfig,
  options: CallOptions,
): Promise<ServerFacts> {
  wire.era = 'legacy';
  wire.version = LEGACY_VERSION;
  const result = await wire.request(
    'initialize',
    { protocolVersion: LEGACY_VERSION, capabilities: wire.capabilities, clientInfo: config.clientInfo },
    { ...options, noCancelNotification: true },
  );
  const version = result['protocolVersion'];
  if (typeof version !== 'string' || !LEGACY_COMPATIBLE.includes(version)) {
    // The client SHOULD disconnect from a version it does not support (S25/basic/lifecycle); the caller closes.
    throw new UnsupportedProtocolVersionError(
      config.target,
      LEGACY_VERSION,
      typeof version === 'string' ? [version] : [],
    );
  }
  wire.version = version;
  wire.initialized = true;
  if (isImplementation(result['serverInfo'])) wire.serverInfo = result['serverInfo'];
  await wire.notify('notifications/initialized');
  const capabilities = objectOr(result['capabilities']);
  const instructions = typeof result['instructions'] === 'string' ? result['instructions'] : undefined;
  const discover: DiscoverResult = {
    supportedVersions: [version],
    capabilities,
    source: 'initialize',
    ...(instructions !== undefined ? { instructions } : {}),
    ...(wire.serverInfo ? { serverInfo: wire.serverInfo } : {}),
  };
  return { capabilities, instructions, discover };
}

/** Sends `server/discover` in the modern era and reads its result (S26/server/discover). */
export async function discoverModern(
  wire: Wire,
  options: CallOptions & { noCancelNotification?: boolean },
): Promise<DiscoverResult> {
  const result = await wire.request('server/discover', {}, options);
  return readDiscover(result, wire);
}

export function readDiscover(result: Record<string, unknown>, wire: Wire): DiscoverResult {
  const supported = Array.isArray(result['supportedVersions'])
    ? result['supportedVersions'].filter((v): v is string => typeof v === 'string')
    : [];
  // serverInfo SHOULD be in _meta; some servers put it in the body (⚑CONF mocks). Read both.
  const info =
    (result['_meta'] as Record<string, unknown> | undefined)?.[META_SERVER_INFO] ?? result['serverInfo'];
  if (isImplementation(info)) wire.serverInfo = info;
  const discover: DiscoverResult = {
    supportedVersions: supported,
    capabilities: objectOr(result['capabilities']),
    source: 'server/discover',
  };
  if (typeof result['instructions'] === 'string') discover.instructions = result['instructions'];
  if (wire.serverInfo) discover.serverInfo = wire.serverInfo;
  if (typeof result['ttlMs'] === 'number') discover.ttlMs = result['ttlMs'];
  if (result['cacheScope'] === 'public' || result['cacheScope'] === 'private')
    discover.cacheScope = result['cacheScope'];
  return discover;
}

/** The era of each server seen by `auto`, keyed by command line or endpoint (S26/basic/versioning: SHOULD cache). */
const eraCache = new Map<string, Era>();

function eraKey(config: NormalizedConfig): string {
  if (config.transport === 'http') return `http ${config.http.url.href}`;
  return `stdio ${JSON.stringify([config.stdio.command, config.stdio.args, config.stdio.cwd ?? ''])}`;
}

/** Forgets every cached era (for tests and long-lived hosts after a server upgrade). */
export function clearEraCache(): void {
  eraCache.clear();
}

/** How long `auto` waits for an answer to its stdio probe before it treats the server as legacy. */
const STDIO_PROBE_MS = 5_000;

/**
 * `auto`: a modern `server/discover` first; a recognised modern answer means modern, anything else means
 * legacy and `initialize` on the same connection. A cached era skips the probe.
 */
export async function detectEra(
  wire: Wire,
  config: NormalizedConfig,
  options: CallOptions,
): Promise<ServerFacts> {
  const key = eraKey(config);
  const cached = eraCache.get(key);
  if (cached === 'legacy') return initializeLegacy(wire, config, options);
  wire.era = 'modern';
  wire.version = MODERN_VERSION;
  try {
    const probeTimeout =
      config.transport === 'stdio'
        ? Math.min(options.timeoutMs ?? config.timeoutMs, STDIO_PROBE_MS)
        : options.timeoutMs;
    // Before we know the era, a legacy server must get nothing but initialize next: no cancellation notice.
    const discover = await discoverModern(wire, {
      ...options,
      ...(probeTimeout ? { timeoutMs: probeTimeout } : {}),
      noCancelNotification: true,
    });
    const modern = MODERN_SUPPORTED.find((v) => discover.supportedVersions.includes(v));
    if (!modern && discover.supportedVersions.some((v) => LEGACY_COMPATIBLE.includes(v))) {
      eraCache.set(key, 'legacy');
      return initializeLegacy(wire, config, options);
    }
    if (modern) wire.version = modern;
    eraCache.set(key, 'modern');
    return { capabilities: discover.capabilities, instructions: discover.instructions, discover };
  } catch (error) {
    if (
      error instanceof UnsupportedProtocolVersionError &&
      error.supported.some((v) => LEGACY_COMPATIBLE.includes(v))
    ) {
      eraCache.set(key, 'legacy');
      return initializeLegacy(wire, config, options);
    }
    if (isModernRefusal(error)) throw error;
    if (!isLegacySignal(error, config)) throw error;
    eraCache.set(key, 'legacy');
    return initializeLegacy(wire, config, options);
  }
}

/** A recognised 2026 error: the server is modern; the request could not be fixed (S26/basic/transports/streamable-http). */
function isModernRefusal(error: unknown): boolean {
  return (
    error instanceof RpcError &&
    [UNSUPPORTED_PROTOCOL_VERSION, MISSING_REQUIRED_CLIENT_CAPABILITY, HEADER_MISMATCH].includes(error.code)
  );
}

/**
 * Anything else that shows a live server which did not understand the probe means legacy: any JSON-RPC
 * error (legacy servers answer -32601, -32602, …), no answer in time, or on HTTP a 4xx without a modern
 * body. The fallback never depends on one specific code (S26/basic/transports/stdio).
 */
function isLegacySignal(error: unknown, config: NormalizedConfig): boolean {
  if (!isMcpError(error)) return false;
  if (error.kind === 'rpc' || error.kind === 'timeout') return true;
  if (config.transport === 'http' && error.kind === 'transport' && error.status !== undefined) {
    return error.status >= 400 && error.status < 500;
  }
  return false;
}

function objectOr(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
