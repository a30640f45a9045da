/**
 * One HTTP exchange, the shape the HTTP transport tests repeat: a test server that answers every request
 * the same fixed way, an `HttpConnection` opened on it with a collector, and one message sent.
 */
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { JsonRpcMessage } from '../../src/protocol/jsonrpc.js';
import type { SendOptions } from '../../src/transport/connection.js';
import { HttpConnection } from '../../src/transport/http/index.js';
import type { HttpTransportOptions } from '../../src/transport/options.js';

/** Transport options for a test: `url`, no user headers, a 1 MiB message bound, then `extra`. */
export function options(url: URL, extra: Partial<HttpTransportOptions> = {}): HttpTransportOptions {
  return { url, headers: {}, maxMessageBytes: 1 << 20, ...extra };
}

/** Collects delivered messages and diagnostics; pass `events` to `start()` of a connection. */
export function collector(): {
  messages: unknown[];
  diagnostics: string[];
  events: { message(v: unknown): void; closed(): void; diagnostic(t: string): void };
} {
  const messages: unknown[] = [];
  const diagnostics: string[] = [];
  return {
    messages,
    diagnostics,
    events: {
      message: (v) => messages.push(v),
      closed: () => undefined,
      diagnostic: (t) => diagnostics.push(t),
    },
  };
}

/** The error `promise` rejects with; fails if it resolves. */
export async function rejection(
  promise: Promise<unknown>,
): Promise<Record<string, unknown> & { message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Record<string, unknown> & { message: string };
  }
  throw new Error('want a rejection, got success');
}

/** A request handler that answers every request with `status`, `headers` and `body`, the same each time. */
export function answer(
  status: number,
  headers: OutgoingHttpHeaders = {},
  body = '',
): (req: unknown, res: ServerResponse) => void {
  return (_req, res) => {
    res.writeHead(status, headers);
    res.end(body);
  };
}

/** An `HttpConnection` to `url` with {@link options}`(url, extra)`, started with a fresh {@link collector}. */
export async function connectHttp(
  url: URL,
  extra: Partial<HttpTransportOptions> = {},
): Promise<{ conn: HttpConnection; c: ReturnType<typeof collector> }> {
  const conn = new HttpConnection(options(url, extra));
  const c = collector();
  await conn.start(c.events);
  return { conn, c };
}

/** The request most one-exchange tests send: `tools/list` with id 1. */
export const LIST_TOOLS = { jsonrpc: '2.0', id: 1, method: 'tools/list' } as const;

/** A bare `tools/call` with id 1, for tests where only the method matters. */
export const CALL_TOOL = { jsonrpc: '2.0', id: 1, method: 'tools/call' } as const;

/**
 * Sends `message` once on a fresh {@link connectHttp} connection, expects the send to reject, closes the
 * connection, and returns the error with the connection and what it delivered.
 */
export async function failedSend(
  url: URL,
  message: JsonRpcMessage = LIST_TOOLS,
  extra: Partial<HttpTransportOptions> = {},
  sendOptions: SendOptions = {},
): Promise<{
  error: Record<string, unknown> & { message: string };
  conn: HttpConnection;
  c: ReturnType<typeof collector>;
}> {
  const { conn, c } = await connectHttp(url, extra);
  const error = await rejection(conn.send(message, sendOptions));
  await conn.close();
  return { error, conn, c };
}
