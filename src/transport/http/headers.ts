/**
 * The one place the headers of every HTTP request are built (POST, GET, DELETE). Fixed parts are built
 * once per connection; each request adds the client's per-message headers, the `Authorization` value from
 * the authorizer, the negotiated protocol version where no per-message header carries it, and the session
 * id. Header order and rules: S25/basic/transports, S26/basic/transports/streamable-http.
 */
import type { AuthorizationValue, Authorizer } from '../authorizer.js';
import { SESSION_HEADER } from './session.js';

export const ACCEPT_POST = 'application/json, text/event-stream';
export const ACCEPT_SSE = 'text/event-stream';
/** Headers an authorizer's companion headers may not set: the transport owns them. */
const MANAGED: ReadonlySet<string> = new Set([
  'authorization',
  'content-type',
  'accept',
  'content-length',
  'host',
  'mcp-protocol-version',
  'mcp-method',
  'mcp-name',
  'last-event-id',
  SESSION_HEADER,
]);

/** What one request needs. */
export interface HeaderSpec {
  readonly method: 'POST' | 'GET' | 'DELETE';
  /** The client's per-message headers of this POST (`MCP-Protocol-Version`, `Mcp-Method`, …). */
  readonly perMessage?: Readonly<Record<string, string>> | undefined;
  /** A new `initialize` starts a new session: leave the old id out (S25/basic/transports). */
  readonly newSession?: boolean;
  /** GET resumption of a stream (S25/basic/transports "Resumability"). */
  readonly lastEventId?: string;
}

/** Headers of one request and whether the session id went with them (a 404 then means expiry). */
export interface BuiltHeaders {
  readonly headers: Record<string, string>;
  readonly sessionSent: boolean;
  /** The `Authorization` value sent, if any: handed back to the authorizer on a refusal. */
  readonly authorization: string | undefined;
}

export class HeaderBuilder {
  readonly #url: URL;
  readonly #authorizer: Authorizer | undefined;
  /** User headers, lowercased once; most connections have none, so the loop is usually skipped. */
  readonly #user: ReadonlyArray<readonly [string, string]>;
  #sessionId: string | undefined;
  #protocolVersion: string | undefined;

  /** `userHeaders` were checked by the config (no managed header among them). */
  constructor(options: {
    url: URL;
    userHeaders: Readonly<Record<string, string>>;
    authorizer?: Authorizer | undefined;
  }) {
    this.#url = options.url;
    this.#authorizer = options.authorizer;
    this.#user = Object.entries(options.userHeaders).map(
      ([name, value]) => [name.toLowerCase(), value] as const,
    );
  }

  /** The 2025-11-25 session id, when the server assigned one. */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  /** Adopts the session id of an `initialize` answer (`undefined`: the server keeps no session). */
  adoptSession(id: string | undefined): void {
    this.#sessionId = id;
  }

  /** Forgets the session: it expired (404) or was ended (DELETE). */
  dropSession(): void {
    this.#sessionId = undefined;
  }

  /** The negotiated version, sent on requests without per-message headers (GET, DELETE). */
  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
  }

  /**
   * Builds the headers of one request. Synchronous unless the authorizer answers with a promise, so the
   * common case costs no extra turn of the event loop.
   */
  build(spec: HeaderSpec): BuiltHeaders | Promise<BuiltHeaders> {
    const auth = this.#authorizer?.authorization({ url: this.#url, method: spec.method });
    if (auth instanceof Promise) return auth.then((value) => this.#finish(spec, value));
    return this.#finish(spec, auth);
  }

  #finish(spec: HeaderSpec, auth: AuthorizationValue): BuiltHeaders {
    const authorization = typeof auth === 'string' || auth === undefined ? auth : auth.authorization;
    // A literal per method: cheaper than copying a template object on every request.
    const headers: Record<string, string> =
      spec.method === 'POST'
        ? { 'content-type': 'application/json', accept: ACCEPT_POST }
        : { accept: spec.method === 'GET' ? ACCEPT_SSE : ACCEPT_POST };
    for (const [name, value] of this.#user) headers[name] = value;
    if (typeof auth === 'object' && auth.headers !== undefined) {
      for (const name of Object.keys(auth.headers)) {
        const lower = name.toLowerCase();
        if (headers[lower] === undefined && !MANAGED.has(lower))
          headers[lower] = auth.headers[name] as string;
      }
    }
    if (authorization !== undefined) headers['authorization'] = authorization;
    const perMessage = spec.perMessage;
    if (perMessage !== undefined) {
      for (const name of Object.keys(perMessage)) headers[name.toLowerCase()] = perMessage[name] as string;
    } else if (this.#protocolVersion !== undefined) {
      headers['mcp-protocol-version'] = this.#protocolVersion;
    }
    if (spec.lastEventId !== undefined) headers['last-event-id'] = spec.lastEventId;
    if (spec.newSession !== true && this.#sessionId !== undefined) headers[SESSION_HEADER] = this.#sessionId;
    return { headers, sessionSent: headers[SESSION_HEADER] !== undefined, authorization };
  }
}
