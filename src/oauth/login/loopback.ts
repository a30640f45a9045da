/**
 * The loopback callback of a browser login (RFC 8252 §7.3): an HTTP server on 127.0.0.1 (port 0 unless
 * configured) that waits for one request to `/callback` carrying this login's `state`, answers it with a
 * short page, and is shut whatever happens: callback, deadline, abort or error. Other paths get a 404,
 * and a callback with another `state` (or none) a 400; neither ends the wait.
 */
import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpError } from '../../errors/index.js';

const DONE_PAGE =
  '<!doctype html><meta charset="utf-8"><title>autos-mcp</title><p>Login finished. You can close this tab.</p>';
const FAILED_PAGE =
  '<!doctype html><meta charset="utf-8"><title>autos-mcp</title><p>Login did not finish. You can close this tab and look at the terminal.</p>';
const STRAY_PAGE =
  '<!doctype html><meta charset="utf-8"><title>autos-mcp</title><p>This page is not for the login in progress (it may be left from an earlier one). You can close this tab.</p>';

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
  /** This login's `state`: only a callback that carries it ends the wait. */
  state: string;
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
  let strays = 0;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://loopback');
    if (url.pathname !== '/callback' || req.method !== 'GET' || respond !== undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    // A callback with another state is not this login's: a tab of an earlier login reloaded or restored
    // (a stored registration brings back its port), or any page or local process. It is dropped, not
    // taken as this login's answer (RFC 6749 §10.12; RFC 9700 §4.7), so it can neither end the login nor
    // reach the token endpoint, and the wait goes on to the deadline.
    if (!isState(url.searchParams.get('state'), options.state)) {
      strays++;
      res
        .writeHead(400, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
        .end(STRAY_PAGE);
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
    const dropped =
      strays === 0 ? '' : ` (${strays} callback${strays === 1 ? '' : 's'} with another state dropped)`;
    settle?.reject(
      new McpError(
        'timeout',
        `no login callback came within ${Math.round(options.timeoutMs / 1000)} s${dropped}`,
      ),
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

/** `got` is `want`, compared in constant time: the state is this login's one secret on the loopback. */
function isState(got: string | null, want: string): boolean {
  if (got === null) return false;
  const a = Buffer.from(got);
  const b = Buffer.from(want);
  return a.length === b.length && timingSafeEqual(a, b);
}
