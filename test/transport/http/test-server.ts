/**
 * A real `node:http` server on 127.0.0.1 port 0 for the HTTP transport tests: records every request
 * (method, path, headers, body) and answers through a per-test handler. Also a silent TCP server.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { after } from 'node:test';
import type { HttpTransportOptions } from '../../../src/transport/options.js';

export interface Recorded {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The parsed JSON body, when it was JSON. */
  json: Record<string, unknown> | undefined;
  at: number;
}

export type Handler = (req: Recorded, res: ServerResponse, raw: IncomingMessage) => void | Promise<void>;

export interface TestServer {
  url: URL;
  requests: Recorded[];
  close(): Promise<void>;
}

export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: Recorded[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((raw, res) => {
    const chunks: Buffer[] = [];
    raw.on('data', (c: Buffer) => chunks.push(c));
    raw.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: Record<string, unknown> | undefined;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const rec: Recorded = {
        method: raw.method ?? '',
        path: raw.url ?? '',
        headers: raw.headers,
        body,
        json,
        at: performance.now(),
      };
      requests.push(rec);
      Promise.resolve(handler(rec, res, raw)).catch((error) => {
        res.destroy(error as Error);
      });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A TCP server that accepts connections and never answers. */
export async function startSilentServer(): Promise<{
  url: URL;
  connections: () => number;
  close(): Promise<void>;
}> {
  const sockets = new Set<Socket>();
  let count = 0;
  const server = createTcpServer((s) => {
    count++;
    sockets.add(s);
    s.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    connections: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export function options(url: URL, extra: Partial<HttpTransportOptions> = {}): HttpTransportOptions {
  return { url, headers: {}, maxMessageBytes: 1 << 20, ...extra };
}

export function json(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
}

export function result(id: unknown, value: Record<string, unknown> = {}): Record<string, unknown> {
  return { jsonrpc: '2.0', id, result: value };
}

/** Collects delivered messages; `start()` it on a connection. */
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

/** A `startServer` whose servers all close when the test file ends. */
export function serversClosedAfter(): typeof startServer {
  const started: TestServer[] = [];
  after(() => Promise.all(started.map((s) => s.close())));
  return async (handler) => {
    const s = await startServer(handler);
    started.push(s);
    return s;
  };
}
