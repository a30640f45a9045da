/**
 * What the client knows of the server's tools: the last checked list with its 2026 cache hints, the tools
 * left out and why, and the `x-mcp-header` parameters to mirror. One owner for that state: the client
 * stores a list here, a `tools/list_changed` notification invalidates it, calls read it.
 */
import type { HeaderParam } from '../protocol/tool-headers.js';
import { type CheckedTools, isFresh } from './tools.js';
import type { ToolList } from './types.js';

export class ToolCatalog {
  #cached: { list: ToolList; receivedAt: number } | undefined;
  #headerParams = new Map<string, HeaderParam[]>();
  #excluded = new Map<string, string>();
  /** Usable tool names of the last list; `undefined` before any list. */
  #known: Set<string> | undefined;

  /** Keeps a freshly fetched list; returns the `ToolList` to hand back. */
  store(checked: CheckedTools, last: Record<string, unknown>, now: number): ToolList {
    this.#headerParams = checked.headerParams;
    this.#excluded = new Map(checked.excluded.map((e) => [e.name, e.reason]));
    this.#known = new Set(checked.tools.map((t) => t.name));
    const list: ToolList = { tools: checked.tools, excluded: checked.excluded, fromCache: false };
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
    return { ...cached.list, fromCache: true };
  }

  /** The server said its tools changed: the cached list is stale (definitions stay known for calls). */
  invalidate(): void {
    this.#cached = undefined;
  }

  /** True when the last list had `name` as usable or as excluded, so a call need not list first. */
  listed(name: string): boolean {
    return this.#known?.has(name) === true || this.#excluded.has(name);
  }

  /** Why `name` was left out of the last list, if it was. */
  excludedReason(name: string): string | undefined {
    return this.#excluded.get(name);
  }

  headerParams(name: string): HeaderParam[] | undefined {
    return this.#headerParams.get(name);
  }
}
