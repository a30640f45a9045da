/**
 * Digests of tool definitions, so a definition a user approved can be pinned and a change caught (a
 * "rug pull": a server rewriting a tool's description after it was approved). Pure and documented to
 * the byte so other programs can recompute them (docs/client.md, "Filters and pins"):
 *
 * - canonical JSON is RFC 8785 (JCS) as `JSON.stringify` writes it: no whitespace, object keys sorted by
 *   UTF-16 code units, numbers and strings as `JSON.stringify` writes them (a lone surrogate as `\uXXXX`);
 * - a digest is `sha256:` and the lowercase hex SHA-256 of the UTF-8 bytes of that text;
 * - a part's digest is that of its value; the whole digest is that of the object of `name` and the parts
 *   present (`title`, `description`, `inputSchema`, `outputSchema`, `annotations`); the list digest is that
 *   of the object of tool name → whole digest.
 */
import { TOOL_PARTS, type ToolPart } from '../config/tool-policy.js';
import { McpError } from '../errors/index.js';
import { nodeCrypto } from '../internal/lazy-builtins.js';
import type { ToolDigest } from './types.js';

/** Deepest nesting digested; a deeper definition cannot be pinned (and is left out of a listing). */
export const MAX_DIGEST_DEPTH = 128;

/** Canonical JSON of a JSON value (RFC 8785 as `JSON.stringify` writes it). Throws past `MAX_DIGEST_DEPTH`. */
export function canonicalJson(value: unknown): string {
  return canonical(value, 0) ?? 'null';
}

/** `undefined` for what JSON leaves out (undefined, functions, symbols), as `JSON.stringify` does. */
function canonical(value: unknown, depth: number): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      // Non-finite numbers are `null` in JSON; -0 is `0`.
      return JSON.stringify(value);
    case 'bigint':
      throw new McpError('config', 'a tool definition holds a bigint, which is not JSON data');
    case 'object':
      break;
    default:
      return undefined;
  }
  if (depth >= MAX_DIGEST_DEPTH)
    throw new McpError('config', `a tool definition is nested deeper than ${MAX_DIGEST_DEPTH} levels`);
  if (Array.isArray(value)) {
    return `[${value.map((item) => canonical(item, depth + 1) ?? 'null').join(',')}]`;
  }
  const object = value as Record<string, unknown>;
  // Default sort order is by UTF-16 code units, as RFC 8785 §3.2.3 requires.
  const members: string[] = [];
  for (const key of Object.keys(object).sort()) {
    const text = canonical(object[key], depth + 1);
    if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${members.join(',')}}`;
}

function sha256(text: string): string {
  return `sha256:${nodeCrypto().createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

/**
 * The digests of a tool definition: the whole (`name` and the parts present) and each part. Pure: the
 * same definition gives the same digests whatever its key order or whitespace. Fields other than the
 * parts (`icons`, `_meta`, 2025 `execution`) are not covered. Throws `config` for a definition nested
 * deeper than `MAX_DIGEST_DEPTH`.
 */
export function toolDigest(tool: { readonly name: string; readonly [key: string]: unknown }): ToolDigest {
  if (typeof tool.name !== 'string')
    throw new McpError('config', 'toolDigest needs a tool with a string name');
  const parts: Partial<Record<ToolPart, string>> = {};
  const whole: Record<string, string> = { name: JSON.stringify(tool.name) };
  for (const part of TOOL_PARTS) {
    const text = canonical(tool[part], 1);
    if (text === undefined) continue;
    parts[part] = sha256(text);
    whole[part] = text;
  }
  // The whole object's canonical text, built from the parts' texts (each is canonical already).
  const members = Object.keys(whole)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${whole[key]}`);
  return { digest: sha256(`{${members.join(',')}}`), parts };
}

/**
 * Throws what `toolDigest(tool)` would throw for a definition nested deeper than `MAX_DIGEST_DEPTH`,
 * without building its canonical text or hashing it (so a listing can leave the digests to first read).
 */
export function checkDigestDepth(tool: { readonly [key: string]: unknown }): void {
  for (const part of TOOL_PARTS) checkDepth(tool[part], 1);
}

/** Mirrors `canonical`'s depth rule: an object or array at `depth` ≥ the limit throws. */
function checkDepth(value: unknown, depth: number): void {
  if (value === null || typeof value !== 'object') return;
  if (depth >= MAX_DIGEST_DEPTH)
    throw new McpError('config', `a tool definition is nested deeper than ${MAX_DIGEST_DEPTH} levels`);
  if (Array.isArray(value)) {
    for (const item of value) checkDepth(item, depth + 1);
    return;
  }
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object)) checkDepth(object[key], depth + 1);
}

/** The digest of a list: of the object of tool name → whole digest (order-independent). */
export function listDigest(digests: Readonly<Record<string, ToolDigest>>): string {
  const byName: Record<string, string> = {};
  for (const name of Object.keys(digests)) {
    const entry = digests[name];
    if (entry !== undefined)
      Object.defineProperty(byName, name, { value: entry.digest, enumerable: true, configurable: true });
  }
  return sha256(canonicalJson(byName));
}
