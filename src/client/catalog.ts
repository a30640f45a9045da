/**
 * What the client knows of the server's tools: the last checked list with its 2026 cache hints, the tools
 * left out and why, and the `x-mcp-header` parameters to mirror. One owner for that state: the client
 * stores a list here, a `tools/list_changed` notification invalidates it, calls read it. The list a
 * pinned call is checked against is the last one stored, until a notification invalidates it.
 */
import { defineLazy } from '../internal/lazy-property.js';
import type { HeaderParam } from '../protocol/tool-headers.js';
import type { ListedTools } from './tool-pins.js';
import { isFresh } from './tools.js';
import type { ExcludedTool, Tool, ToolList } from './types.js';

export class ToolCatalog {
  #cached: { list: ToolList; receivedAt: number } | undefined;
  #headerParams = new Map<string, HeaderParam[]>();
  #excluded = new Map<string, ExcludedTool>();
  /** Usable tools of the last list, by name; `undefined` before any list. */
  #known: Map<string, Tool> | undefined;

  /** Keeps a freshly fetched list; returns the `ToolList` to hand back. */
  store(checked: ListedTools, last: Record<string, unknown>, now: number): ToolList {
    this.#headerParams = checked.headerParams;
    this.#excluded = new Map(checked.excluded.map((e) => [e.name, e]));
    this.#known = new Map([...checked.tools, ...checked.appOnly].map((t) => [t.name, t]));
    const list = {
      tools: checked.tools,
      appOnly: checked.appOnly,
      excluded: checked.excluded,
      digests: checked.digests,
      fromCache: false,
    } as ToolList;
    // Read from `checked` on first use only: it is computed then (tool-pins.ts).
    defineLazy(list, 'listDigest', () => checked.listDigest);
    if (typeof last['ttlMs'] === 'number') list.ttlMs = last['ttlMs'];
    if (last['cacheScope'] === 'public' || last['cacheScope'] === 'private')
      list.cacheScope = last['cacheScope'];
    this.#cached = { list, receivedAt: now };
    return list;
  }

  /** The cached list while its `ttlMs` lasts (S26/server/utilities/caching), else undefined. */
  fresh(now: number): ToolList | undefined {
    const cached = this.#cached;
    if (cached === undefined || !isFresh(cached.list, cached.receivedAt, now)) return undefined;
    // A copy that keeps `listDigest` uncomputed until read (a spread would compute it now).
    const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(cached.list)) as ToolList;
    copy.fromCache = true;
    return copy;
  }

  /** The server said its tools changed: the cached list is stale (definitions stay known for calls). */
  invalidate(): void {
    this.#cached = undefined;
  }

  /** True while the last list stored has not been invalidated (a pinned call may be checked against it). */
  current(): boolean {
    return this.#cached !== undefined;
  }

  /** True when the last list had `name` as usable or as excluded, so a call need not list first. */
  listed(name: string): boolean {
    return this.#known?.has(name) === true || this.#excluded.has(name);
  }

  /** The usable tool names of the last list while it is current (not invalidated), else undefined. */
  names(): string[] | undefined {
    return this.#cached === undefined ? undefined : this.#cached.list.tools.map((t) => t.name);
  }

  /** The definition of `name` in the last list (its schema, for `validateArguments`), if it was usable or app-only. */
  tool(name: string): Tool | undefined {
    return this.#known?.get(name);
  }

  /** Why `name` was left out of the last list, if it was. */
  excluded(name: string): ExcludedTool | undefined {
    return this.#excluded.get(name);
  }

  headerParams(name: string): HeaderParam[] | undefined {
    return this.#headerParams.get(name);
  }
}
