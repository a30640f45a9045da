/**
 * The three ways in: `connect` (keep one connection for many calls), `callTool` (one shot: connect, call,
 * close) and `withClient` (run a function, then close whatever happens). Importing starts nothing; the
 * HTTP transport (and undici) is loaded only when an HTTP server is first used.
 */

import { durationMs } from '../config/durations.js';
import {
  type BaseServerConfig,
  type NormalizedCommon,
  normalizeBaseConfig,
  normalizeConfig,
  type ServerConfig,
} from '../config/index.js';
import type { Connection } from '../transport/connection.js';
import { openConnection } from '../transport/open.js';
import type { CallOptions } from './call-options.js';
import { answerInputRequest, clientCapabilities } from './capabilities.js';
import { ToolCatalog } from './catalog.js';
import { Client } from './client.js';
import { Engine } from './engine.js';
import { getReady } from './lifecycle.js';
import { notSent } from './not-sent.js';
import { routeNotification } from './notifications.js';
import type { ConnectOptions } from './options.js';
import { Responder } from './responder.js';
import type { ToolCallOutcome } from './types.js';
import { Wire } from './wire.js';

async function resolveConnection(
  config: ServerConfig | BaseServerConfig,
  options: ConnectOptions,
): Promise<{ settings: NormalizedCommon; connection: Connection }> {
  if (options.connection !== undefined) {
    return {
      settings: normalizeBaseConfig(config, options.connection.target),
      connection: options.connection,
    };
  }
  const normalized = normalizeConfig(config as ServerConfig);
  const connection = await openConnection(normalized, {
    auth: options.auth,
    dispatcher: options.dispatcher,
    settings: options.settings,
  });
  return { settings: normalized, connection };
}

/**
 * Connects to one server now: spawns it (stdio) or reaches it (HTTP), and gets ready in the configured
 * revision — `initialize` for 2025-11-25, nothing for a pinned 2026-07-28, a probe for `auto`.
 * On failure everything started is cleaned up before the error is thrown.
 *
 * With `options.connection` (e.g. one end of `createMemoryPair()`), `config` holds only the shared
 * settings (`timeoutMs`, `protocolVersion`, …) and that connection is used instead of opening one.
 */
export async function connect(
  config: ServerConfig | BaseServerConfig,
  options: ConnectOptions = {},
): Promise<Client> {
  const readyMs = durationMs(options.timeoutMs, 'timeoutMs', Number.NaN, { positive: true });
  const { settings, connection } = await resolveConnection(config, options);
  const closeController = new AbortController();
  const catalog = new ToolCatalog();
  const responder = new Responder(
    (message) => connection.send(message),
    (method, params) =>
      answerInputRequest(options, method, params, {
        target: settings.target,
        signal: closeController.signal,
      }),
  );
  const engine = new Engine(connection, {
    target: settings.target,
    defaultTimeoutMs: settings.timeoutMs,
    onServerRequest: (message) => responder.answer(message),
    onNotification: (message) => routeNotification(message, { catalog, onLog: options.onLog }),
  });
  const wire = new Wire(engine, connection.traits, {
    clientInfo: settings.clientInfo,
    capabilities: clientCapabilities(options),
    target: settings.target,
  });
  const stepOptions: CallOptions = { timeoutMs: Number.isNaN(readyMs) ? settings.timeoutMs : readyMs };
  if (options.signal) stepOptions.signal = options.signal;
  try {
    await engine.start();
    const session = await getReady(wire, settings, connection.traits, stepOptions);
    engine.cancelBy(session.cancelBy);
    // 2025: server-initiated requests not tied to a call may need a stream of their own (S25/basic/transports).
    connection.negotiated({
      protocolVersion: session.version,
      openServerStream:
        connection.traits.serverStream &&
        session.era === 'legacy' &&
        Object.keys(wire.capabilities).length > 0,
    });
    return Client.assemble({
      engine,
      wire,
      connection,
      config: settings,
      options,
      session,
      catalog,
      closeController,
    });
  } catch (error) {
    closeController.abort();
    await engine.close().catch(() => {});
    throw error;
  }
}

/**
 * Runs `fn` with a connected client, then closes the client and every process it started — also when
 * `fn` throws. Resolves with what `fn` returned.
 */
export async function withClient<T>(
  config: ServerConfig | BaseServerConfig,
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
  config: ServerConfig | BaseServerConfig,
  name: string,
  args: Record<string, unknown> = {},
  options: ConnectOptions & CallOptions = {},
): Promise<ToolCallOutcome> {
  const callOptions: CallOptions = {};
  if (options.timeoutMs !== undefined) callOptions.timeoutMs = options.timeoutMs;
  if (options.maxTotalTimeoutMs !== undefined) callOptions.maxTotalTimeoutMs = options.maxTotalTimeoutMs;
  if (options.signal) callOptions.signal = options.signal;
  if (options.onProgress) callOptions.onProgress = options.onProgress;
  const connected = connect(config, options).catch((error: unknown) => {
    // The caller asked for a tool call, and it never left: say so, with what went wrong on the way.
    throw notSent(`tools/call ${name}`, 'connecting to the server failed', error);
  });
  return connected.then(async (client) => {
    try {
      return await client.callTool(name, args, callOptions);
    } finally {
      await client.close();
    }
  });
}
