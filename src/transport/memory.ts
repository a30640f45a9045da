/**
 * An in-memory connection pair: the client end implements `Connection`, the server end is driven by a
 * test or an in-process server. Messages cross as structured clones on a later microtask, as they would
 * cross a pipe, so neither side can hold a reference into the other's objects. Nothing here touches I/O.
 */
import { McpError } from '../errors/index.js';
import type { JsonRpcMessage } from '../protocol/jsonrpc.js';
import type {
  Connection,
  ConnectionCloseReport,
  ConnectionEvents,
  ConnectionTraits,
  NegotiatedTerms,
  SendOptions,
} from './connection.js';

/** One message the client end sent, with the per-message options that matter to a peer. */
export interface MemoryDelivery {
  readonly message: JsonRpcMessage;
  /** Per-message headers, when the pair was made with `perMessageHeaders: true`. */
  readonly headers: Readonly<Record<string, string>> | undefined;
}

/** The server's end of a memory pair. */
export interface MemoryServerEnd {
  /** Receives each message the client sends, in order. Messages sent before a handler is set are queued. */
  onMessage(handler: (delivery: MemoryDelivery) => void): void;
  /** Sends a value to the client (any JSON value: the client checks it is JSON-RPC). */
  send(value: unknown): void;
  /** Ends the connection from the server's side: the client sees `closed` with this reason. */
  end(reason?: string): void;
  /** What the client said it negotiated, once it did. */
  readonly negotiated: NegotiatedTerms | undefined;
  /** True once the client closed its end. */
  readonly closedByClient: boolean;
}

export interface MemoryPairOptions {
  /** Display name of the server. Default `'memory server'`. */
  target?: string;
  /** Traits of the client end; by default those of a stdio-like link. */
  traits?: Partial<ConnectionTraits>;
}

export interface MemoryPair {
  readonly client: Connection;
  readonly server: MemoryServerEnd;
}

const DEFAULT_TRAITS: ConnectionTraits = {
  perMessageHeaders: false,
  cancelBy: 'notification',
  resumable: false,
  serverStream: false,
  answersEveryRequest: false,
};

/** Creates a connected pair. The client end is handed to `connect(config, { connection })`. */
export function createMemoryPair(options: MemoryPairOptions = {}): MemoryPair {
  const target = options.target ?? 'memory server';
  let events: ConnectionEvents | undefined;
  let handler: ((delivery: MemoryDelivery) => void) | undefined;
  const queued: MemoryDelivery[] = [];
  const early: unknown[] = [];
  let ended = false;
  let closedByClient = false;
  let negotiated: NegotiatedTerms | undefined;

  const client: Connection = {
    kind: 'memory',
    traits: Object.freeze({ ...DEFAULT_TRAITS, ...options.traits }),
    target,
    async start(next: ConnectionEvents): Promise<void> {
      if (events !== undefined) throw new McpError('config', `start() on ${target} called twice`);
      events = next;
      for (const value of early.splice(0)) next.message(value);
    },
    send(message: JsonRpcMessage, sendOptions: SendOptions = {}): Promise<void> {
      if (ended || closedByClient) {
        return Promise.reject(new McpError('closed', `send on ${target}: the connection is closed`));
      }
      if (sendOptions.signal?.aborted) {
        return Promise.reject(new McpError('cancelled', `send to ${target} cancelled before it left`));
      }
      const delivery: MemoryDelivery = { message: structuredClone(message), headers: sendOptions.headers };
      queueMicrotask(() => {
        if (closedByClient) return;
        if (handler) handler(delivery);
        else queued.push(delivery);
      });
      return Promise.resolve();
    },
    negotiated(terms: NegotiatedTerms): void {
      negotiated = terms;
    },
    async close(): Promise<ConnectionCloseReport> {
      closedByClient = true;
      return {};
    },
    // Nothing to drain in memory: destroying is closing.
    destroy(): void {
      closedByClient = true;
    },
  };

  const server: MemoryServerEnd = {
    onMessage(next) {
      handler = next;
      for (const delivery of queued.splice(0)) next(delivery);
    },
    send(value: unknown) {
      if (ended || closedByClient) return;
      const copy = structuredClone(value);
      queueMicrotask(() => {
        if (ended || closedByClient) return;
        if (events) events.message(copy);
        else early.push(copy);
      });
    },
    end(reason = 'the server ended the connection') {
      if (ended || closedByClient) return;
      ended = true;
      queueMicrotask(() => {
        if (!closedByClient)
          events?.closed(new McpError('closed', `${target}: ${reason}`, { delivery: 'unknown', target }));
      });
    },
    get negotiated() {
      return negotiated;
    },
    get closedByClient() {
      return closedByClient;
    },
  };
  return { client, server };
}
