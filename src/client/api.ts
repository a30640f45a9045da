/**
 * The three ways in: `connect` (keep one connection for many calls), `callToolOnce` (one shot: connect,
 * call, close) and `withClient` (run a function, then close whatever happens). `callTool` is always a call
 * over a connection already open (`Client`, `Session`, the worker's id); the one shot is named apart. Importing starts nothing; the
 * HTTP transport (and undici) is loaded only when an HTTP server is first used.
 */

import { durationMs } from '../config/durations.js';
import {
  type BaseServerConfig,
  envFromResolver,
  type NormalizedCommon,
  normalizeBaseConfig,
  normalizeConfig,
  type ServerConfig,
  type SettingsReader,
} from '../config/index.js';
import { connectionFailed, connectionIsReady, debugNote, newConnectionId } from '../diagnostics/publish.js';
import type { McpError } from '../errors/index.js';
import { type TurnedOn, turnOn } from '../extensions/index.js';
import type { Connection, ProcessReport } from '../transport/connection.js';
import { deniedError, NO_APPROVER, needsApproval } from './approval.js';
import type { CallOptions, CallToolOptions } from './call-options.js';
import { answerInputRequest, clientCapabilities } from './capabilities.js';
import { ToolCatalog } from './catalog.js';
import { Client } from './client.js';
import { Engine } from './engine.js';
import { endedByProbe, getReady, ReadyBudget } from './lifecycle.js';
import { notSent } from './not-sent.js';
import { routeNotification } from './notifications.js';
import { openConnection } from './open-connection.js';
import type { ConnectOptions } from './options.js';
import { Responder } from './responder.js';
import { startupError } from './startup-error.js';
import { listenForChanges } from './subscription.js';
import { ToolChanges } from './tool-changes.js';
import { filterRefusal } from './tool-filter.js';
import type { CallToolResult, LegacyVersion, ToolCallOutcome } from './types.js';
import { Wire } from './wire.js';

/** The config's `extensions` with the option's (both checked already; together within the same bound). */
function withConfigExtensions(settings: NormalizedCommon, options: ConnectOptions, own: TurnedOn): TurnedOn {
  return settings.extensions === undefined
    ? own
    : turnOn([...settings.extensions, ...(options.extensions ?? [])]);
}

async function resolveConnection(
  config: ServerConfig | BaseServerConfig,
  options: ConnectOptions,
  connectionId: string,
  own: TurnedOn,
): Promise<{ settings: NormalizedCommon; connection: Connection; extensions: TurnedOn }> {
  if (options.connection !== undefined) {
    const settings = normalizeBaseConfig(config, options.connection.target);
    const extensions = withConfigExtensions(settings, options, own);
    return { settings, connection: options.connection, extensions };
  }
  const normalized = normalizeConfig(config as ServerConfig);
  // Before anything is opened: a bad union is `config` with nothing to clean up.
  const extensions = withConfigExtensions(normalized, options, own);
  const connection = await openConnection(normalized, {
    auth: options.auth,
    dispatcher: options.dispatcher,
    resolveEnvFrom: envFromResolver(() => options.settings ?? defaultSettings()),
    connectionId,
  });
  return { settings: normalized, connection, extensions };
}

/**
 * The settings `envFrom` reads when `options.settings` is not given: `autos-mcp/settings` in the OS
 * credential store, loaded only when a config names one (the one place the client reaches settings).
 */
async function defaultSettings(): Promise<SettingsReader> {
  return (await import('../settings/settings.js')).openSettings();
}

/**
 * Connects to one server now: spawns it (stdio) or reaches it (HTTP), and gets ready in the configured
 * revision — `initialize` for 2025-11-25, nothing for a pinned 2026-07-28, a probe for `auto` — within
 * one deadline for the whole phase (`options.timeoutMs`, else the config's `connectTimeoutMs`).
 * On failure everything started is cleaned up before the error is thrown. A failure is `not_sent`
 * unless the server answered (`delivered`): no request of the caller's left; the handshake's own error
 * is the `cause`. A stdio server that exits first is "… exited during startup with code N, before it
 * answered initialize"; one that stays silent is "… is running but did not answer initialize within N
 * ms"; both carry the server's `stderrTail`. Under `auto`, a stdio server that exits on the probe (as
 * servers on the Rust SDK do before `initialize`) is started once more in legacy mode; the client's
 * `close()` report then has `probeRestart`.
 *
 * With `options.connection` (e.g. one end of `createMemoryPair()`), `config` holds only the shared
 * settings (`timeoutMs`, `protocolVersion`, …) and that connection is used instead of opening one.
 */
