/**
 * A listed tool as the catalog shows it: the document the search index reads (name, title, description,
 * the top-level parameters of its input schema) and the hit a search returns at each detail. Server text
 * is data: returned as given but cut (a title to 200 characters, a description to 1,000), never read as
 * anything else; `describe` is where the whole definition is.
 */
import type { Tool } from '../client/types.js';
import { clipStart } from '../internal/text-cuts.js';
import type { SearchDocument } from './search-index.js';
import type { SearchDetail, SearchHit } from './types.js';

export const MAX_HIT_TITLE_CHARS = 200;
export const MAX_HIT_DESCRIPTION_CHARS = 1_000;
/** Parameters read per tool for the index (the index reads at most 64 of them). */
const MAX_PARAMETERS = 64;

/** `server.tool`. Server names never hold a dot, so the first dot of a ref ends the server's name. */
export function refOf(server: string, tool: string): string {
  return `${server}.${tool}`;
}

/** The server and tool of a ref, split at its first dot; undefined when it has no dot or an empty part. */
export function splitRef(ref: string): { server: string; tool: string } | undefined {
  const dot = typeof ref === 'string' ? ref.indexOf('.') : -1;
  if (dot <= 0 || dot === ref.length - 1) return undefined;
  return { server: ref.slice(0, dot), tool: ref.slice(dot + 1) };
}

/** What the index reads of `tool`. */
export function documentOf(server: string, tool: Tool): SearchDocument {
  return {
    ref: refOf(server, tool.name),
    server,
    name: tool.name,
    title: text(tool.title),
    description: text(tool.description),
    parameters: parametersOf(tool.inputSchema),
  };
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function parametersOf(schema: unknown): NonNullable<SearchDocument['parameters']> {
  const properties = (schema as { properties?: unknown } | undefined)?.properties;
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return [];
  const out: { name: string; description?: string | undefined }[] = [];
  for (const name in properties) {
    if (!Object.hasOwn(properties, name)) continue;
    if (out.length === MAX_PARAMETERS) break;
    const property: unknown = (properties as Record<string, unknown>)[name];
    const description =
      typeof property === 'object' && property !== null
        ? text((property as { description?: unknown }).description)
        : undefined;
    out.push({ name, description });
  }
  return out;
}

/** `text` cut to `max` characters, ending with `…` when cut. */
export function cut(value: string, max: number): string {
  return value.length > max ? clipStart(value, max) : value;
}

/** The hit for `tool` at `detail`. */
export function hitOf(server: string, tool: Tool, score: number, detail: SearchDetail): SearchHit {
  const hit: SearchHit = { ref: refOf(server, tool.name), server, tool: tool.name, score };
  if (detail === 'names') return hit;
  const title = text(tool.title);
  const description = text(tool.description);
  if (title !== undefined) hit.title = cut(title, MAX_HIT_TITLE_CHARS);
  if (description !== undefined) hit.description = cut(description, MAX_HIT_DESCRIPTION_CHARS);
  if (detail === 'descriptions') return hit;
  hit.inputSchema = tool.inputSchema;
  if (tool.outputSchema !== undefined) hit.outputSchema = tool.outputSchema;
  if (tool.annotations !== undefined) hit.annotations = tool.annotations;
  return hit;
}
