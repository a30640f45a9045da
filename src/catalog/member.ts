/**
 * One server of a catalog: its client (connected on first use with `connect()`, then kept warm), its last tool list and
 * whether that list is still current, and its failures. A list is current until its `ttlMs` ends (2026,
 * when the server gave one) or the server says its tools changed; a list without `ttlMs` is kept until
 * then (re-listing every server on every search would cost a round trip each). A failed connect or list
 * ends the attempt's connection and makes the server a problem; the next attempt waits out a back-off that
 * doubles from 1 s to 60 s, so a dead server is never retried in a loop.
 */
import type { Client, CloseReport } from '../client/client.js';
import type { ConnectOptions } from '../client/options.js';
import type { ExcludedTool, Tool, ToolCallOutcome, ToolDigest } from '../client/types.js';
import type { ServerConfig } from '../config/index.js';
import { ERROR_KINDS, type ErrorKind, isMcpError, McpError } from '../errors/index.js';
import { redact } from '../internal/redact.js';
import type { CatalogCallOptions, CatalogProblem } from './types.js';

/** Back-off after a failure: 1 s, doubled after each failure in a row, at most 60 s. */
export const RETRY_FIRST_MS = 1_000;
export const RETRY_MAX_MS = 60_000;
/** Longest problem message kept (an error's message is already redacted and bounded). */
const MAX_PROBLEM_CHARS = 1_000;

/** A server's tools as last listed. */
export interface Listed {
  readonly tools: readonly Tool[];
  readonly excluded: readonly ExcludedTool[];
  readonly digests: Readonly<Record<string, ToolDigest>>;
  readonly listDigest: string;
}

export interface MemberOptions {
  readonly connect: ConnectOptions;
  readonly now: () => number;
  /** Told when the server's tool list changed (to rebuild the search index lazily). */
  readonly onChange: () => void;
}

export class Member {
  readonly name: string;
  readonly #config: ServerConfig | undefined;
  /** Why the server is never started (untrusted, disabled, a bad name or config). */
  readonly #fixed: CatalogProblem | undefined;
  readonly #options: MemberOptions;
  /** The connection, opening or open; undefined before first use and after a failure. */
  #client: Promise<Client> | undefined;
  #opening: AbortController | undefined;
  #listed: { list: Listed; ttlMs: number | undefined; at: number } | undefined;
  #changed = false;
  #listing: Promise<Listed> | undefined;
  #failure: { problem: CatalogProblem; retryAt: number; count: number } | undefined;
  /** Clients of failed attempts being closed: `close()` waits for them. */
  readonly #ending = new Set<Promise<unknown>>();
  #closed = false;

  constructor(
    name: string,
    source: { config: ServerConfig } | { problem: CatalogProblem },
    options: MemberOptions,
  ) {
    this.name = name;
    this.#config = 'config' in source ? source.config : undefined;
    this.#fixed = 'problem' in source ? source.problem : undefined;
    this.#options = options;
  }

  /** Why the server cannot answer now, if it cannot. */
  get problem(): CatalogProblem | undefined {
    return this.#fixed ?? this.#failure?.problem;
  }

  /** The last list, current or not (dropped when an attempt fails). */
  last(): Listed | undefined {
    return this.#listed?.list;
  }

  /** The last list while it is current, without asking the server. */
  current(): Listed | undefined {
    const listed = this.#listed;
    if (listed === undefined || this.#changed) return undefined;
    if (listed.ttlMs !== undefined && this.#options.now() >= listed.at + listed.ttlMs) return undefined;
    return listed.list;
  }

  /**
   * The current list, or a new one (connecting first if needed) within `timeoutMs`; concurrent callers
   * share one listing. Throws the problem as an `McpError` when the server cannot answer.
   */
  tools(timeoutMs: number): Promise<Listed> {
    const current = this.current();
    if (current !== undefined) return Promise.resolve(current);
    const refused = this.#refusal();
    if (refused !== undefined) return Promise.reject(refused);
    this.#listing ??= this.#list(timeoutMs).finally(() => {
      this.#listing = undefined;
    });
    return this.#listing;
  }

  /**
   * Calls `tool` on the server's client (connecting first if needed, unless the server is a problem). A
   * connect that fails, or a connection that ends under the call (`closed`: the process exited), makes the
   * server a problem like a failed listing: the next use after the back-off starts it again.
   */
  async call(
    tool: string,
    args: Record<string, unknown>,
    options: CatalogCallOptions,
  ): Promise<ToolCallOutcome> {
    const refused = this.#refusal();
    if (refused !== undefined) throw refused;
    const opening = this.#open();
    let client: Client;
    try {
      client = await opening;
    } catch (error) {
      this.#lost(opening, error);
      throw error;
    }
    try {
      return await client.callTool(tool, args, options);
    } catch (error) {
      if (isMcpError(error) && error.kind === 'closed') this.#lost(opening, error);
      throw error;
    }
  }

  /** The connection `opening` failed or ended: a failure, unless the catalog closed or a newer one is open. */
  #lost(opening: Promise<Client>, error: unknown): void {
    if (this.#closed || (this.#client !== undefined && this.#client !== opening)) return;
    this.#fail(problemOf(this.name, undefined, error, 0));
  }