export function connect(
  config: (ServerConfig | BaseServerConfig) & LegacyVersion,
  options?: ConnectOptions,
): Promise<Client<CallToolResult>>;
/** `connect()` with a config that may mean 2026-07-28: `callTool` may resolve to an `input_required` result. */
export function connect(config: ServerConfig | BaseServerConfig, options?: ConnectOptions): Promise<Client>;
export async function connect(
  config: ServerConfig | BaseServerConfig,
  options: ConnectOptions = {},
): Promise<Client> {
  const readyMs = durationMs(options.timeoutMs, 'timeoutMs', Number.NaN, { positive: true });
  // Checked before anything starts: a malformed extension id is `config`.
  const extensions = turnOn(options.extensions);
  return start(config, options, { startedAt: Date.now(), readyMs, firstStart: undefined, extensions });
}

/** One start of the connect phase: when it began, the caller's deadline, and an earlier start's end. */
interface StartRun {
  startedAt: number;
  /** `options.timeoutMs` (NaN: the config's `connectTimeoutMs`). */
  readyMs: number;
  /** How the first process ended, when `auto`'s probe ended it and this is the second start. */
  firstStart: ProcessReport | undefined;
  /** The extensions turned on (`options.extensions`, checked). */
  extensions: TurnedOn;
}

/**
 * Opens the connection and gets ready. Under `auto`, a server process that ends on the `server/discover`
 * probe (exits, or closes its stdout, as servers on the Rust SDK do before `initialize`) is started
 * once more, in legacy mode, within the same deadline: only the probe was lost, never a caller's call.
 */
async function start(
  config: ServerConfig | BaseServerConfig,
  options: ConnectOptions,
  run: StartRun,
): Promise<Client> {
  const connectionId = newConnectionId();
  const { settings, connection, extensions } = await resolveConnection(
    config,
    options,
    connectionId,
    run.extensions,
  );
  const connectMs = Number.isNaN(run.readyMs) ? settings.connectTimeoutMs : run.readyMs;
  // Spawning and resolving the connection (and a first start, if any) count against the deadline too.
  const budget = new ReadyBudget(connectMs - (Date.now() - run.startedAt));
  const closeController = new AbortController();
  const catalog = new ToolCatalog();
  const changes = new ToolChanges(settings.target, catalog, options.onToolListChanged);
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
    connectionId,
    defaultTimeoutMs: settings.timeoutMs,
    onServerRequest: (message) => responder.answer(message),
    onNotification: (message) => routeNotification(message, { changes, onLog: options.onLog }),
  });
  const wire = new Wire(engine, connection.traits, {
    clientInfo: settings.clientInfo,
    capabilities: clientCapabilities(options, extensions.declared),
    target: settings.target,
    claims: (method, resultType) => extensions.claims(method, resultType),
  });
  const stepOptions: CallOptions = {};
  if (options.signal) stepOptions.signal = options.signal;
  const restarted = run.firstStart !== undefined;
  try {
    await engine.start();
    const negotiated = await getReady(wire, settings, connection.traits, stepOptions, budget, {
      probe: !restarted,
    });
    engine.cancelBy(negotiated.cancelBy);
    engine.markReady();
    connectionIsReady(engine.trace, negotiated.version, negotiated.serverInfo);
    // 2025: server-initiated requests not tied to a call may need a stream of their own (S25/basic/transports).
    connection.negotiated({
      protocolVersion: negotiated.version,
      openServerStream:
        connection.traits.serverStream &&
        negotiated.era === 'legacy' &&
        // Only handlers make server requests answerable; an extension's declaration alone does not.
        Object.keys(wire.capabilities).some((key) => key !== 'extensions'),
    });
    closeController.signal.addEventListener('abort', () => changes.close(), { once: true });
    const client = Client.assemble({
      engine,
      wire,
      connection,
      config: settings,
      options,
      negotiated,
      catalog,
      changes,
      closeController,
      probeRestart: run.firstStart,
      extensions,
    });
    if (negotiated.era === 'modern') listenForChanges(changes, { wire, engine, client, connectionId });
    // 2025 over HTTP: the notifications come on the GET stream, opened once someone wants them.
    else if (connection.traits.serverStream) changes.reachWith(() => connection.listen?.());
    return client;
  } catch (error) {
    closeController.abort();
    const failure = engine.failure;
    // A process we started (never a connection handed in) that the probe alone ended: start it again.
    const again =
      !restarted &&
      options.connection === undefined &&
      connection.process !== undefined &&
      endedByProbe(settings, failure, budget.steps);
    if (again) {
      debugNote(
        connectionId,
        'the server ended on the server/discover probe: starting it again in legacy mode',
      );
      const first = (await engine.close().catch(() => undefined))?.process;
      // A caller who gave up meanwhile gets the first start's failure, not a second process.
      if (first !== undefined && options.signal?.aborted !== true)
        return start(config, options, { ...run, firstStart: first });
    }
    const facts = {
      target: settings.target,
      pid: connection.process?.pid,
      failure,
      note: engine.note(),
      steps: budget.steps,
      connectMs,
      restarted,
    };
    // Published before the close, whose report adds only the stderr tail (never in a payload).
    connectionFailed(engine.trace, 'connect', startupError(error, { ...facts, report: undefined }));
    const report = await engine.close().catch(() => undefined);
    throw startupError(error, { ...facts, report });
  }
}

