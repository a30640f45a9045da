/**
 * Request correlation and deadlines: one id counter, a pending map, a deadline and an abort path per
 * request, and progress that restarts a deadline. It knows no transport: it talks to a `Connection` and
 * reads its traits. Server requests and notifications are routed to the handlers it is given. Its one
 * promise to callers: a request settles exactly once, with its own answer or an `McpError` whose
 * `delivery` is honest; a late answer never reaches another call.
 */
import { durationMs } from '../config/durations.js';
import {
  type ConnectionTrace,
  connectionClosed,
  connectionFailed,
  connectionOpened,
  debugNote,
  newConnectionId,
  requestEnded,
  requestFailed,
  requestStarted,
  tracingRequests,
} from '../diagnostics/publish.js';
import { McpError, RpcError } from '../errors/index.js';
import {
  classify,
  isErrorResponse,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  MISSING_REQUIRED_CLIENT_CAPABILITY,
  type RequestId,
} from '../protocol/jsonrpc.js';
import type { Connection, ConnectionCloseReport } from '../transport/connection.js';
import type { EngineRequestOptions } from './call-options.js';
import { LateAnswers } from './late-answers.js';
import { missingCapabilityError } from './missing-capability.js';
import { arm, ControllerPool, failPending, type Pending, PendingTable, readProgress } from './pending.js';

export interface EngineSettings {
  target: string;
  /** The connection's id in diagnostics events (default: a new one). */
  connectionId?: string;
  defaultTimeoutMs: number;
  /** Receives every server→client request (already checked to be JSON-RPC). Must not throw. */
  onServerRequest(message: JsonRpcRequest): void;
  /** Receives every server notification other than progress. Must not throw. */
  onNotification(message: JsonRpcNotification): void;
}

/** What the engine's `close()` reports: the connection's report plus what the engine counted. */
export interface EngineCloseReport extends ConnectionCloseReport {
  lateResponsesDropped: number;
}

/** Requests in flight at once before new ones are refused with `kind: 'busy'`. */
const MAX_IN_FLIGHT = 4096;

export class Engine {
  readonly #connection: Connection;
  readonly #settings: EngineSettings;
  readonly #pending = new PendingTable();
  readonly #late = new LateAnswers();
  readonly #controllers = new ControllerPool();
  /** True when the transport ends an exchange when its send signal aborts. */
  readonly #abortable: boolean;
  /** Whether an abandoned request gets `notifications/cancelled`; decided by the handshake. */
  #notifyCancel = true;
  #nextId = 1;
  #closedError: McpError | undefined;
  #failure: McpError | undefined;
  #closing: Promise<EngineCloseReport> | undefined;
  /** True once the handshake is over (`markReady`): a failure after that is the ready connection's, not connect's. */
  #ready = false;
  /** The connection's identity in diagnostics events. */
  readonly trace: ConnectionTrace;

  constructor(connection: Connection, settings: EngineSettings) {
    this.#connection = connection;
    this.#settings = settings;
    this.#abortable = connection.traits.cancelBy === 'abort';
    this.trace = {
      connectionId: settings.connectionId ?? newConnectionId(),
      target: settings.target,
      transport: connection.kind,
      openedAt: performance.now(),
    };
  }

  /** True once the connection failed or was closed. */
  get closed(): boolean {
    return this.#closedError !== undefined;
  }

  /** The deadline of a request that names none, in ms. */
  get defaultTimeoutMs(): number {
    return this.#settings.defaultTimeoutMs;
  }

  /** Why the connection ended by itself (the server exited, a fatal message), or undefined. */
  get failure(): McpError | undefined {
    return this.#failure;
  }

