/**
 * The three ways in: `connect` (keep one connection for many calls), `callTool` (one shot: connect, call,
 * close) and `withClient` (run a function, then close whatever happens). Importing starts nothing; the
 * HTTP transport (and undici) is loaded only when an HTTP server is first used.
 */

import type { Connection } from '../transport/connection.js';
import { StdioConnection } from '../transport/stdio/index.js';
import { answerInputRequest, clientCapabilities } from './capabilities.js';
import { Client } from './client.js';
import { type NormalizedConfig, normalizeConfig, type ServerConfig } from './config.js';
import { type CallOptions, Engine } from './engine.js';
import { detectEra, initializeLegacy, type ServerFacts } from './lifecycle.js';
import type { ConnectOptions } from './options.js';
import type { ToolCallOutcome } from './types.js';
import { Wire } from './wire.js';

async function openConnection(config: NormalizedConfig): Promise<Connection> {
  if (config.transport === 'stdio') return new StdioConnection(config.stdio);
  const { HttpConnection } = await import('../transport/http/index.js');
  return new HttpConnection(config.http);
}

/**
 * Connects to one server now: spawns it (stdio) or reaches it (HTTP), and gets ready in the configured
 * revision — `initialize` for 2025-11-25, nothing for a pinned 2026-07-28, a probe for `auto`.
 * On failure everything started is cleaned up before the error is thrown.
 */
export async function connect(config: ServerConfig, options: ConnectOptions = {}): Promise<Client> {
  const normalized = normalizeConfig(config);
  const connection = await openConnection(normalized);
  let client: Client | undefined;
  const closeSignal = new AbortController();
  let wire: Wire | undefined;
  const engine = new Engine(connection, {
    target: normalized.target,
    defaultTimeoutMs: normalized.timeoutMs,
    cancelNotification: true,
    onServerRequest: (method, params) =>
      answerInputRequest(options, method, params, { target: normalized.target, signal: closeSignal.signal }),
    onNotification: (message) => Client.onNotification(() => client, options, message),
    notificationHeaders: () => wire?.notificationHeaders(),
  });
  wire = new Wire(engine, normalized, clientCapabilities(options));
  const stepOptions: CallOptions = { timeoutMs: options.timeoutMs ?? normalized.timeoutMs };
  if (options.signal) stepOptions.signal = options.signal;
  try {
    await engine.start();
    const facts = await getReady(wire, normalized, stepOptions);
    // 2026 over HTTP cancels by closing the response stream, never with a notification (S26/basic/patterns/cancellation).
    engine.settings.cancelNotification = !(normalized.transport === 'http' && wire.era === 'modern');
    // 2025 over HTTP: server-initiated requests not tied to a call arrive only on the GET stream (S25/basic/transports).
    if (
      normalized.transport === 'http' &&
      wire.era === 'legacy' &&
      Object.keys(wire.capabilities).length > 0
    ) {
      connection.listen?.();
    }
    client = new Client(engine, wire, normalized, options, facts, closeSignal);
    return client;
  } catch (error) {
    closeSignal.abort();
    await engine.close().catch(() => {});
    throw error;
  }
}

async function getReady(wire: Wire, config: NormalizedConfig, options: CallOptions): Promise<ServerFacts> {
  switch (config.protocolVersion) {
    case '2025-11-25':
      return initializeLegacy(wire, config, options);
    case '2026-07-28':
      // A pinned version never probes: no handshake, `_meta` on every request (S26/basic/index).
      wire.era = 'modern';
      wire.version = '2026-07-28';
      return { capabilities: {}, instructions: undefined, discover: undefined };
    case 'auto':
      return detectEra(wire, config, options);
  }
}

/**
 * Runs `fn` with a connected client, then closes the client and every process it started — also when
 * `fn` throws. Resolves with what `fn` returned.
 */
export async function withClient<T>(
  config: ServerConfig,
  fn: (client: Client) => Promise<T> | T,
  options: ConnectOptions = {},
): Promise<T> {
  const client = await connect(config, options);
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

/** One shot: connect, call one tool, close. `timeoutMs` and `signal` apply to each step. */
export function callTool(
  config: ServerConfig,
  name: string,
  args: Record<string, unknown> = {},
  options: ConnectOptions & CallOptions = {},
): Promise<ToolCallOutcome> {
  const callOptions: CallOptions = {};
  if (options.timeoutMs !== undefined) callOptions.timeoutMs = options.timeoutMs;
  if (options.maxTotalTimeoutMs !== undefined) callOptions.maxTotalTimeoutMs = options.maxTotalTimeoutMs;
  if (options.signal) callOptions.signal = options.signal;
  if (options.onProgress) callOptions.onProgress = options.onProgress;
  return withClient(config, (client) => client.callTool(name, args, callOptions), options);
}
