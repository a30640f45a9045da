/**
 * Getting ready to talk: the 2025-11-25 `initialize` handshake, the 2026-07-28 pin, and `auto` — dual-era
 * detection with a `server/discover` probe on the same connection (never a throwaway process; a server the
 * probe ends is started again by `connect()`, see `endedByProbe`), the era cached per server. Each path
 * returns one `Negotiated` value and writes nothing else.
 * Spec: S25/basic/lifecycle, S26/basic/versioning, S26/basic/transports/stdio, …/streamable-http.
 */
import type { NormalizedCommon } from '../config/index.js';
import { isMcpError, McpError, RpcError, UnsupportedProtocolVersionError } from '../errors/index.js';
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
import type { ConnectionTraits } from '../transport/connection.js';
import type { CallOptions } from './call-options.js';
import { type HandshakeFacts, type Negotiated, settle } from './negotiated.js';
import { legacyPinRefused } from './pinned-revision.js';
import type { DiscoverResult } from './types.js';
import { isImplementation, type Stance, type Wire, withVersionRetry } from './wire.js';

/**
 * The connect phase's one deadline, shared by every step of the handshake (the `auto` probe and
 * `initialize` together never wait longer than it), and the steps that were sent, for the message of a
 * server that never answered.
 */
export class ReadyBudget {
  readonly #until: number;
  /** The whole deadline, in ms. */
  readonly ms: number;
  /** The methods sent so far, in order. */
  readonly steps: string[] = [];

  /** `ms` from now; `Infinity`: no deadline. */
  constructor(ms: number) {
    this.ms = ms;
    this.#until = Date.now() + ms;
  }

  /** Milliseconds left (`Infinity` without a deadline). */
  left(): number {
    return this.#until - Date.now();
  }

  /**
   * The options of the next step, `method`: the caller's, with a deadline of what is left (at most
   * `capMs`). Throws `timeout` when nothing is left: the step is then not sent.
   */
  options<T extends CallOptions>(options: T, method: string, target: string, capMs = Infinity): T {
    const left = this.left();
    if (left <= 0) {
      throw new McpError('timeout', `${method} on ${target}: the connect deadline of ${this.ms} ms passed`);
    }
    if (!this.steps.includes(method)) this.steps.push(method);
    const ms = Math.min(left, capMs);
    return { ...options, timeoutMs: ms, maxTotalTimeoutMs: ms };
  }
}

/**
 * Runs the handshake the config asks for, within `budget`, and returns what was settled. `probe: false`
 * (for `auto` only): the server is known to end on the probe, so it is started in legacy mode at once.
 */
export async function getReady(
  wire: Wire,
  config: NormalizedCommon,
  traits: ConnectionTraits,
  options: CallOptions,
  budget: ReadyBudget = new ReadyBudget(Number.POSITIVE_INFINITY),
  { probe = true }: { probe?: boolean } = {},
): Promise<Negotiated> {
  switch (config.protocolVersion) {
    case '2025-11-25':
      return settle(await initializeLegacy(wire, config, options, budget), traits);
    case '2026-07-28':
      // A pinned version never probes: no handshake, `_meta` on every request (S26/basic/index).
      return settle(
        {
          era: 'modern',
          version: MODERN_VERSION,
          serverInfo: undefined,
          capabilities: {},
          instructions: undefined,
          discover: undefined,
        },
        traits,
      );
    case 'auto':
      if (!probe) return settle(await legacyAndRemember(wire, config, options, budget), traits);
      return settle(await detectEra(wire, config, traits, options, budget), traits);
  }
}

