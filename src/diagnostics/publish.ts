/**
 * The one place that publishes on `node:diagnostics_channel`: the channel objects, created once, and a
 * small function per event for the engine and the transports. Each checks `hasSubscribers` before it
 * builds a payload, so without subscribers a call allocates nothing here. It also owns the debug log
 * switch (`AUTOS_MCP_DEBUG=1` or `NODE_DEBUG=autos-mcp`): only then is debug-log.ts loaded.
 * Runtimes without `diagnostics_channel.channel` (none known; Bun and Deno have it) get inert channels.
 */
import * as dc from 'node:diagnostics_channel';
import { isMcpError } from '../errors/index.js';
import { nodeUtil } from '../internal/lazy-builtins.js';
import { redact } from '../internal/redact.js';
import {
  type ConnectionCloseEvent,
  type ConnectionErrorEvent,
  type ConnectionEvent,
  type ConnectionReadyEvent,
  type DiagnosticsError,
  type HttpErrorEvent,
  type HttpRequestEvent,
  type HttpResponseEvent,
  diagnosticsChannels as NAMES,
  type RequestEndEvent,
  type RequestErrorEvent,
  type RequestStartEvent,
  type StdioExitEvent,
} from './channels.js';

/** The part of a channel this module uses: the plain-channel API every runtime has. */
interface Publisher {
  readonly hasSubscribers: boolean;
  publish(message: unknown): void;
}

const INERT: Publisher = { hasSubscribers: false, publish() {} };

function make(name: string): Publisher {
  return typeof dc.channel === 'function' ? dc.channel(name) : INERT;
}

// Held here for the life of the process: Node keeps a channel with no subscribers only weakly.
const connectionOpen = make(NAMES.connectionOpen);
const connectionReady = make(NAMES.connectionReady);
const connectionError = make(NAMES.connectionError);
const connectionClose = make(NAMES.connectionClose);
const requestStart = make(NAMES.requestStart);
const requestEnd = make(NAMES.requestEnd);
const requestError = make(NAMES.requestError);
const stdioSpawn = make(NAMES.stdioSpawn);
const stdioExit = make(NAMES.stdioExit);
const httpRequest = make(NAMES.httpRequest);
const httpResponse = make(NAMES.httpResponse);
const httpError = make(NAMES.httpError);

/** Tool names and server names in payloads are cut to this (they are data, not labels of ours). */
const MAX_NAME_CHARS = 200;

let nextConnection = 0;
/** Tells this module's ids apart from those of another process or thread writing to the same log. */
const PREFIX = Math.floor(Math.random() * 36 ** 4)
  .toString(36)
  .padStart(4, '0');

/** A new opaque connection id (`k3f9-1`, `k3f9-2`, …), unique within the process's life. */
export function newConnectionId(): string {
  nextConnection += 1;
  return `${PREFIX}-${nextConnection}`;
}

/** An `McpError` (or anything thrown) as the plain summary payloads carry. */
export function errorSummary(error: unknown): DiagnosticsError {
  if (!isMcpError(error)) {
    return { kind: 'transport', delivery: 'unknown', message: 'an unexpected error (not an McpError)' };
  }
  const summary: DiagnosticsError = { kind: error.kind, delivery: error.delivery, message: error.message };
  if (error.code !== undefined) summary.code = error.code;
  if (error.status !== undefined) summary.status = error.status;
  return summary;
}

// ---- connections ----------------------------------------------------------------------------------

/** One connection's identity for its events, and when it opened. Made once per connection. */
export interface ConnectionTrace {
  readonly connectionId: string;
  readonly target: string;
  readonly transport: string;
  readonly openedAt: number;
}

function base(trace: ConnectionTrace): ConnectionEvent {
  return { connectionId: trace.connectionId, target: trace.target, transport: trace.transport };
}

function since(start: number): number {
  return performance.now() - start;
}

export function connectionOpened(trace: ConnectionTrace): void {
  if (connectionOpen.hasSubscribers) connectionOpen.publish(base(trace));
}

