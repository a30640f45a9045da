/**
 * `HttpConnection`: the Streamable HTTP transport behind the `Connection` contract. One POST per message
 * over a keep-alive undici pool, the 2025-11-25 session id and GET stream, and a `close()` that aborts
 * what is in flight and ends the session with DELETE. Spec: S25/basic/transports, S26/basic/transports/streamable-http.
 */
import { debuglog } from 'node:util';
import type { Dispatcher } from 'undici';
import { McpError } from '../../errors/index.js';
import type { JsonRpcMessage } from '../../protocol/jsonrpc.js';
import type { CloseReport, Connection, ConnectionEvents, SendOptions } from '../connection.js';
import type { HttpTransportOptions } from '../options.js';
import { discard } from './body.js';
import { createDispatcher } from './dispatcher.js';
import { ACCEPT_POST, headerValue, postExchange } from './exchange.js';
import { ListenStream } from './listen.js';
import { buildHeaders, type HttpShell, issue } from './shell.js';

const debug = debuglog('autos-mcp');
/** How long `close()` waits for the session DELETE. */
const DELETE_TIMEOUT_MS = 2000;

const REPORT: CloseReport = {
  activeProcesses: 0,
  exitCode: null,
  signal: null,
  ended: 'none',
  stderrTail: '',
  lateResponsesDropped: 0,
};

/**
 * A Streamable HTTP connection to one MCP endpoint. `send()` resolves when its exchange is over;
 * `close()` is idempotent and safe to call concurrently: every caller gets the same report.
 */
export class HttpConnection implements Connection {
  readonly transport = 'http' as const;
  readonly target: string;
  private readonly shell: HttpShell;
  private readonly dispatcher: Dispatcher;
  private readonly inFlight = new Set<AbortController>();
  private events: ConnectionEvents | undefined;
  private listener: ListenStream | undefined;
  private closing: Promise<CloseReport> | undefined;

  constructor(options: HttpTransportOptions) {
    this.target = `${options.url.origin}${options.url.pathname}`;
    this.dispatcher = createDispatcher(options);
    const fixed: Record<string, string> = { ...options.headers };
    if (options.authToken !== undefined) fixed['authorization'] = `Bearer ${options.authToken}`;
    this.shell = {
      dispatcher: this.dispatcher,
      url: options.url,
      target: this.target,
      maxMessageBytes: options.maxMessageBytes,
      fixedHeaders: fixed,
      sessionId: undefined,
      protocolVersion: undefined,
      deliver: (value) => {
        if (this.closing === undefined) this.events?.message(value);
      },
      logging: debug.enabled,
      log: (text) => debug('http %s %s', this.target, text),
    };
  }

  /** The 2025-11-25 session id, when the server assigned one (for diagnostics and tests). */
  get sessionId(): string | undefined {
    return this.shell.sessionId;
  }

  async start(events: ConnectionEvents): Promise<void> {
    if (this.closing !== undefined)
      throw new McpError('closed', `start ${this.target}: the connection is closed`);
    this.events = events;
  }

  async send(message: JsonRpcMessage, options: SendOptions = {}): Promise<void> {
    const method = 'method' in message ? message.method : 'response';
    if (this.closing !== undefined)
      throw new McpError('closed', `POST ${method} to ${this.target}: the connection is closed`);
    const version = headerValue(options.headers, 'mcp-protocol-version');
    if (version !== undefined) this.shell.protocolVersion = version;
    // One controller per exchange, aborted by the caller's signal or by close(). Not AbortSignal.any():
    // on Node 20 it leaves a listener on the long-lived signal per call until GC runs.
    const local = new AbortController();
    const caller = options.signal;
    const onAbort = () => local.abort();
    if (caller?.aborted) local.abort();
    else caller?.addEventListener('abort', onAbort, { once: true });
    this.inFlight.add(local);
    try {
      await postExchange(this.shell, {
        message,
        options,
        signal: local.signal,
        abortCause: () => (caller?.aborted === true ? 'cancelled' : 'closed'),
      });
    } finally {
      this.inFlight.delete(local);
      caller?.removeEventListener('abort', onAbort);
    }
  }

  /** Opens the 2025-11-25 GET stream for server-initiated messages; 405 quietly ends it. */
  listen(): void {
    if (this.closing !== undefined) return;
    this.listener ??= new ListenStream(this.shell, (text) => {
      debug('http %s %s', this.target, text);
      if (this.closing === undefined) this.events?.diagnostic?.(text);
    });
    this.listener.start();
  }

  close(): Promise<CloseReport> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<CloseReport> {
    this.listener?.stop();
    for (const exchange of this.inFlight) exchange.abort();
    const sessionId = this.shell.sessionId;
    if (sessionId !== undefined) await this.deleteSession();
    await this.dispatcher.destroy().catch(() => undefined);
    return { ...REPORT };
  }

  /** S25/basic/transports: SHOULD send DELETE with the session id when done; 405/404 are fine, so is silence. */
  private async deleteSession(): Promise<void> {
    const perMessage: Record<string, string> = {};
    if (this.shell.protocolVersion !== undefined)
      perMessage['mcp-protocol-version'] = this.shell.protocolVersion;
    const headers = buildHeaders(this.shell, ACCEPT_POST, perMessage, true, false);
    const started = performance.now();
    try {
      const response = await issue(
        this.shell,
        'DELETE',
        headers,
        null,
        AbortSignal.timeout(DELETE_TIMEOUT_MS),
      );
      discard(response.body);
      this.shell.log(`DELETE session -> ${response.statusCode} ${Math.round(performance.now() - started)}ms`);
    } catch {
      this.shell.log('DELETE session -> no answer');
    }
    this.shell.sessionId = undefined;
  }
}
