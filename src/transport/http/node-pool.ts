/**
 * The default request path: `node:http` / `node:https` with a keep-alive Agent of at most
 * `MAX_CONNECTIONS_PER_ORIGIN` sockets, in the shape of the two undici calls the transport makes
 * (`request()` in its promise form, and `destroy()`). Node's own HTTP parser is already in the binary, so a
 * fresh process pays neither undici's load (~80 ms) nor the compile of its llhttp WebAssembly, which V8
 * finishes in the background and the process waits for at exit (~50–250 ms): see docs/performance.md.
 *
 * Same behaviour as the undici pool it replaces: no redirects, no cookies, no timeouts of its own (the
 * engine bounds each exchange), TLS with Node's default CAs, requests past the socket cap queued, an abort
 * rejects at once (queued or sent) or breaks the body being read, and `destroy()` ends everything.
 */
import {
  type ClientRequest,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
} from 'node:http';
import { createRequire } from 'node:module';
import { closeStaleSockets, hintedLimit, IDLE_SOCKET_LIMIT_MS, limitIdleSockets } from './idle-sockets.js';
import type { PoolRequestOptions, PoolResponse, RequestPool } from './pool.js';

/** node:https (and with it node:tls and crypto, ~2 ms) is loaded only for an `https:` origin. */
const builtin = createRequire(import.meta.url);

/** One origin's keep-alive pool on node:http(s). */
export class NodePool implements RequestPool {
  readonly #hostname: string;
  readonly #port: string;
  readonly #agent: HttpAgent;
  readonly #send: typeof httpRequest;
  /** Requests not yet over, with the function that fails each one (for `destroy()`). */
  readonly #open = new Map<ClientRequest, (error: Error) => void>();
  /** The idle limit asked for, and the one in force (lowered by the server's Keep-Alive hint). */
  readonly #maxIdleMs: number;
  #idleLimitMs: number;
  #destroyed = false;

  /** `idleLimitMs`: how long a keep-alive socket may idle and still be reused (idle-sockets.ts). */
  constructor(origin: URL, maxSockets: number, idleLimitMs = IDLE_SOCKET_LIMIT_MS) {
    this.#maxIdleMs = idleLimitMs;
    this.#idleLimitMs = idleLimitMs;
    // URL keeps the brackets of an IPv6 literal; node:http wants the bare address.
    this.#hostname = origin.hostname.replace(/^\[(.*)\]$/, '$1');
    this.#port = origin.port;
    const agentOptions = { keepAlive: true, maxSockets };
    if (origin.protocol === 'https:') {
      const https = builtin('node:https') as typeof import('node:https');
      this.#agent = new https.Agent(agentOptions);
      this.#send = https.request;
    } else {
      this.#agent = new HttpAgent(agentOptions);
      this.#send = httpRequest;
    }
    limitIdleSockets(this.#agent, () => this.#idleLimitMs);
  }

  request(options: PoolRequestOptions): Promise<PoolResponse> {
    if (this.#destroyed) return Promise.reject(destroyedError());
    const signal = options.signal ?? undefined;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise((resolve, reject) => {
      const headers =
        options.body === null
          ? options.headers
          : { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) };
      const send = this.#send;
      closeStaleSockets(this.#agent, this.#idleLimitMs);
      let req: ClientRequest;
      try {
        req = send({
          hostname: this.#hostname,
          port: this.#port,
          path: options.path,
          method: options.method,
          headers,
          agent: this.#agent,
        });
      } catch (error) {
        reject(error); // an invalid header value, before anything is sent
        return;
      }
      let response: IncomingMessage | undefined;
      let settled = false;
      // Fails the request: before the response, the promise rejects at once (a queued request may wait
      // for a socket indefinitely, and node:http reports its error only once it has one); after it, the
      // body breaks with the error, which its reader sees. A response that has fully arrived is left
      // alone: its socket may be back in the Agent, and on Deno `req.destroy(error)` still reaches that
      // socket, which emits the error with no listener left: an uncaught exception that ended the process
      // on close() (test/runtimes/suite.ts).
      const fail = (error: Error) => {
        if (!settled) {
          settled = true;
          reject(error);
        }
        if (response?.complete === true) return;
        response?.destroy(error);
        req.destroy(error);
      };
      const onAbort = () => fail(signal === undefined ? abortError() : abortReason(signal));
      const done = () => {
        signal?.removeEventListener('abort', onAbort);
        this.#open.delete(req);
      };
      this.#open.set(req, fail);
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('response', (res: IncomingMessage) => {
        response = res;
        const headers = distinct(res);
        this.#idleLimitMs = this.#hinted(headers['keep-alive']);
        res.once('close', done);
        if (settled) {
          res.destroy();
          return;
        }
        settled = true;
        resolve({
          statusCode: res.statusCode ?? 0,
          headers,
          body: res,
        });
      });
      req.on('error', (error: Error) => {
        if (!settled) {
          settled = true;
          reject(error);
        }
      });
      req.once('close', () => {
        if (response === undefined) done();
      });
      req.end(options.body ?? undefined);
    });
  }

  /** The last Keep-Alive hint and the limit it gave: a server sends the same one every time. */
  #hint: string | string[] | undefined;
  #hintedMs = -1;

  #hinted(hint: string | string[] | undefined): number {
    if (this.#hintedMs < 0 || hint !== this.#hint || Array.isArray(hint)) {
      this.#hint = hint;
      this.#hintedMs = hintedLimit(hint, this.#maxIdleMs);
    }
    return this.#hintedMs;
  }

  /** Fails every open request and closes every socket; later requests reject. */
  destroy(): Promise<void> {
    if (!this.#destroyed) {
      this.#destroyed = true;
      for (const fail of [...this.#open.values()]) fail(destroyedError());
      this.#open.clear();
      this.#agent.destroy();
    }
    return Promise.resolve();
  }
}

/**
 * Response headers as undici gives them: lowercase names, a string, or an array for a repeated header.
 * Node's Agent reads `res.headers` on every response anyway (its Keep-Alive hint), so when no header is
 * repeated that object is the answer as it is; `headersDistinct` (a second object of arrays, then a copy)
 * is built only when one is.
 */
function distinct(res: IncomingMessage): Record<string, string | string[]> {
  const joined = res.headers;
  let count = 0;
  let plain = true;
  for (const name in joined) {
    count++;
    if (typeof joined[name] !== 'string') plain = false;
  }
  if (plain && count * 2 === res.rawHeaders.length) return joined as Record<string, string>;
  const out: Record<string, string | string[]> = {};
  const all = res.headersDistinct;
  for (const name of Object.keys(all)) {
    const values = all[name];
    if (values === undefined) continue;
    out[name] = values.length === 1 ? (values[0] as string) : values;
  }
  return out;
}

function destroyedError(): Error {
  return Object.assign(new Error('the HTTP connection pool is closed'), { code: 'ERR_POOL_DESTROYED' });
}

function abortError(): Error {
  return Object.assign(new Error('the request was aborted'), { name: 'AbortError', code: 'ABORT_ERR' });
}

function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : abortError();
}
