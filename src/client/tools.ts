/**
 * `tools/list` to the end: pagination with a page limit and repeated-cursor detection, a bounded
 * structural check that leaves a malformed tool out with a reason instead of failing the whole list,
 * and (2026 over HTTP) the `x-mcp-header` rules. Definitions are returned exactly as given: no `$ref`
 * is dereferenced and no keyword stripped. Spec: S25+26/server/utilities/pagination, S25+26/server/tools.
 */
import { McpError } from '../errors/index.js';
import { type HeaderParam, validateToolHeaders } from '../protocol/tool-headers.js';
import type { ExcludedTool, Tool, ToolList } from './types.js';

export interface ToolCheckContext {
  /** Apply the `x-mcp-header` rules (2026-07-28 over Streamable HTTP; stdio MAY ignore them). */
  headerRules: boolean;
}

export interface CheckedTools {
  tools: Tool[];
  excluded: ExcludedTool[];
  /** `x-mcp-header` parameters of each usable tool that has any. */
  headerParams: Map<string, HeaderParam[]>;
}

/**
 * Sorts raw `tools` entries into usable tools and excluded ones. Never throws on server data. A name used
 * by more than one entry is excluded for all of them: which definition the server runs is unknown, so
 * none is offered — what is listed is callable, what is excluded is refused.
 */
export function checkTools(raw: readonly unknown[], context: ToolCheckContext): CheckedTools {
  const tools: Tool[] = [];
  const excluded: ExcludedTool[] = [];
  const headerParams = new Map<string, HeaderParam[]>();
  const counts = new Map<string, number>();
  for (const entry of raw) {
    const name = nameOf(entry);
    if (name !== '') counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  for (const entry of raw) {
    const name = nameOf(entry);
    const copies = counts.get(name) ?? 0;
    const reason =
      structuralProblem(entry, name) ?? (copies > 1 ? `${copies} tools have this name` : undefined);
    if (reason) {
      excluded.push({ name: name || '(unnamed)', reason });
      continue;
    }
    const tool = entry as Tool;
    if (context.headerRules) {
      const check = validateToolHeaders(tool);
      if (!check.ok) {
        excluded.push({ name, reason: check.reason });
        continue;
      }
      if (check.params.length > 0) headerParams.set(name, check.params);
    }
    tools.push(tool);
  }
  return { tools, excluded, headerParams };
}

function nameOf(entry: unknown): string {
  const name = (entry as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : '';
}

function structuralProblem(entry: unknown, name: string): string | undefined {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
    return 'the definition is not an object';
  if (name === '') return 'name is missing or not a string';
  if (name.length > 512) return 'name is longer than 512 characters';
  const schema = (entry as { inputSchema?: unknown }).inputSchema;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    return 'inputSchema is not an object';
  // Both revisions require an object schema at the root (T25, T26 `Tool.inputSchema`).
  if ((schema as { type?: unknown }).type !== 'object') return 'inputSchema.type is not "object"';
  return undefined;
}

/** Upper bound on pages followed by one `listTools`. */
export const DEFAULT_MAX_PAGES = 100;

export type PageFetcher = (cursor: string | undefined) => Promise<Record<string, unknown>>;

/**
 * Follows `nextCursor` to the end, bounded by `maxPages`; a cursor seen twice is a protocol error. `method`
 * and `key` name the list (`tools/list` and `tools` by default; resources and prompts use the same seam).
 */
export async function fetchAllPages(
  fetchPage: PageFetcher,
  target: string,
  maxPages: number,
  method = 'tools/list',
  key = 'tools',
): Promise<{ items: unknown[]; last: Record<string, unknown> }> {
  const items: unknown[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const result = await fetchPage(cursor);
    const list = result[key];
    if (!Array.isArray(list)) {
      throw new McpError('protocol', `${method} on ${target}: the result has no ${key} array`, {
        delivery: 'delivered',
      });
    }
    for (const item of list) items.push(item);
    const next = result['nextCursor'];
    // A missing cursor is the end; an empty string is a valid cursor in 2026 (S26/server/utilities/pagination).
    if (next === undefined || next === null) return { items, last: result };
    if (typeof next !== 'string') {
      throw new McpError('protocol', `${method} on ${target}: nextCursor is not a string`, {
        delivery: 'delivered',
      });
    }
    if (cursors.has(next)) {
      throw new McpError(
        'protocol',
        `${method} on ${target}: the server repeated a cursor (pagination loop)`,
        {
          delivery: 'delivered',
        },
      );
    }
    cursors.add(next);
    cursor = next;
  }
  throw new McpError('protocol', `${method} on ${target}: more than ${maxPages} pages`, {
    delivery: 'delivered',
  });
}

/** Freshness of a cached list (S26/server/utilities/caching): missing or negative ttlMs is stale at once. */
export function isFresh(list: ToolList, receivedAt: number, now: number): boolean {
  const ttl = typeof list.ttlMs === 'number' && list.ttlMs > 0 ? list.ttlMs : 0;
  return now < receivedAt + ttl;
}