/**
 * Runs `fn` with a connected client, then closes the client and every process it started — also when
 * `fn` throws. Resolves with what `fn` returned.
 */
export function withClient<T>(
  config: (ServerConfig | BaseServerConfig) & LegacyVersion,
  fn: (client: Client<CallToolResult>) => Promise<T> | T,
  options?: ConnectOptions,
): Promise<T>;
/** `withClient()` with a config that may mean 2026-07-28: `callTool` may resolve to an `input_required` result. */
export function withClient<T>(
  config: ServerConfig | BaseServerConfig,
  fn: (client: Client) => Promise<T> | T,
  options?: ConnectOptions,
): Promise<T>;
export async function withClient<T>(
  config: ServerConfig | BaseServerConfig,
  fn: (client: Client<CallToolResult>) => Promise<T> | T,
  options: ConnectOptions = {},
): Promise<T> {
  // The overloads pair the config with the client type: `fn` gets the type its config promises.
  const client = (await connect(config, options)) as Client<CallToolResult>;
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

/**
 * One shot: connect, call one tool, close (named apart from `callTool`, which is always a call over a
 * connection already open). `timeoutMs` and `signal` apply to each step.
 */
export function callToolOnce(
  config: (ServerConfig | BaseServerConfig) & LegacyVersion,
  name: string,
  args?: Record<string, unknown>,
  options?: ConnectOptions & CallToolOptions,
): Promise<CallToolResult>;
/** `callToolOnce()` with a config that may mean 2026-07-28: the result may be `input_required`. */
export function callToolOnce(
  config: ServerConfig | BaseServerConfig,
  name: string,
  args?: Record<string, unknown>,
  options?: ConnectOptions & CallToolOptions,
): Promise<ToolCallOutcome>;
export function callToolOnce(
  config: ServerConfig | BaseServerConfig,
  name: string,
  args: Record<string, unknown> = {},
  options: ConnectOptions & CallToolOptions = {},
): Promise<ToolCallOutcome> {
  const callOptions: CallToolOptions = {};
  if (options.timeoutMs !== undefined) callOptions.timeoutMs = options.timeoutMs;
  if (options.maxTotalTimeoutMs !== undefined) callOptions.maxTotalTimeoutMs = options.maxTotalTimeoutMs;
  if (options.signal) callOptions.signal = options.signal;
  if (options.onProgress) callOptions.onProgress = options.onProgress;
  if (options.maxResultChars !== undefined) callOptions.maxResultChars = options.maxResultChars;
  // A tool the config's filter leaves out, or one that needs approval with no one to ask, is refused
  // before anything starts (no spawn, no request).
  const refused = typeof name === 'string' ? filteredOut(config, name, options) : undefined;
  if (refused !== undefined) return Promise.reject(refused);
  const connected = connect(config, options).catch((error: unknown) => {
    // The caller asked for a tool call, and it never left: say so, with what went wrong on the way.
    throw notSent(`tools/call ${name}`, 'connecting failed', error);
  });
  return connected.then(async (client) => {
    try {
      return await client.callTool(name, args, callOptions);
    } finally {
      await client.close();
    }
  });
}

/** The filter's or the approval's refusal of `name`, or undefined (also for a bad config: `connect` reports that). */
function filteredOut(
  config: ServerConfig | BaseServerConfig,
  name: string,
  options: ConnectOptions,
): McpError | undefined {
  try {
    const settings =
      options.connection === undefined
        ? normalizeConfig(config as ServerConfig)
        : normalizeBaseConfig(config, options.connection.target);
    const refused = filterRefusal(settings, name);
    if (refused !== undefined || options.onApprove !== undefined || !needsApproval(settings, name))
      return refused;
    return deniedError(name, settings.target, NO_APPROVER);
  } catch {
    return undefined;
  }
}
