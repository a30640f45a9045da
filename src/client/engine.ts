/**
 * The JSON-RPC engine: one id counter, a pending map, a deadline and an abort signal per request, and the
 * answers the client owes the server (ping, -32601 for what was not declared). It knows no transport: it
 * talks to a `Connection`. Its one promise to callers: a request settles exactly once, with its own
 * answer or an `McpError` whose `delivery` is honest; a late answer never reaches another call.
 */
import { debuglog } from 'node:util';
import { McpError, RpcError } from '../errors/index.js';
import { redact } from '../internal/redact.js';
import {
  classify,
  isErrorResponse,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  METHOD_NOT_FOUND,
  type RequestId,
} from '../protocol/jsonrpc.js';
import type { CloseOptions, CloseReport, Connection } from '../transport/connection.js';

const log = debuglog('autos-mcp');

/** A `notifications/progress` update for one call. */
export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

/** Options every request accepts. */
export interface CallOptions {
  /** Deadline in ms; resets on each progress update of this call (see `maxTotalTimeoutMs`). */
  timeoutMs?: number;
  /** Hard cap in ms however much progress arrives. Default: 5 × the deadline. */
  maxTotalTimeoutMs?: number;
  /** Aborting cancels the call at once: `kind: 'cancelled'`. */
  signal?: AbortSignal;
  /** Called for each progress update the server sends for this call. */
  onProgress?: (progress: Progress) => void;
}

export interface EngineRequestOptions extends CallOptions {
  headers?: Readonly<Record<string, string>>;
  resumable?: boolean;
  /** `initialize` MUST NOT be cancelled (S25/basic/utilities/cancellation). */
  noCancelNotification?: boolean;
}

export type ServerRequestHandler = (
  method: string,
  params: Record<string, unknown> | undefined,
) => Promise<Record<string, unknown>> | undefined;

export interface EngineSettings {
  target: string;
  defaultTimeoutMs: number;
  /** Send `notifications/cancelled` when a sent request is abandoned (stdio, and HTTP in 2025). */
  cancelNotification: boolean;
  /** Serves a server→client request; `undefined` means "not declared" and gets -32601. */
  onServerRequest?: ServerRequestHandler;
  /** HTTP headers for notifications the engine sends (2025 over HTTP: the negotiated version header). */
  notificationHeaders?: () => Readonly<Record<string, string>> | undefined;
  /** Receives every server notification other than progress (already checked to be JSON-RPC). */
  onNotification?: (message: JsonRpcNotification) => void;
}

interface Pending {
  method: string;
  resolve: (result: Record<string, unknown>) => void;
  reject: (error: McpError) => void;
  sent: boolean;
  /** Closes the exchange on abandon (HTTP); stdio needs none — a written line cannot be taken back. */
  controller: AbortController | undefined;
  timer: NodeJS.Timeout | undefined;
  timeoutMs: number;
  hardDeadline: number;
  onProgress: ((progress: Progress) => void) | undefined;
  noCancel: boolean;
  detach: () => void;
}

/** Ids of abandoned requests remembered to recognise late answers; bounded. */
const ABANDONED_MEMORY = 1024;
/** Requests in flight at once before new ones are refused with `kind: 'busy'`. */
const MAX_IN_FLIGHT = 4096;
/** Unaborted HTTP abort controllers kept for reuse (see `#recycle`); sequential callers need one or two. */
const SPARE_CONTROLLERS = 8;

export class Engine {
  readonly #connection: Connection;
  readonly #settings: EngineSettings;
  readonly #pending = new Map<RequestId, Pending>();
  readonly #abandoned = new Set<RequestId>();
  readonly #spareControllers: AbortController[] = [];
  #nextId = 1;
  #closedError: McpError | undefined;
  #closing: Promise<CloseReport> | undefined;
  lateResponsesDropped = 0;
  unknownResponses = 0;

