/**
 * The `x-mcp-header` annotation of a tool's `inputSchema` (2026-07-28): which annotations make a tool
 * invalid (so the client drops it from `tools/list`), and the `Mcp-Param-{name}` headers a call carries.
 * Spec: S26/basic/transports/streamable-http "Custom headers", S26/server/tools "x-mcp-header". Pure.
 */
import { McpError } from '../errors/index.js';
import { encodeHeaderValue } from './header-value.js';
import { isToken } from './http-token.js';

/** One annotated parameter: the header suffix and the exact `properties` path from the schema root. */
export interface HeaderParam {
  name: string;
  path: string[];
}

export type ToolHeadersCheck = { ok: true; params: HeaderParam[] } | { ok: false; reason: string };

const ANNOTATION = 'x-mcp-header';
/** Keywords whose values are instance data, not schemas: an `x-mcp-header` key inside them is not an annotation. */
const DATA_KEYWORDS = new Set(['const', 'default', 'enum', 'examples']);
/** Keywords holding a map from names to schemas. */
const MAP_KEYWORDS = new Set(['$defs', 'definitions', 'patternProperties', 'dependentSchemas']);
const HEADER_TYPES = new Set(['string', 'integer', 'boolean']);
/** Bounds against hostile schemas: a walk costs at most this many nodes and this depth. */
const MAX_DEPTH = 64;
const MAX_NODES = 10_000;
/** Longest encoded `Mcp-Param-*` value we send; servers commonly cap a header line at 8–16 KiB. */
export const MAX_PARAM_HEADER_CHARS = 8192;

type Found = { name: unknown; path: string[] | null; schema: Record<string, unknown> };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks every `x-mcp-header` annotation of `tool.inputSchema` against the rules of S26/server/tools:
 * a non-empty RFC 9110 token (so no CR/LF, space, `:`, non-ASCII), unique case-insensitively, on a
 * `string`/`integer`/`boolean` property (a type array may add only `null`), reachable from the root
 * through `properties` alone. A tool without annotations is valid with no params.
 */
export function validateToolHeaders(tool: unknown): ToolHeadersCheck {
  const schema = isObject(tool) ? tool['inputSchema'] : undefined;
  if (!isObject(schema)) return { ok: true, params: [] };
  const found: Found[] = [];
  const budget = { nodes: 0 };
  if (!walk(schema, [], 0, budget, found))
    return { ok: false, reason: 'inputSchema is too large or too deep to check' };
  const params: HeaderParam[] = [];
  const seen = new Set<string>();
  for (const item of found) {
    const where =
      item.path === null ? 'outside properties' : `at ${item.path.length ? item.path.join('.') : 'the root'}`;
    if (typeof item.name !== 'string') return { ok: false, reason: `x-mcp-header ${where} is not a string` };
    if (item.name === '') return { ok: false, reason: `x-mcp-header ${where} is empty` };
    if (/[\r\n]/.test(item.name)) return { ok: false, reason: `x-mcp-header ${where} contains CR or LF` };
    if (!isToken(item.name)) {
      return {
        ok: false,
        reason: `x-mcp-header ${JSON.stringify(item.name)} ${where} is not an RFC 9110 token`,
      };
    }
    if (item.path === null || item.path.length === 0) {
      return {
        ok: false,
        reason: `x-mcp-header ${item.name} is not on a property reachable through properties alone (${where})`,
      };
    }
    const typeProblem = checkType(item.schema['type']);
    if (typeProblem !== null)
      return { ok: false, reason: `x-mcp-header ${item.name} ${where}: ${typeProblem}` };
    const key = item.name.toLowerCase();
    if (seen.has(key))
      return {
        ok: false,
        reason: `x-mcp-header ${item.name} is used twice (names compare case-insensitively)`,
      };
    seen.add(key);
    params.push({ name: item.name, path: item.path });
  }
  return { ok: true, params };
}

/** `path` is the pure-`properties` path of this schema, or null once the walk left `properties`. */
function walk(
  schema: Record<string, unknown>,
  path: string[] | null,
  depth: number,
  budget: { nodes: number },
  found: Found[],
): boolean {
  if (depth > MAX_DEPTH || ++budget.nodes > MAX_NODES) return false;
  if (Object.hasOwn(schema, ANNOTATION)) found.push({ name: schema[ANNOTATION], path, schema });
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === ANNOTATION || DATA_KEYWORDS.has(keyword)) continue;
    if (keyword === 'properties' && isObject(value)) {
      for (const [prop, sub] of Object.entries(value)) {
        if (isObject(sub) && !walk(sub, path === null ? null : [...path, prop], depth + 1, budget, found))
          return false;
      }
    } else if (MAP_KEYWORDS.has(keyword) && isObject(value)) {
      for (const sub of Object.values(value)) {
        if (isObject(sub) && !walk(sub, null, depth + 1, budget, found)) return false;
      }
    } else if (Array.isArray(value)) {
      for (const sub of value) {
        if (isObject(sub) && !walk(sub, null, depth + 1, budget, found)) return false;
      }
    } else if (isObject(value) && !walk(value, null, depth + 1, budget, found)) {
      return false;
    }
  }
  return true;
}

/** Null when the `type` keyword is one header-able primitive (optionally with `null`); else why not. */
function checkType(type: unknown): string | null {
  const types = typeof type === 'string' ? [type] : Array.isArray(type) ? type : null;
  if (types === null) return 'the property has no type (string, integer or boolean required)';
  const primitives = types.filter((t) => t !== 'null');
  if (primitives.length !== 1 || types.length - primitives.length > 1) {
    return `type ${JSON.stringify(type)} is not one of string, integer, boolean (optionally with null)`;
  }
  const only = primitives[0];
  if (typeof only !== 'string' || !HEADER_TYPES.has(only)) {
    return `type ${JSON.stringify(type)} is not one of string, integer, boolean (number is not allowed)`;
  }
  return null;
}

/**
 * Builds the `Mcp-Param-{name}` headers of a `tools/call` from its `arguments`. Absent or `null` → no
 * header; any other value → the header is mandatory (an empty string gives an empty header). Throws
 * `McpError` kind `config` for a value that is not a primitive, a non-safe integer, or too long.
 */
export function paramHeaders(params: readonly HeaderParam[], args: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const param of params) {
    const value = valueAt(args, param.path);
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      throw new McpError(
        'config',
        `argument ${param.path.join('.')} for header Mcp-Param-${param.name} is not a string, integer or boolean`,
      );
    }
    const encoded = encodeHeaderValue(value);
    if (encoded.length > MAX_PARAM_HEADER_CHARS) {
      throw new McpError(
        'config',
        `argument ${param.path.join('.')} is too long for header Mcp-Param-${param.name} (${encoded.length} > ${MAX_PARAM_HEADER_CHARS} chars encoded)`,
      );
    }
    out[`Mcp-Param-${param.name}`] = encoded;
  }
  return out;
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let current = root;
  for (const key of path) {
    if (!isObject(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return current;
}
