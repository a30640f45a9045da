/**
 * `catalog()`: many servers as one. Nothing starts until used; a search lists every server it covers at
 * once, each bounded by `listTimeoutMs`, and ranks the tools of those that answered with one BM25F index
 * (rebuilt only when a server's list digest changes, so a search over lists already held is an index
 * lookup); a server that failed is a problem of the answer, never a failure of it. Refs are `server.tool`:
 * server names never hold a dot, so a ref splits at its first one (tool names may hold dots).
 */
import type { CloseReport } from '../client/client.js';
import { filterReason } from '../client/tool-filter.js';
import type { Tool, ToolCallOutcome } from '../client/types.js';
import { type ToolFilterConfig, toolFilterOf } from '../config/tool-policy.js';
import { isMcpError, McpError } from '../errors/index.js';
import { approvalGlobs, withApprovals, withApprover } from './approval.js';
import { documentOf, hitOf, refOf, splitRef } from './hits.js';
import { notARef, notOffered, unknownServer, unlisted } from './lookup.js';
import { type Listed, Member } from './member.js';
import { SearchIndex } from './search-index.js';
import { type CatalogServers, sourcesOf } from './sources.js';
import type {
  Catalog,
  CatalogCallOptions,
  CatalogOptions,
  CatalogProblem,
  CatalogSearch,
  SearchDetail,
  SearchHit,
  SearchOptions,
  ToolDescription,
} from './types.js';

export const DEFAULT_LIST_TIMEOUT_MS = 10_000;
export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 1_000;
const DETAILS: readonly SearchDetail[] = ['names', 'descriptions', 'full'];

/** The index of the lists held, and each indexed tool by ref. */
interface Built {
  readonly index: SearchIndex;
  readonly tools: Map<string, { readonly server: string; readonly tool: Tool }>;
}

/**
 * A catalog of `servers`: a record of server configs, `loadServers()`'s result or its `servers`. Starts
 * nothing; throws `config` for options that are not valid or more than 256 servers.
 */
export function catalog(servers: CatalogServers, options: CatalogOptions = {}): Catalog {
  return new ServerCatalog(servers, options);
}

class ServerCatalog implements Catalog {
  readonly servers: readonly string[];
  readonly #members = new Map<string, Member>();
  readonly #filter: ToolFilterConfig | undefined;
  readonly #listTimeoutMs: number;
  readonly #maxResultChars: number | undefined;
  #index: Built | undefined;
  #closing: Promise<Record<string, CloseReport | undefined>> | undefined;