/** Runs `initialize` then `notifications/initialized` (S25/basic/lifecycle). */
async function initializeLegacy(
  wire: Wire,
  config: NormalizedCommon,
  options: CallOptions,
  budget: ReadyBudget,
): Promise<HandshakeFacts> {
  const result = await wire
    .request(
      { era: 'legacy', version: undefined },
      'initialize',
      { protocolVersion: LEGACY_VERSION, capabilities: wire.capabilities, clientInfo: config.clientInfo },
      budget.options({ ...options, noCancelNotification: true }, 'initialize', config.target),
    )
    .catch((error: unknown) => {
      // Pinned to 2025-11-25 and refused as a 2026-only server refuses it: say so, and what works.
      throw (config.protocolVersion === LEGACY_VERSION && legacyPinRefused(error, config.target)) || error;
    });
  const version = result['protocolVersion'];
  if (typeof version !== 'string' || !LEGACY_COMPATIBLE.includes(version)) {
    // The client SHOULD disconnect from a version it does not support (S25/basic/lifecycle); the caller closes.
    throw new UnsupportedProtocolVersionError(
      config.target,
      LEGACY_VERSION,
      typeof version === 'string' ? [version] : [],
    );
  }
  const serverInfo = isImplementation(result['serverInfo']) ? result['serverInfo'] : undefined;
  await wire.notify({ era: 'legacy', version }, 'notifications/initialized');
  const capabilities = objectOr(result['capabilities']);
  const instructions = typeof result['instructions'] === 'string' ? result['instructions'] : undefined;
  const discover: DiscoverResult = {
    supportedVersions: [version],
    capabilities,
    source: 'initialize',
    ...(instructions !== undefined ? { instructions } : {}),
    ...(serverInfo ? { serverInfo } : {}),
  };
  return { era: 'legacy', version, serverInfo, capabilities, instructions, discover };
}

/**
 * Sends `server/discover` in the modern era and reads its result (S26/server/discover), with the one
 * version retry of S26/basic/versioning. Resolves with the result and the stance that got it. With a
 * `budget`, each attempt waits at most what is left of it (and at most `capMs`).
 */
export async function discoverModern(
  wire: Wire,
  stance: Stance,
  target: string,
  options: CallOptions & { noCancelNotification?: boolean },
  budget?: { budget: ReadyBudget; capMs: number },
): Promise<{ discover: DiscoverResult; stance: Stance }> {
  const { value, stance: used } = await withVersionRetry(stance, target, (s) =>
    wire.request(
      s,
      'server/discover',
      {},
      budget === undefined
        ? options
        : budget.budget.options(options, 'server/discover', target, budget.capMs),
    ),
  );
  return { discover: readDiscover(value), stance: used };
}

function readDiscover(result: Record<string, unknown>): DiscoverResult {
  const supported = Array.isArray(result['supportedVersions'])
    ? result['supportedVersions'].filter((v): v is string => typeof v === 'string')
    : [];
  // serverInfo SHOULD be in _meta; some servers (the official conformance suite's mocks) put it in the body. Read both.
  const info =
    (result['_meta'] as Record<string, unknown> | undefined)?.[META_SERVER_INFO] ?? result['serverInfo'];
  const discover: DiscoverResult = {
    supportedVersions: supported,
    capabilities: objectOr(result['capabilities']),
    source: 'server/discover',
  };
  if (typeof result['instructions'] === 'string') discover.instructions = result['instructions'];
  if (isImplementation(info)) discover.serverInfo = info;
  if (typeof result['ttlMs'] === 'number') discover.ttlMs = result['ttlMs'];
  if (result['cacheScope'] === 'public' || result['cacheScope'] === 'private')
    discover.cacheScope = result['cacheScope'];
  return discover;
}

/** The era of each server seen by `auto`, keyed by command line or endpoint (S26/basic/versioning: SHOULD cache). */
const eraCache = new Map<string, Era>();

/** Forgets every cached era (for tests and long-lived hosts after a server upgrade). */
export function clearEraCache(): void {
  eraCache.clear();
}

function remember(config: NormalizedCommon, era: Era): void {
  if (config.serverKey !== undefined) eraCache.set(config.serverKey, era);
}

/** How long `auto` waits for its probe where a server may stay silent, before treating it as legacy. */
const SILENT_PROBE_MS = 5_000;

/**
 * `auto`: a modern `server/discover` first; a recognised modern answer means modern, anything else means
 * legacy and `initialize` on the same connection. A cached era skips the probe. Probe and `initialize`
 * share the one connect deadline: where a server may stay silent (stdio) the probe waits at most 5 s and
 * at most half of what is left, so a silent 2025 server still gets the other half for `initialize`.
 */
