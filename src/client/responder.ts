/**
 * Answers the requests a server sends to the client: `ping` at once, a declared capability through the
 * caller's handler, and -32601 for anything not declared (S25/basic/lifecycle, S25/basic/utilities/ping).
 * Whatever the handler does — throw, return a plain value, reject — the server gets exactly one answer.
 */
import { debugLog } from '../diagnostics/publish.js';
import {
  INTERNAL_ERROR,
  type JsonRpcMessage,
  type JsonRpcRequest,
  METHOD_NOT_FOUND,
} from '../protocol/jsonrpc.js';
import { HandlerRefusal } from './capabilities.js';

const log = debugLog;

/** Serves one server→client request; `undefined` means "not declared" and gets -32601. */
export type ServerRequestHandler = (
  method: string,
  params: Record<string, unknown> | undefined,
) => Promise<Record<string, unknown>> | undefined;

type Answer = { result: Record<string, unknown> } | { error: { code: number; message: string } };

/**
 * Answers being sent at once (over HTTP each is a POST of its own): a server that asks 1500 pings at once
 * gets 16 answers in flight, not 1500 sockets.
 */
export const MAX_ANSWERS_IN_FLIGHT = 16;
/** Answers waiting for a slot; beyond this a server flooding requests gets no answer (each one dropped). */
export const MAX_ANSWERS_QUEUED = 1024;

export class Responder {
  readonly #send: (message: JsonRpcMessage) => Promise<void>;
  readonly #handle: ServerRequestHandler;
  readonly #queue: JsonRpcMessage[] = [];
  #inFlight = 0;
  /** Answers dropped because the queue was full. */
  dropped = 0;

  constructor(send: (message: JsonRpcMessage) => Promise<void>, handle: ServerRequestHandler) {
    this.#send = send;
    this.#handle = handle;
  }

  /** Answers `message`; never throws. */
  answer(message: JsonRpcRequest): void {
    if (message.method === 'ping') {
      this.#reply(message, { result: {} });
      return;
    }
    let handled: Promise<Record<string, unknown>> | undefined;
    try {
      handled = this.#handle(message.method, message.params);
    } catch (error) {
      handled = Promise.reject(error);
    }
    if (!handled) {
      // Capabilities we did not declare are not implemented: -32601 (S25/basic/lifecycle).
      this.#reply(message, {
        error: { code: METHOD_NOT_FOUND, message: `Method not found: ${message.method}` },
      });
      return;
    }
    handled.then(
      (result) => this.#reply(message, { result }),
      (error: unknown) => {
        // A refusal of ours carries its code; the caller's own failure is not described to the server.
        const refusal = error instanceof HandlerRefusal ? error : undefined;
        this.#reply(message, {
          error: {
            code: refusal?.code ?? INTERNAL_ERROR,
            message: refusal?.message ?? 'client handler failed',
          },
        });
      },
    );
  }

  #reply(request: JsonRpcRequest, body: Answer): void {
    const response = { jsonrpc: '2.0', id: request.id, ...body } as JsonRpcMessage;
    if (this.#inFlight < MAX_ANSWERS_IN_FLIGHT) {
      this.#dispatch(response);
    } else if (this.#queue.length < MAX_ANSWERS_QUEUED) {
      this.#queue.push(response);
    } else {
      this.dropped++;
      if (this.dropped === 1 || this.dropped % 1000 === 0)
        log(
          'answers to server requests dropped: %d (more than %d waiting)',
          this.dropped,
          MAX_ANSWERS_QUEUED,
        );
    }
  }

  #dispatch(response: JsonRpcMessage): void {
    this.#inFlight++;
    this.#send(response)
      .catch((error: unknown) => log('an answer to a server request failed: %o', error))
      .finally(() => {
        this.#inFlight--;
        const next = this.#queue.shift();
        if (next !== undefined) this.#dispatch(next);
      });
  }
}
