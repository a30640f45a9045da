/**
 * `HttpConnection`: the Streamable HTTP transport behind the `Connection` contract. One POST per message
 * over a keep-alive pool (pool.ts), the 2025-11-25 session id and GET stream, a `close()` that aborts
 * what is in flight and ends the session with DELETE, and a `destroy()` that skips the DELETE.
 * Spec: S25/basic/transports, S26/basic/transports/streamable-http.
 */
import type { Dispatcher } from 'undici';
import { debugEnabled, debugNote, newConnectionId } from '../../diagnostics/publish.js';
import { McpError } from '../../errors/index.js';
import type { SecretRegistration } from '../../internal/known-secrets.js';
import type { JsonRpcMessage } from '../../protocol/jsonrpc.js';
import { carriesVersionHeader } from '../../protocol/versions.js';
import { type Authorizer, bearerAuthorizer, maskingAuthorizer } from '../authorizer.js';
import type {
  Connection,
  ConnectionCloseReport,
  ConnectionEvents,
  ConnectionTraits,
  NegotiatedTerms,
  SendOptions,
} from '../connection.js';
import type { HttpTransportOptions } from '../options.js';
import { discard } from './body.js';
import { createPool } from './create-pool.js';
import { postExchange } from './exchange.js';
import { HeaderBuilder } from './headers.js';
import { ListenStream } from './listen.js';
import { type HttpShell, issue } from './shell.js';

/** How long `close()` waits for the session DELETE. */
const DELETE_TIMEOUT_MS = 2000;

const TRAITS: ConnectionTraits = Object.freeze({
  perMessageHeaders: true,
  cancelBy: 'abort',
  resumable: true,
  serverStream: true,
  answersEveryRequest: true,
});

/** What the caller hands in besides the plain-data options: code and shared resources. */
export interface HttpConnectionExtras {
  /** Supplies `Authorization` per request and hears about 401/403 (e.g. OAuth). Not with `authToken`. */
  auth?: Authorizer | undefined;
  /** An undici dispatcher to use instead of a pool of our own; the caller owns it (it is not closed). */
  dispatcher?: Dispatcher | undefined;
  /** The client's id for this connection in diagnostics events (default: a new one). */
  connectionId?: string | undefined;
  /** The connection's known secrets (see `openConnection`): released once closed. */
  secrets?: SecretRegistration | undefined;
}

/**
 * A Streamable HTTP connection to one MCP endpoint. `send()` resolves when its exchange is over;
 * `close()` is idempotent and safe to call concurrently: every caller gets the same report.
 */
export class HttpConnection implements Connection {
  readonly kind = 'http';
  readonly traits = TRAITS;
  readonly target: string;
  private readonly shell: HttpShell;
  private readonly ownsPool: boolean;
  private readonly inFlight = new Set<AbortController>();
  private events: ConnectionEvents | undefined;
  private listener: ListenStream | undefined;
  private closing: Promise<ConnectionCloseReport> | undefined;
  /** Ends the session DELETE of a running close, when `destroy()` cuts it short. */
  private readonly destroyed = new AbortController();
  private readonly secrets: SecretRegistration | undefined;

  constructor(options: HttpTransportOptions, extras: HttpConnectionExtras = {}) {
    this.target = `${options.url.origin}${options.url.pathname}`;
    if (options.authToken !== undefined && extras.auth !== undefined) {
      throw new McpError('config', `${this.target}: give authToken or an authorizer, not both`);
    }
    this.ownsPool = extras.dispatcher === undefined;
    this.secrets = extras.secrets;
    const given =
      extras.auth ?? (options.authToken === undefined ? undefined : bearerAuthorizer(options.authToken));
    // What the authorizer hands out (an OAuth token, refreshed) is masked like the config's values.
    const authorizer =
      given === undefined || this.secrets === undefined ? given : maskingAuthorizer(given, this.secrets);
    const connectionId = extras.connectionId ?? newConnectionId();
    this.shell = {
      pool: extras.dispatcher ?? createPool(options),
      url: options.url,
      target: this.target,
      maxMessageBytes: options.maxMessageBytes,
      headers: new HeaderBuilder({ url: options.url, userHeaders: options.headers, authorizer }),
      authorizer,
      connectionId,
      deliver: (value) => {
        if (this.closing === undefined) this.events?.message(value);
      },
      logging: debugEnabled,
      log: (text) => debugNote(connectionId, text),
    };
  }