async function detectEra(
  wire: Wire,
  config: NormalizedCommon,
  traits: ConnectionTraits,
  options: CallOptions,
  budget: ReadyBudget,
): Promise<HandshakeFacts> {
  const cached = config.serverKey === undefined ? undefined : eraCache.get(config.serverKey);
  if (cached === 'legacy') return initializeLegacy(wire, config, options, budget);
  try {
    const probeCap = traits.answersEveryRequest
      ? Number.POSITIVE_INFINITY
      : Math.min(SILENT_PROBE_MS, Math.max(1, Math.floor(budget.left() / 2)));
    // Before we know the era, a legacy server must get nothing but initialize next: no cancellation notice.
    const { discover, stance } = await discoverModern(
      wire,
      { era: 'modern', version: MODERN_VERSION },
      config.target,
      { ...options, noCancelNotification: true },
      { budget, capMs: probeCap },
    );
    const supported = discover.supportedVersions;
    const modern = MODERN_SUPPORTED.find((v) => supported.includes(v));
    if (!modern) {
      // No version listed (not a 2026 DiscoverResult: some legacy servers answer anything) or only legacy ones.
      if (supported.length === 0 || supported.some((v) => LEGACY_COMPATIBLE.includes(v))) {
        return legacyAndRemember(wire, config, options, budget);
      }
      throw new UnsupportedProtocolVersionError(config.target, stance.version ?? MODERN_VERSION, supported);
    }
    remember(config, 'modern');
    return {
      era: 'modern',
      version: modern,
      serverInfo: discover.serverInfo,
      capabilities: discover.capabilities,
      instructions: discover.instructions,
      discover,
    };
  } catch (error) {
    if (
      error instanceof UnsupportedProtocolVersionError &&
      error.supported.some((v) => LEGACY_COMPATIBLE.includes(v))
    ) {
      return legacyAndRemember(wire, config, options, budget);
    }
    if (isModernRefusal(error) || !isLegacySignal(error)) throw error;
    return legacyAndRemember(wire, config, options, budget);
  }
}

/** `initialize` after a probe said legacy; the guess is remembered only once the handshake worked. */
async function legacyAndRemember(
  wire: Wire,
  config: NormalizedCommon,
  options: CallOptions,
  budget: ReadyBudget,
): Promise<HandshakeFacts> {
  const facts = await initializeLegacy(wire, config, options, budget);
  remember(config, 'legacy');
  return facts;
}

/**
 * True when `auto`'s probe was the only step sent and the connection then ended by itself (the server
 * exited or closed its stdout): what a server that takes nothing but `initialize` first does — rmcp's
 * `serve_server` returns `ExpectedInitializeRequest` and its `main` exits with code 1, writing nothing.
 * Such a server is legacy; only a new start can tell it so, since this one is gone.
 */
export function endedByProbe(
  config: NormalizedCommon,
  failure: McpError | undefined,
  steps: readonly string[],
): boolean {
  return (
    config.protocolVersion === 'auto' &&
    failure?.kind === 'closed' &&
    steps.length === 1 &&
    steps[0] === 'server/discover'
  );
}

/** A recognised 2026 error: the server is modern; the request could not be fixed (S26/basic/transports/streamable-http). */
function isModernRefusal(error: unknown): boolean {
  if (isMcpError(error) && error.kind === 'missing_capability') return true;
  return (
    error instanceof RpcError &&
    [UNSUPPORTED_PROTOCOL_VERSION, MISSING_REQUIRED_CLIENT_CAPABILITY, HEADER_MISMATCH].includes(error.code)
  );
}

/**
 * Anything else that shows a live server which did not understand the probe means legacy: any JSON-RPC
 * error (legacy servers answer -32601, -32602, …), no answer in time, or a 4xx HTTP status without a
 * modern body. The fallback never depends on one specific code (S26/basic/transports/stdio).
 */
function isLegacySignal(error: unknown): boolean {
  if (!isMcpError(error)) return false;
  if (error.kind === 'rpc' || error.kind === 'timeout') return true;
  if (error.kind === 'transport' && error.status !== undefined)
    return error.status >= 400 && error.status < 500;
  return false;
}

function objectOr(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