  constructor(connection: Connection, settings: EngineSettings) {
    this.#connection = connection;
    this.#settings = settings;
  }

  get settings(): EngineSettings {
    return this.#settings;
  }

  get connection(): Connection {
    return this.#connection;
  }

  /** True once the connection failed or was closed. */
  get closed(): boolean {
    return this.#closedError !== undefined;
  }

  /** Starts the connection and begins routing its messages. */
  async start(): Promise<void> {
    await this.#connection.start({
      message: (value) => this.#receive(value),
      closed: (error) => this.#onConnectionClosed(error),
      diagnostic: (text) => log('%s: %s', this.#settings.target, text),
    });
  }

  /** Sends a request and resolves with its `result` object, or rejects with an `McpError`. */
  request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: EngineRequestOptions = {},
  ): Promise<Record<string, unknown>> {
    const target = this.#settings.target;
    if (this.#closedError) {
      return Promise.reject(
        new McpError('closed', `${method} on ${target} was not sent: the connection is closed`, {
          cause: this.#closedError,
        }),
      );
    }
    if (options.signal?.aborted) {
      return Promise.reject(
        new McpError('cancelled', `${method} on ${target} was cancelled before it was sent`),
      );
    }
    if (this.#pending.size >= MAX_IN_FLIGHT) {
      return Promise.reject(
        new McpError(
          'busy',
          `${method} on ${target} was not sent: ${MAX_IN_FLIGHT} requests are already in flight`,
        ),
      );
    }
    const id = this.#nextId++;
    const timeoutMs = options.timeoutMs ?? this.#settings.defaultTimeoutMs;
    const message: JsonRpcRequest = { jsonrpc: '2.0', id, method };
    let outgoing = params;
    if (options.onProgress) {
      // The request id doubles as the progress token: unique among active requests (S25+26/basic/utilities/progress).
      const meta = {
        ...((params?.['_meta'] as Record<string, unknown> | undefined) ?? {}),
        progressToken: id,
      };
      outgoing = { ...params, _meta: meta };
    }
    if (outgoing !== undefined) message.params = outgoing;

    return new Promise<Record<string, unknown>>((resolve, reject) => {
      const controller =
        this.#connection.transport === 'http'
          ? (this.#spareControllers.pop() ?? new AbortController())
          : undefined;
      const onAbort = () => this.#abandon(id, 'cancelled', 'cancelled by the caller');
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const pending: Pending = {
        method,
        resolve,
        reject,
        sent: false,
        controller,
        timer: undefined,
        timeoutMs,
        hardDeadline: Date.now() + (options.maxTotalTimeoutMs ?? timeoutMs * 5),
        onProgress: options.onProgress,
        noCancel: options.noCancelNotification === true,
        detach: () => options.signal?.removeEventListener('abort', onAbort),
      };
      this.#pending.set(id, pending);
      this.#arm(id, pending, timeoutMs);
      pending.sent = true;
      const sendOptions = {
        ...(controller ? { signal: controller.signal } : {}),
        ...(options.headers ? { headers: options.headers } : {}),
        ...(options.resumable ? { resumable: true } : {}),
      };
      this.#connection.send(message, sendOptions).then(
        () => {
          if (controller !== undefined) this.#recycle(id, controller);
        },
        (error: unknown) => this.#sendFailed(id, error),
      );
    });
  }

  /** Sends a notification. Rejects with an `McpError` when it could not be sent. */
  async notify(
    method: string,
    params?: Record<string, unknown>,
    headers?: Readonly<Record<string, string>>,
  ): Promise<void> {
    if (this.#closedError) {
      throw new McpError(
        'closed',
        `${method} to ${this.#settings.target} was not sent: the connection is closed`,
      );
    }
    const message: JsonRpcNotification = { jsonrpc: '2.0', method };
    if (params !== undefined) message.params = params;
    const sendHeaders = headers ?? this.#settings.notificationHeaders?.();
    await this.#connection.send(message, sendHeaders ? { headers: sendHeaders } : {});
  }

  /**
   * Closes the connection: pending requests are rejected with `kind: 'closed'`, then the transport closes
   * (for stdio: the whole process tree). Idempotent and safe to call concurrently.
   */
  close(options?: CloseOptions): Promise<CloseReport> {
    if (!this.#closing) {
      const error = new McpError(
        'closed',
        `the connection to ${this.#settings.target} was closed by the client`,
      );
      this.#closedError ??= error;
      this.#rejectAll(error);
      this.#closing = this.#connection.close(options).then((report) => ({
        ...report,
        lateResponsesDropped: this.lateResponsesDropped,
      }));
    }
    return this.#closing;
  }

  #arm(id: RequestId, pending: Pending, ms: number): void {
    if (pending.timer) clearTimeout(pending.timer);
    const wait = Math.max(0, Math.min(ms, pending.hardDeadline - Date.now()));
    pending.timer = setTimeout(
      () => this.#abandon(id, 'timeout', `no answer within ${pending.timeoutMs} ms`),
      wait,
    );
  }

  /**
   * Keeps a request's abort controller for the next request once it can never fire for this one: the
   * exchange is over (send resolved, so the connection has removed its listener from the signal, as
   * `Connection.send` resolves only then) and the request is settled without an abort (only `#abandon`
   * aborts, and only while the request is pending). On Node 20 a new AbortController with its signal
   * costs ~3 µs, a few percent of a loopback HTTP call.
   */
  #recycle(id: RequestId, controller: AbortController): void {
    if (controller.signal.aborted || this.#pending.has(id)) return;
    if (this.#spareControllers.length < SPARE_CONTROLLERS) this.#spareControllers.push(controller);
  }

  /** Gives up on a request after a timeout or an abort: reject now, tell the server, drop any late answer. */
  #abandon(id: RequestId, kind: 'timeout' | 'cancelled', why: string): void {
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#settle(id, pending);
    this.#remember(id);
    const delivery = pending.sent ? 'unknown' : 'not_sent';
    const mayHaveRun = pending.sent ? '; it was sent and may have run on the server' : '';
    pending.reject(
      new McpError(kind, `${pending.method} on ${this.#settings.target}: ${why}${mayHaveRun}`, { delivery }),
    );
    pending.controller?.abort();
    if (pending.sent && this.#settings.cancelNotification && !pending.noCancel && !this.#closedError) {
      // S25/basic/utilities/cancellation, S26/basic/patterns/cancellation: tell the server; ignore failures.
      this.notify('notifications/cancelled', {
        requestId: id,
        reason: kind === 'timeout' ? 'timeout' : 'cancelled',
      }).catch(() => {});
    }
  }

  #remember(id: RequestId): void {
    this.#abandoned.add(id);
    if (this.#abandoned.size > ABANDONED_MEMORY) {
      const oldest = this.#abandoned.values().next().value;
      if (oldest !== undefined) this.#abandoned.delete(oldest);
    }
  }

  #settle(id: RequestId, pending: Pending): void {
    this.#pending.delete(id);
    if (pending.timer) clearTimeout(pending.timer);
    pending.detach();
  }

  #sendFailed(id: RequestId, error: unknown): void {
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#settle(id, pending);
    if (error instanceof McpError) {
      pending.reject(error);
      return;
    }
    pending.reject(
      new McpError('transport', `${pending.method} on ${this.#settings.target} failed while sending`, {
        delivery: 'unknown',
        cause: error,
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
        this.#onServerRequest(classified.message);
        return;
      case 'notification':
        this.#onNotification(classified.message);
        return;
      case 'invalid':
        this.#fail(
          new McpError(
            'protocol',
            `${this.#settings.target} sent a message that is not JSON-RPC: ${classified.reason}`,
            {
              delivery: 'unknown',
            },
          ),
        );
        return;
    }
  }

  #onResponse(message: JsonRpcResponse): void {
    const id = message.id;
    if (id === undefined || id === null) {
      log('%s: error response without id ignored', this.#settings.target);
      return;
    }
    const pending = this.#pending.get(id);
    if (!pending) {
      // A late answer to an abandoned request, or an answer nobody asked for: never hand it to another call.
      if (this.#abandoned.has(id)) this.lateResponsesDropped++;
      else this.unknownResponses++;
      return;
    }
    this.#settle(id, pending);
    if (isErrorResponse(message)) {
      const { code, message: text, data } = message.error;
      pending.reject(new RpcError(pending.method, this.#settings.target, code, text, data));
    } else {
      pending.resolve(message.result);
    }
  }

  #onServerRequest(message: JsonRpcRequest): void {
    const answer = (
      body: { result: Record<string, unknown> } | { error: { code: number; message: string } },
    ) => {
      const response = { jsonrpc: '2.0', id: message.id, ...body } as JsonRpcMessage;
      this.#connection
        .send(response)
        .catch((error: unknown) => log('answer to %s failed: %o', message.method, error));
    };
    // S25/basic/utilities/ping: reply promptly with an empty result.
    if (message.method === 'ping') {
      answer({ result: {} });
      return;
    }
    let handled: Promise<Record<string, unknown>> | undefined;
    try {
      handled = this.#settings.onServerRequest?.(message.method, message.params);
    } catch (error) {
      handled = Promise.reject(error);
    }
    if (!handled) {
      // Capabilities we did not declare are not implemented: -32601 (S25/basic/lifecycle).
      answer({ error: { code: METHOD_NOT_FOUND, message: `Method not found: ${message.method}` } });
      return;
    }
    handled.then(
      (result) => answer({ result }),
      (error: unknown) => {
        const code = error instanceof RpcError ? error.code : -32603;
        answer({
          error: { code, message: error instanceof RpcError ? error.rpcMessage : 'client handler failed' },
        });
      },
    );
  }

  #onNotification(message: JsonRpcNotification): void {
    if (message.method === 'notifications/progress') {
      const params = message.params ?? {};
      const token = params['progressToken'];
      if (typeof token !== 'number' && typeof token !== 'string') return;
      const pending = this.#pending.get(token);
      if (!pending || typeof params['progress'] !== 'number') return;
      // Progress extends the deadline, never past the hard cap (S25/basic/lifecycle: a maximum SHOULD apply).
      this.#arm(token, pending, pending.timeoutMs);
      const progress: Progress = { progress: params['progress'] };
      if (typeof params['total'] === 'number') progress.total = params['total'];
      if (typeof params['message'] === 'string') progress.message = redact(params['message']).slice(0, 1000);
      try {
        pending.onProgress?.(progress);
      } catch (error) {
        log('onProgress threw: %o', error);
      }
      return;
    }
    try {
      this.#settings.onNotification?.(message);
    } catch (error) {
      log('notification hook threw: %o', error);
    }
  }

  #fail(error: McpError): void {
    if (this.#closedError) return;
    this.#closedError = error;
    this.#rejectAll(error);
    this.close().catch(() => {});
  }

  #onConnectionClosed(error: McpError): void {
    if (this.#closedError) return;
    this.#closedError = error;
    this.#rejectAll(error);
  }

  #rejectAll(cause: McpError): void {
    for (const [id, pending] of this.#pending) {
      this.#settle(id, pending);
      const delivery = pending.sent ? 'unknown' : 'not_sent';
      const options = {
        delivery,
        cause,
        ...(cause.stderrTail ? { stderrTail: cause.stderrTail } : {}),
      } as const;
      pending.reject(
        new McpError(
          cause.kind,
          `${pending.method} on ${this.#settings.target} failed: ${cause.message}`,
          options,
        ),
      );
    }
  }
}
