/**
 * A real `node:http` server on 127.0.0.1 port 0 for the HTTP transport tests: records every request
 * (method, path, headers, body) and answers through a per-test handler. Also a silent TCP server.
 * The connection side (`options`, `collector`, `rejection`, `connectHttp`) is in `test/helpers/http-once.ts`.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { after } from 'node:test';
import { listenLocal, readBody } from '../../helpers/http-server.js';

export { collector, options, rejection } from '../../helpers/http-once.js';

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
    void readBody(raw).then(
      (body) => {
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
      },
      (error: Error) => res.destroy(error),
    );
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return {
    url: await listenLocal(server),
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
  return {
    url: await listenLocal(server),
    connections: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
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
