/**
 * Answers the requests a server sends to the client: `ping` at once, a declared capability through the
 * caller's handler, and -32601 for anything not declared (S25/basic/lifecycle, S25/basic/utilities/ping).
 * Whatever the handler does — throw, return a plain value, reject — the server gets exactly one answer.
 */
import { debuglog } from 'node:util';
import {
  INTERNAL_ERROR,
  type JsonRpcMessage,
  type JsonRpcRequest,
  METHOD_NOT_FOUND,
} from '../protocol/jsonrpc.js';
import { HandlerRefusal } from './capabilities.js';

const log = debuglog('autos-mcp');

/** Serves one server→client request; `undefined` means "not declared" and gets -32601. */
export type ServerRequestHandler = (
  method: string,
  params: Record<string, unknown> | undefined,
) => Promise<Record<string, unknown>> | undefined;

type Answer = { result: Record<string, unknown> } | { error: { code: number; message: string } };

export class Responder {
  readonly #send: (message: JsonRpcMessage) => Promise<void>;
  readonly #handle: ServerRequestHandler;

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
    this.#send(response).catch((error: unknown) => log('answer to %s failed: %o', request.method, error));
  }
}