  /** Starts the connection and begins routing its messages. */
  async start(): Promise<void> {
    connectionOpened(this.trace);
    await this.#connection.start({
      message: (value) => this.#receive(value),
      closed: (error) => this.#onConnectionClosed(error),
      diagnostic: (text) => debugNote(this.trace.connectionId, text),
    });
  }

  /** The handshake is over: from now on a failure of the connection is published as the ready connection's. */
  markReady(): void {
    this.#ready = true;
  }

  /**
   * How abandoned requests are cancelled from now on: `'notification'` sends `notifications/cancelled`,
   * `'abort'` only ends the exchange (S26/basic/patterns/cancellation over HTTP).
   */
  cancelBy(mode: 'notification' | 'abort'): void {
    this.#notifyCancel = mode === 'notification';
  }

  /** Sends a request and resolves with its `result` object, or rejects with an `McpError`. */
  request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: EngineRequestOptions = {},
  ): Promise<Record<string, unknown>> {
    const refused = this.#refusal(method, options.signal);
    if (refused) {
      const id = this.#nextId++; // never on the wire; its events still need an id of their own
      if (tracingRequests()) requestFailed(requestStarted(this.trace, id, method, params), refused);
      return Promise.reject(refused);
    }
    let timeoutMs: number;
    let maxTotalMs: number;
    try {
      timeoutMs = durationMs(options.timeoutMs, 'timeoutMs', this.#settings.defaultTimeoutMs, {
        positive: true,
      });
      maxTotalMs = durationMs(options.maxTotalTimeoutMs, 'maxTotalTimeoutMs', timeoutMs * 5, {
        positive: true,
      });
    } catch (error) {
      return Promise.reject(error);
    }
    const id = this.#nextId++;
    options.onId?.(id);
    const message: JsonRpcRequest = { jsonrpc: '2.0', id, method };
    if (options.onProgress) {
      // The request id doubles as the progress token: unique among active requests (S25/basic/utilities/progress, S26/basic/patterns/progress).
      const meta = { ...(params?.['_meta'] as Record<string, unknown> | undefined), progressToken: id };
      message.params = { ...params, _meta: meta };
    } else if (params !== undefined) {
      message.params = params;
    }

    return new Promise<Record<string, unknown>>((resolve, reject) => {
      const controller = this.#abortable ? this.#controllers.take() : undefined;
      const signal = options.signal;
      const onAbort = () => this.#abandon(id, 'cancelled', 'cancelled by the caller');
      signal?.addEventListener('abort', onAbort, { once: true });
      const pending: Pending = {
        method,
        resolve,
        reject,
        controller,
        timer: undefined,
        timeoutMs,
        hardDeadline: Date.now() + maxTotalMs,
        onProgress: options.onProgress,
        noCancel: options.noCancelNotification === true,
        detach: signal ? () => signal.removeEventListener('abort', onAbort) : noop,
        // Built only when someone listens: without subscribers a request allocates nothing for diagnostics.
        trace: tracingRequests() ? requestStarted(this.trace, id, method, message.params) : undefined,
      };
      this.#pending.add(id, pending);
      this.#arm(id, pending, timeoutMs);
      const sendOptions = {
        ...(controller ? { signal: controller.signal } : {}),
        ...(options.headers ? { headers: options.headers } : {}),
        ...(options.resumable ? { resumable: true } : {}),
      };
      this.#connection.send(message, sendOptions).then(
        () => {
          // Reusable once the request is settled without an abort (only #abandon aborts, while pending).
          if (controller !== undefined && !this.#pending.has(id)) this.#controllers.give(controller);
        },
        (error: unknown) => this.#sendFailed(id, error),
      );
    });
  }

  /** What the connection tolerated that may explain a failure, as a clause to append; '' when nothing. */
  note(): string {
    return this.#note();
  }

  #note(): string {
    const note = this.#connection.note?.();
    return note === undefined ? '' : `; ${note}`;
  }

  /** Why a request cannot be sent at all (it is then `not_sent`), or undefined. */
  #refusal(method: string, signal: AbortSignal | undefined): McpError | undefined {
    const target = this.#settings.target;
    const on = `${method} on ${target}`;
    // The message says why; `delivery: 'not_sent'` says it never left (renderers show that note once).
    if (this.#closedError)
      return new McpError('closed', `${on}: the connection is already closed`, {
        cause: this.#closedError,
        target,
      });
    if (signal?.aborted) return new McpError('cancelled', `${on}: cancelled by the caller`, { target });
    if (this.#pending.size >= MAX_IN_FLIGHT)
      return new McpError('busy', `${on}: ${MAX_IN_FLIGHT} requests are already in flight`, { target });
    return undefined;
  }

  /** Sends a notification. Rejects with an `McpError` when it could not be sent. */
  async notify(
    method: string,
    params?: Record<string, unknown>,
    headers?: Readonly<Record<string, string>>,
  ): Promise<void> {
    const refused =
      this.#closedError && `${method} to ${this.#settings.target}: the connection is already closed`;
    if (refused) throw new McpError('closed', refused, { target: this.#settings.target });
    const message: JsonRpcNotification = { jsonrpc: '2.0', method };
    if (params !== undefined) message.params = params;
    await this.#connection.send(message, headers ? { headers } : {});
  }

  /**
   * Closes the connection: pending requests are rejected with `kind: 'closed'`, then the transport closes
   * (for stdio: the whole process tree). Idempotent and safe to call concurrently.
   */
  close(): Promise<EngineCloseReport> {
    if (!this.#closing) {
      const target = this.#settings.target;
      const error = new McpError('closed', `the connection to ${target} was closed by the client`, {
        target,
      });
      this.#closedError ??= error;
      this.#pending.rejectAll(error, this.#settings.target, this.#note());
      this.#closing = this.#connection.close().then((report) => {
        const closed = { ...report, lateResponsesDropped: this.#late.dropped };
        connectionClosed(this.trace, closed);
        return closed;
      });
    }
    return this.#closing;
  }

  #arm(id: RequestId, pending: Pending, ms: number): void {
    arm(pending, ms, () => this.#abandon(id, 'timeout', `no answer within ${pending.timeoutMs} ms`));
  }

  /**
   * Gives up on a request after a timeout or an abort: reject now, tell the server, drop any late answer.
   * `send()` was called, so the message is on its way: it may run on the server (`delivery: 'unknown'`).
   */
  #abandon(id: RequestId, kind: 'timeout' | 'cancelled', why: string): void {
    const pending = this.#pending.settle(id);
    if (!pending) return;
    this.#late.remember(id);
    // No delivery note in the text: `delivery: 'unknown'` says it was sent and may have run.
    const text = `${pending.method} on ${this.#settings.target}: ${why}${this.#note()}`;
    failPending(pending, new McpError(kind, text, { delivery: 'unknown', target: this.#settings.target }));
    pending.controller?.abort();
    if (this.#notifyCancel && !pending.noCancel && !this.#closedError) {
      // S25/basic/utilities/cancellation, S26/basic/patterns/cancellation: tell the server; ignore failures.
      this.notify('notifications/cancelled', {
        requestId: id,
        reason: kind === 'timeout' ? 'timeout' : 'cancelled',
      }).catch(() => {});
    }
  }

  #sendFailed(id: RequestId, error: unknown): void {
    const pending = this.#pending.settle(id);
    if (!pending) return;
    if (error instanceof McpError) {
      // `node x.mjs (pid 7) exited with code 1` (found by the write): said for this request.
      failPending(
        pending,
        error.exit !== undefined
          ? new McpError('closed', `${pending.method} failed: ${error.message}`, {
              delivery: error.delivery,
              cause: error,
              target: this.#settings.target,
              ...(error.stderrTail === undefined ? {} : { stderrTail: error.stderrTail }),
            })
          : error,
      );
      return;
    }
    failPending(
      pending,
      new McpError('transport', `${pending.method} on ${this.#settings.target} failed while sending`, {
        delivery: 'unknown',
        cause: error,
        target: this.#settings.target,
      }),
    );
  }

  #receive(value: unknown): void {
    const classified = classify(value);
    switch (classified.type) {
      case 'response':
        this.#onResponse(classified.message);
        return;
      case 'request':
        this.#settings.onServerRequest(classified.message);
        return;
      case 'notification':
        if (classified.message.method === 'notifications/progress') this.#onProgress(classified.message);
        else this.#settings.onNotification(classified.message);
        return;
      case 'invalid': {
        const text = `${this.#settings.target} sent a message that is not JSON-RPC: ${classified.reason}`;
        const target = this.#settings.target;
        this.#onConnectionClosed(new McpError('protocol', text, { delivery: 'unknown', target }), true);
        return;
      }
    }
  }

  #onResponse(message: JsonRpcResponse): void {
    const id = message.id;
    if (id === undefined || id === null) {
      debugNote(this.trace.connectionId, 'an error response without id was ignored');
      return;
    }
    const pending = this.#pending.settle(id);
    if (!pending) {
      // A late answer to an abandoned request, or an answer nobody asked for: never hand it to another call.
      this.#late.count(id);
      return;
    }
    if (isErrorResponse(message)) {
      const { code, message: text, data } = message.error;
      const target = this.#settings.target;
      failPending(
        pending,
        code === MISSING_REQUIRED_CLIENT_CAPABILITY
          ? missingCapabilityError(pending.method, target, code, text, data)
          : new RpcError(pending.method, target, code, text, data),
      );
    } else {
      if (pending.trace !== undefined) requestEnded(pending.trace, message.result);
      pending.resolve(message.result);
    }
  }

  #onProgress(message: JsonRpcNotification): void {
    const params = message.params ?? {};
    const token = params['progressToken'];
    if (typeof token !== 'number' && typeof token !== 'string') return;
    const pending = this.#pending.get(token);
    // Only a call that handed out a progress token may be kept alive by progress on it.
    if (pending?.onProgress === undefined) return;
    const progress = readProgress(params);
    if (!progress) return;
    // Progress restarts the deadline, never past the hard cap.
    this.#arm(token, pending, pending.timeoutMs);
    try {
      pending.onProgress(progress);
    } catch (error) {
      debugNote(this.trace.connectionId, `onProgress threw: ${describeThrown(error)}`);
    }
  }

  /** The connection ended by itself (`closed` event), or the client must end it (`close` true). */
  #onConnectionClosed(error: McpError, close = false): void {
    if (this.#closedError) return;
    this.#closedError = error;
    this.#failure = error;
    // During the handshake connect() reports the failure (phase 'connect'), in the words it rejects with.
    if (this.#ready) connectionFailed(this.trace, 'ready', error);
    this.#pending.rejectAll(error, this.#settings.target, this.#note());
    if (close) this.close().catch(() => {});
  }
}

function noop(): void {}

/** A thrown value for the debug log: an error's name and message (never its data or cause). */
function describeThrown(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : typeof error;
}