export function connectionIsReady(
  trace: ConnectionTrace,
  protocolVersion: string,
  serverInfo: { name: string; version: string } | undefined,
): void {
  if (!connectionReady.hasSubscribers) return;
  const event: ConnectionReadyEvent = { ...base(trace), protocolVersion, durationMs: since(trace.openedAt) };
  if (serverInfo !== undefined) {
    event.serverName = redact(serverInfo.name, MAX_NAME_CHARS);
    event.serverVersion = redact(serverInfo.version, MAX_NAME_CHARS);
  }
  connectionReady.publish(event);
}

export function connectionFailed(trace: ConnectionTrace, phase: 'connect' | 'ready', error: unknown): void {
  if (!connectionError.hasSubscribers) return;
  const event: ConnectionErrorEvent = {
    ...base(trace),
    phase,
    durationMs: since(trace.openedAt),
    error: errorSummary(error),
  };
  connectionError.publish(event);
}

export function connectionClosed(
  trace: ConnectionTrace,
  report: {
    lateResponsesDropped: number;
    process?: NonNullable<ConnectionCloseEvent['process']> & { stderrTail?: string };
  },
): void {
  if (!connectionClose.hasSubscribers) return;
  const event: ConnectionCloseEvent = {
    ...base(trace),
    durationMs: since(trace.openedAt),
    lateResponsesDropped: report.lateResponsesDropped,
  };
  const p = report.process;
  if (p !== undefined) {
    // Named fields only: the report's stderr tail is server text and stays out.
    event.process = {
      pid: p.pid,
      exitCode: p.exitCode,
      signal: p.signal,
      ended: p.ended,
      activeProcesses: p.activeProcesses,
    };
  }
  connectionClose.publish(event);
}

// ---- requests -------------------------------------------------------------------------------------

/** A request being traced: its event (shared by start and end/error) and its start time. */
export interface RequestTrace {
  readonly event: RequestStartEvent;
  readonly startedAt: number;
}

/** True when anyone listens to request events: only then does a request build a payload. */
export function tracingRequests(): boolean {
  return requestStart.hasSubscribers || requestEnd.hasSubscribers || requestError.hasSubscribers;
}

/** Publishes `request:start`; call only when `tracingRequests()`. */
export function requestStarted(
  trace: ConnectionTrace,
  requestId: number,
  method: string,
  params: Record<string, unknown> | undefined,
): RequestTrace {
  const event: RequestStartEvent = { ...base(trace), requestId, method };
  const name = params?.['name'];
  if (method === 'tools/call' && typeof name === 'string') event.tool = redact(name, MAX_NAME_CHARS);
  if (requestStart.hasSubscribers) requestStart.publish(event);
  return { event, startedAt: performance.now() };
}

export function requestEnded(trace: RequestTrace, result: Record<string, unknown>): void {
  if (!requestEnd.hasSubscribers) return;
  const event = trace.event as RequestEndEvent;
  event.durationMs = since(trace.startedAt);
  if (event.method === 'tools/call') event.isError = result['isError'] === true;
  requestEnd.publish(event);
}

export function requestFailed(trace: RequestTrace, error: unknown): void {
  if (!requestError.hasSubscribers) return;
  const event = trace.event as RequestErrorEvent;
  event.durationMs = since(trace.startedAt);
  event.error = errorSummary(error);
  requestError.publish(event);
}

// ---- stdio ----------------------------------------------------------------------------------------

export function stdioSpawned(connectionId: string, target: string, pid: number): void {
  if (stdioSpawn.hasSubscribers) stdioSpawn.publish({ connectionId, target, transport: 'stdio', pid });
}

export function stdioExited(event: Omit<StdioExitEvent, 'transport'>): void {
  if (!stdioExit.hasSubscribers) return;
  const { connectionId, target, ...rest } = event;
  stdioExit.publish({ connectionId, target, transport: 'stdio', ...rest });
}

/** True when anyone listens to stdio exits (the caller then measures the process's run time). */
export function tracingStdioExit(): boolean {
  return stdioExit.hasSubscribers;
}

// ---- http -----------------------------------------------------------------------------------------

/** An HTTP request being traced: its event (shared by request and response/error) and its start time. */
export interface HttpTrace {
  readonly event: HttpRequestEvent;
  readonly startedAt: number;
}