  constructor(input: CatalogServers, options: CatalogOptions) {
    if (typeof input !== 'object' || input === null || Array.isArray(input))
      throw configError('catalog() needs a record of server configs or the result of loadServers()');
    this.#listTimeoutMs = positive(options.listTimeoutMs, 'listTimeoutMs') ?? DEFAULT_LIST_TIMEOUT_MS;
    this.#maxResultChars = positive(options.maxResultChars, 'maxResultChars');
    this.#filter = catalogFilter(options.tools);
    const sources = sourcesOf(input, options.trustProject === true);
    const { connect } = options;
    const approvals = approvalGlobs(options.tools?.approve);
    for (const [name, found] of sources) {
      const source = 'config' in found ? { config: withApprovals(found.config, name, approvals) } : found;
      this.#members.set(
        name,
        new Member(name, source, {
          connect: withApprover(
            (typeof connect === 'function' ? connect(name) : connect) ?? {},
            name,
            options.onApprove,
          ),
          now: options.now ?? Date.now,
          onChange: () => {
            this.#index = undefined;
          },
        }),
      );
    }
    this.servers = Object.freeze([...this.#members.keys()]);
  }

  async search(query: string, options: SearchOptions = {}): Promise<CatalogSearch> {
    if (typeof query !== 'string') throw configError('search needs a query string');
    const limit = options.limit ?? DEFAULT_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
      throw configError(`search limit must be a whole number from 1 to ${MAX_LIMIT}`);
    const detail = options.detail ?? 'descriptions';
    if (!DETAILS.includes(detail)) throw configError('search detail must be names, descriptions or full');
    const chosen =
      options.servers === undefined ? [...this.#members.values()] : this.#chosen(options.servers);
    const { answered, problems } = await this.#gather(chosen);
    const { index, tools } = this.#currentIndex();
    const only = answered.size === this.#members.size ? undefined : answered;
    const results = index.search(query, limit, only).map((hit) => {
      const found = tools.get(hit.ref) as { server: string; tool: Tool };
      return hitOf(found.server, found.tool, hit.score, detail);
    });
    return { results, problems };
  }

  async list(): Promise<CatalogSearch> {
    const { answered, problems } = await this.#gather([...this.#members.values()]);
    const results: SearchHit[] = [];
    for (const { server, tool } of this.#currentIndex().tools.values())
      if (answered.has(server)) results.push(hitOf(server, tool, 0, 'names'));
    results.sort((a, b) => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
    return { results, problems };
  }

  async describe(ref: string): Promise<ToolDescription> {
    const { member, tool } = this.#resolve(ref);
    const listed = await member.tools(this.#listTimeoutMs);
    const definition = listed.tools.find((t) => t.name === tool);
    if (definition === undefined) throw this.#unlisted(member.name, tool, listed);
    // Keys in reading order: identity, words, schemas, digest.
    return {
      ref: refOf(member.name, tool),
      server: member.name,
      tool,
      ...(typeof definition.title === 'string' ? { title: definition.title } : {}),
      ...(typeof definition.description === 'string' ? { description: definition.description } : {}),
      inputSchema: definition.inputSchema,
      ...(definition.outputSchema === undefined ? {} : { outputSchema: definition.outputSchema }),
      ...(definition.annotations === undefined ? {} : { annotations: definition.annotations }),
      digest: listed.digests[tool]?.digest ?? '',
    };
  }

  async call(
    ref: string,
    args: Record<string, unknown> = {},
    options: CatalogCallOptions = {},
  ): Promise<ToolCallOutcome> {
    const { member, tool } = this.#resolve(ref);
    const budget = options.maxResultChars ?? this.#maxResultChars;
    return member.call(tool, args, budget === undefined ? options : { ...options, maxResultChars: budget });
  }

  problems(): readonly CatalogProblem[] {
    const out: CatalogProblem[] = [];
    for (const member of this.#members.values())
      if (member.problem !== undefined) out.push({ ...member.problem });
    return out;
  }

  close(): Promise<Record<string, CloseReport | undefined>> {
    this.#closing ??= (async () => {
      const members = [...this.#members.values()];
      const reports = await Promise.all(members.map((member) => member.close()));
      const out: Record<string, CloseReport | undefined> = {};
      members.forEach((member, i) => {
        Object.defineProperty(out, member.name, { value: reports[i], enumerable: true, writable: true });
      });
      return out;
    })();
    return this.#closing;
  }

  /** Lists `members` at once; those that answered, and the problems of the rest. */
  async #gather(members: readonly Member[]): Promise<{ answered: Set<string>; problems: CatalogProblem[] }> {
    if (this.#closing !== undefined) throw new McpError('closed', 'the catalog was closed');
    const outcomes = await Promise.all(
      members.map((member) =>
        member.tools(this.#listTimeoutMs).then(
          () => true,
          () => false,
        ),
      ),
    );
    const answered = new Set<string>();
    const problems: CatalogProblem[] = [];
    members.forEach((member, i) => {
      if (outcomes[i] === true) answered.add(member.name);
      else if (member.problem !== undefined) problems.push({ ...member.problem });
    });
    return { answered, problems };
  }

  /** The index of every list held, built again only after a list changed. */
  #currentIndex(): Built {
    if (this.#index !== undefined) return this.#index;
    const tools = new Map<string, { server: string; tool: Tool }>();
    for (const member of this.#members.values()) {
      const listed = member.last();
      if (listed === undefined) continue;
      for (const tool of listed.tools) {
        const ref = refOf(member.name, tool.name);
        if (filterReason(this.#filter, ref) === undefined) tools.set(ref, { server: member.name, tool });
      }
    }
    const index = new SearchIndex([...tools.values()].map(({ server, tool }) => documentOf(server, tool)));
    this.#index = { index, tools };
    return this.#index;
  }

  #chosen(names: readonly string[]): Member[] {
    if (!Array.isArray(names)) throw configError('search servers must be an array of server names');
    return [...new Set(names)].map((name) => {
      const member = typeof name === 'string' ? this.#members.get(name) : undefined;
      if (member === undefined) throw unknownServer(String(name), this.servers);
      return member;
    });
  }

  /** The member and tool of `ref`: a known server, a tool the catalog's filter lets through. */
  #resolve(ref: string): { member: Member; tool: string } {
    if (this.#closing !== undefined) throw new McpError('closed', 'the catalog was closed');
    const parts = splitRef(ref);
    if (parts === undefined) throw notARef(ref, typeof ref === 'string' ? this.#refsNamed(ref) : []);
    const member = this.#members.get(parts.server);
    if (member === undefined) throw unknownServer(parts.server, this.servers);
    const reason = filterReason(this.#filter, ref);
    if (reason !== undefined) throw notOffered(ref, reason);
    return { member, tool: parts.tool };
  }

  /** The refs held whose tool is named `tool`. */
  #refsNamed(tool: string): string[] {
    const out: string[] = [];
    for (const member of this.#members.values())
      if (member.last()?.tools.some((t) => t.name === tool)) out.push(refOf(member.name, tool));
    return out;
  }

  #unlisted(server: string, tool: string, listed: Listed): McpError {
    const names = listed.tools.map((t) => t.name);
    const excluded = listed.excluded.find((e) => e.name === tool);
    const elsewhere = this.#refsNamed(tool).filter((ref) => !ref.startsWith(`${server}.`));
    return unlisted(server, tool, excluded, names, elsewhere);
  }
}

function configError(message: string): McpError {
  return new McpError('config', message, { delivery: 'not_sent' });
}

/** A positive whole number of an option, or undefined when absent. */
function positive(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0)
    throw configError(`catalog option ${name} must be a positive whole number`);
  return value;
}

/** The catalog's `tools` option, checked like a config's `tools` (bounded lists of names and `*` globs). */
function catalogFilter(tools: CatalogOptions['tools']): ToolFilterConfig | undefined {
  try {
    return toolFilterOf(tools);
  } catch (error) {
    if (!isMcpError(error)) throw error;
    throw configError(error.message.replace('invalid server config: tools', 'invalid catalog option tools'));
  }
}
