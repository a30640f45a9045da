/**
 * The loopback callback of a browser login (RFC 8252 §7.3): an HTTP server on 127.0.0.1 (port 0 unless
 * configured) that waits for one request to `/callback`, answers it with a short page, and is shut
 * whatever happens: callback, deadline, abort or error. Other paths get a 404 and do not end the wait.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpError } from '../../errors/index.js';

const DONE_PAGE =
  '<!doctype html><meta charset="utf-8"><title>autos-mcp</title><p>Login finished. You can close this tab.</p>';
const FAILED_PAGE =
  '<!doctype html><meta charset="utf-8"><title>autos-mcp</title><p>Login did not finish. You can close this tab and look at the terminal.</p>';

export interface Loopback {
  /** `http://<host>:<port>/callback`. */
  readonly redirectUri: string;
  /** Resolves with the callback's query parameters; rejects on the deadline or abort. */
  readonly callback: Promise<URLSearchParams>;
  /** Tell the browser how it went (the page it sees), then shut the server. */
  finish(ok: boolean): void;
  close(): Promise<void>;
}

export async function startLoopback(options: {
  host: string;
  port: number;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}): Promise<Loopback> {
  const host = options.host === '[::1]' ? '::1' : options.host;
  let settle: { resolve(params: URLSearchParams): void; reject(error: unknown): void } | undefined;
  const callback = new Promise<URLSearchParams>((resolve, reject) => {
    settle = { resolve, reject };
  });
  callback.catch(() => {}); // observed by the caller; never an unhandled rejection
  let respond: ((ok: boolean) => void) | undefined;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://loopback');
    if (url.pathname !== '/callback' || req.method !== 'GET' || respond !== undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    respond = (ok) => {
      res.writeHead(ok ? 200 : 400, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'close',
      });
      res.end(ok ? DONE_PAGE : FAILED_PAGE);
    };
    settle?.resolve(url.searchParams);
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) =>
      reject(
        new McpError(
          'config',
          `cannot listen for the login callback on ${host}:${options.port} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
        ),
      ),
    );
    server.listen(options.port, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      server.close(() => resolve());
      server.closeIdleConnections();
      setTimeout(() => server.closeAllConnections(), 1000).unref();
    });
    return closed;
  };
  const timer = setTimeout(() => {
    settle?.reject(
      new McpError('timeout', `no login callback came within ${Math.round(options.timeoutMs / 1000)} s`),
    );
    void close();
  }, options.timeoutMs);
  const onAbort = (): void => {
    // An abort whose reason is a timeout (the CLI's --timeout) is that timeout, not a cancellation.
    const reason: unknown = options.signal?.reason;
    const timedOut = reason instanceof McpError && reason.kind === 'timeout';
    settle?.reject(timedOut ? reason : new McpError('cancelled', 'the login was cancelled'));
    void close();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  return {
    redirectUri: `http://${shownHost}:${port}/callback`,
    callback,
    finish(ok) {
      respond?.(ok);
      void close();
    },
    close,
  };
}