  /** The 2025-11-25 session id, when the server assigned one (for diagnostics and tests). */
  get sessionId(): string | undefined {
    return this.shell.headers.sessionId;
  }

  async start(events: ConnectionEvents): Promise<void> {
    if (this.closing !== undefined)
      throw new McpError('closed', `start ${this.target}: the connection is closed`);
    this.events = events;
  }

  async send(message: JsonRpcMessage, options: SendOptions = {}): Promise<void> {
    if (this.closing !== undefined) {
      const method = 'method' in message ? message.method : 'response';
      throw new McpError('closed', `POST ${method} to ${this.target}: the connection is closed`);
    }
    const caller = options.signal;
    if (caller !== undefined && this.ownsPool) {
      // The caller's signal goes to the pool as it is: close() ends these exchanges by destroying the pool,
      // so no controller of our own is needed (one per call cost ~3 µs, a few percent of a loopback call).
      await postExchange(this.shell, {
        message,
        options,
        signal: caller,
        abortCause: () => (this.closing !== undefined ? 'closed' : 'cancelled'),
        isClosing: () => this.closing !== undefined,
      });
      return;
    }
    // One controller per exchange, aborted by the caller's signal or by close(). Not AbortSignal.any():
    // on Node 20 it leaves a listener on the long-lived signal per call until GC runs.
    const local = new AbortController();
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
        isClosing: () => this.closing !== undefined,
      });
    } finally {
      this.inFlight.delete(local);
      caller?.removeEventListener('abort', onAbort);
    }
  }

  /** GET and DELETE carry the negotiated version (from 2025-06-18 on); clients that answer server requests get the GET stream. */
  negotiated(terms: NegotiatedTerms): void {
    if (carriesVersionHeader(terms.protocolVersion))
      this.shell.headers.setProtocolVersion(terms.protocolVersion);
    if (terms.openServerStream) this.listen();
  }

  /** Opens the 2025-11-25 GET stream for server-initiated messages; 405 quietly ends it. Idempotent. */
  listen(): void {
    if (this.closing !== undefined) return;
    // The engine writes these notes to the debug log (connection diagnostics).
    this.listener ??= new ListenStream(this.shell, (text) => {
      if (this.closing === undefined) this.events?.diagnostic?.(text);
    });
    this.listener.start();
  }

  close(): Promise<ConnectionCloseReport> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  /**
   * Ends the connection now: every exchange and the GET stream are aborted and a pool of our own is
   * destroyed, with no session DELETE (a close waiting on its DELETE stops waiting). Idempotent.
   */
  destroy(): void {
    this.closing ??= Promise.resolve({});
    this.destroyed.abort();
    this.abortAll();
    if (this.ownsPool) this.shell.pool.destroy().catch(() => undefined);
    this.secrets?.release();
  }

  private async shutdown(): Promise<ConnectionCloseReport> {
    this.abortAll();
    if (this.shell.headers.sessionId !== undefined) await this.deleteSession();
    if (this.ownsPool) await this.shell.pool.destroy().catch(() => undefined);
    this.secrets?.release();
    return {};
  }

  private abortAll(): void {
    this.listener?.stop();
    for (const exchange of this.inFlight) exchange.abort();
  }

  /** S25/basic/transports: SHOULD send DELETE with the session id when done; 405/404 are fine, so is silence. */
  private async deleteSession(): Promise<void> {
    const started = performance.now();
    try {
      const { response } = await issue(
        this.shell,
        { method: 'DELETE' },
        null,
        AbortSignal.any([AbortSignal.timeout(DELETE_TIMEOUT_MS), this.destroyed.signal]),
      );
      discard(response.body);
      this.shell.log(`DELETE session -> ${response.statusCode} ${Math.round(performance.now() - started)}ms`);
    } catch {
      this.shell.log('DELETE session -> no answer');
    }
    this.shell.headers.dropSession();
  }
}