/** Publishes `http:request` when anyone listens to HTTP events; undefined (no allocation) otherwise. */
export function httpRequestStarted(
  connectionId: string,
  target: string,
  method: string,
  rpcMethod: string | undefined,
): HttpTrace | undefined {
  if (!httpRequest.hasSubscribers && !httpResponse.hasSubscribers && !httpError.hasSubscribers) return;
  const event: HttpRequestEvent = { connectionId, target, transport: 'http', method };
  if (rpcMethod !== undefined) event.rpcMethod = rpcMethod;
  if (httpRequest.hasSubscribers) httpRequest.publish(event);
  return { event, startedAt: performance.now() };
}

export function httpResponded(trace: HttpTrace, status: number): void {
  if (!httpResponse.hasSubscribers) return;
  const event = trace.event as HttpResponseEvent;
  event.status = status;
  event.durationMs = since(trace.startedAt);
  httpResponse.publish(event);
}

export function httpFailed(trace: HttpTrace, error: unknown, aborted: boolean): void {
  if (!httpError.hasSubscribers) return;
  const event = trace.event as HttpErrorEvent;
  event.durationMs = since(trace.startedAt);
  event.aborted = aborted;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') event.errorCode = code.slice(0, 60);
  httpError.publish(event);
}

// ---- the debug log --------------------------------------------------------------------------------

/**
 * True when the debug log is on: `AUTOS_MCP_DEBUG` set to anything but '' or '0', or `NODE_DEBUG` naming
 * `autos-mcp` (as `util.debuglog` reads it: comma-separated, case-insensitive, `*` wildcards). Read once.
 */
export const debugEnabled: boolean = debugWanted(globalThis.process?.env ?? {});

export function debugWanted(env: Record<string, string | undefined>): boolean {
  const own = env['AUTOS_MCP_DEBUG'];
  if (own !== undefined && own !== '' && own !== '0') return true;
  const node = env['NODE_DEBUG'];
  if (node === undefined || node === '') return false;
  return node.split(/[\s,]+/).some((pattern) => {
    if (pattern === '') return false;
    const source = pattern.replace(/[|\\{}()[\]^$+?.]/g, '\\$&').replace(/\*/g, '.*');
    return new RegExp(`^${source}$`, 'i').test('autos-mcp');
  });
}

type Sink = (message: unknown, name: string | symbol) => void;
/** Events before the logger module is loaded (one import away), copied, in order; bounded. */
const early: [unknown, string | symbol][] = [];
const MAX_EARLY = 1000;
let sink: Sink | undefined;

/** Name of the pseudo-channel of free-text debug notes (not a diagnostics channel: never published). */
export const NOTE = 'autos-mcp:note';

function forward(message: unknown, name: string | symbol): void {
  if (sink !== undefined) sink(message, name);
  // Shared payloads gain fields later (request start → end): keep what they held at this moment.
  else if (early.length < MAX_EARLY)
    early.push([typeof message === 'object' ? { ...message } : message, name]);
}

/**
 * A free-text line for the debug log only (already redacted; it is sanitized for the terminal when
 * written). A no-op when the log is off; build costly text only `if (debugEnabled)`.
 */
export function debugNote(connectionId: string | undefined, text: string): void {
  if (debugEnabled) forward({ connectionId, text }, NOTE);
}

/** `util.format`-style {@link debugNote} without a connection id, formatted only when the log is on. */
export function debugLog(format: string, ...args: unknown[]): void {
  if (debugEnabled) forward({ text: nodeUtil().formatWithOptions({ depth: 2 }, format, ...args) }, NOTE);
}

/** Whether the debug log's module is loaded: `'off'` (never, the log is off), `'loading'`, `'on'`. */
export function debugLogState(): 'off' | 'loading' | 'on' {
  if (!debugEnabled) return 'off';
  return sink === undefined ? 'loading' : 'on';
}

if (debugEnabled && typeof dc.subscribe === 'function') {
  for (const name of Object.values(NAMES)) dc.subscribe(name, forward);
  void import('./debug-log.js').then(
    (logger) => {
      sink = logger.createDebugLog();
      for (const [message, name] of early.splice(0)) sink(message, name);
    },
    () => undefined,
  );
}