  /** Ends the connection, if one was started, and any still being ended. */
  async close(): Promise<CloseReport | undefined> {
    this.#closed = true;
    this.#opening?.abort(new McpError('closed', `the catalog was closed while ${this.name} was starting`));
    const open = this.#client;
    this.#client = undefined;
    const [report] = await Promise.all([closeClient(open), ...this.#ending]);
    return report;
  }

  /** The error to throw instead of trying the server now: a fixed problem, or a failure still backing off. */
  #refusal(): McpError | undefined {
    if (this.#closed) return new McpError('closed', `the catalog was closed (server ${this.name})`);
    const problem = this.#fixed ?? this.#failure?.problem;
    if (problem === undefined) return undefined;
    if (
      this.#fixed === undefined &&
      this.#failure !== undefined &&
      this.#options.now() >= this.#failure.retryAt
    )
      return undefined;
    return new McpError(errorKind(problem.kind), problem.message, { delivery: 'not_sent' });
  }

  /** The client, connecting on first use; a failed connect leaves nothing behind and the next use tries again. */
  #open(): Promise<Client> {
    if (this.#client !== undefined) return this.#client;
    const opening = new AbortController();
    const base = this.#options.connect;
    const signal =
      base.signal === undefined ? opening.signal : AbortSignal.any([base.signal, opening.signal]);
    const onToolListChanged: ConnectOptions['onToolListChanged'] = (event) => {
      // `unavailable`: no events will come, and the list stays as the server's ttlMs allows.
      if (event.reason !== 'unavailable') this.#changed = true;
      base.onToolListChanged?.(event);
    };
    this.#opening = opening;
    const config = this.#config as ServerConfig;
    const client = import('../client/api.js').then(({ connect }) =>
      connect(config, { ...base, signal, onToolListChanged }),
    );
    this.#client = client;
    client.catch(() => {
      if (this.#client === client) this.#client = undefined;
    });
    return client;
  }

  async #list(timeoutMs: number): Promise<Listed> {
    const client = this.#open();
    const opening = this.#opening as AbortController;
    const listing = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      const reason = new McpError(
        'timeout',
        `${this.name} did not connect and list its tools within ${timeoutMs} ms`,
      );
      opening.abort(reason);
      listing.abort(reason);
    }, timeoutMs);
    // A notification that arrives while listing marks the new list stale at once.
    this.#changed = false;
    try {
      const answer = await (await client).listToolsDetailed({ signal: listing.signal, timeoutMs });
      const previous = this.#listed?.list.listDigest;
      const list: Listed = {
        tools: answer.tools,
        excluded: answer.excluded,
        digests: answer.digests,
        listDigest: answer.listDigest,
      };
      this.#listed = { list, ttlMs: answer.ttlMs, at: this.#options.now() };
      this.#failure = undefined;
      if (previous !== answer.listDigest) this.#options.onChange();
      return list;
    } catch (error) {
      const problem = problemOf(this.name, timedOut ? 'timeout' : undefined, error, timeoutMs);
      this.#fail(problem);
      throw new McpError(errorKind(problem.kind), problem.message, {
        delivery: 'not_sent',
        cause: error,
      });
    } finally {
      clearTimeout(timer);
    }
  }

  /** Records a failure: the attempt's connection is ended and the next attempt waits out the back-off. */
  #fail(problem: CatalogProblem): void {
    const count = (this.#failure?.count ?? 0) + 1;
    const delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** Math.min(count - 1, 16));
    this.#failure = { problem, retryAt: this.#options.now() + delay, count };
    const hadList = this.#listed !== undefined;
    this.#listed = undefined;
    if (hadList) this.#options.onChange();
    const failed = this.#client;
    this.#client = undefined;
    this.#opening?.abort(new McpError('cancelled', `${this.name} failed`));
    this.#opening = undefined;
    if (failed !== undefined) {
      const ending = closeClient(failed);
      this.#ending.add(ending);
      void ending.then(() => this.#ending.delete(ending));
    }
  }
}

/** Closes a client once it is open (a connect that fails leaves nothing open); never throws. */
async function closeClient(client: Promise<Client> | undefined): Promise<CloseReport | undefined> {
  const open = await client?.catch(() => undefined);
  return open?.close().catch(() => undefined);
}

/** A problem's kind as an error's: `untrusted`, `disabled` and anything else not an `ErrorKind` are `config`. */
export function errorKind(kind: string): ErrorKind {
  return (ERROR_KINDS as readonly string[]).includes(kind) ? (kind as ErrorKind) : 'config';
}

/** A failure as a problem: its kind and its (redacted, bounded) message. */
export function problemOf(
  server: string,
  forcedKind: string | undefined,
  error: unknown,
  timeoutMs: number,
): CatalogProblem {
  if (forcedKind === 'timeout')
    return {
      server,
      kind: 'timeout',
      message: `${server} did not connect and list its tools within ${timeoutMs} ms`,
    };
  if (isMcpError(error))
    return { server, kind: error.kind, message: error.message.slice(0, MAX_PROBLEM_CHARS) };
  const text = error instanceof Error ? error.message : String(error);
  return { server, kind: 'transport', message: redact(text, MAX_PROBLEM_CHARS) };
}
