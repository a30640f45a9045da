/**
 * The walk over a tool's `inputSchema` that types `call`'s arguments: what a schema allows (its
 * alternatives), and the first problem of a value against it. Pure.
 *
 * The schema is server data: `$ref` is followed only inside the schema (never fetched), chains, nesting and
 * the work done are bounded, and `pattern` is never evaluated (the server checks what is not checked
 * here). Anything from the schema in a message goes through the terminal sanitizer.
 */
import { quoted, record } from './argument-words.js';
import { safeText } from './format.js';

/** Most `$ref` hops in one chain, schema levels walked, schema nodes visited per call. */
const MAX_REF_HOPS = 16;
const MAX_DEPTH = 32;
const MAX_WORK = 100_000;
/** Most branches of one `anyOf`/`oneOf`/type list, and enum values looked at. */
const MAX_BRANCHES = 64;
const MAX_ENUM = 1000;

/** A JSON value from the schema as shown in a message (`"fast"`, `2`): one line, bounded, terminal-safe. */
function shownJson(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return safeText(text.length > 40 ? `${text.slice(0, 39)}…` : text).replace(/\s+/g, ' ');
}

export type JsonType = 'null' | 'boolean' | 'integer' | 'number' | 'array' | 'object' | 'string';
export const TYPES: readonly JsonType[] = [
  'null',
  'boolean',
  'integer',
  'number',
  'array',
  'object',
  'string',
];

/**
 * One alternative a schema allows: a JSON type (with the schema node that holds its keywords), the values
 * of an `enum`/`const`, or `any` (the schema says nothing this code understands).
 */
export type Alternative =
  | { readonly type: JsonType; readonly node: Record<string, unknown> }
  | { readonly enum: readonly unknown[] }
  | { readonly any: true };

export interface Walk {
  readonly root: unknown;
  work: number;
}

/** `node[key]` only when it is the node's own property (never `__proto__`, `constructor`… inherited). */
function own(node: Record<string, unknown> | undefined, key: string): unknown {
  return node !== undefined && Object.hasOwn(node, key) ? node[key] : undefined;
}

/** A local JSON pointer (`#/$defs/Name`) in the root schema; anything else is not followed. */
export function pointer(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  const parts = ref.slice(2).split('/');
  if (parts.length > MAX_DEPTH) return undefined;
  for (const raw of parts) {
    let part: string;
    try {
      part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (Array.isArray(node)) node = /^\d+$/.test(part) ? node[Number(part)] : undefined;
    else node = own(record(node), part);
    if (node === undefined) return undefined;
  }
  return node;
}

/** The schema with its `$ref` chain followed (bounded); undefined when a reference leads nowhere. */
function resolve(schema: unknown, walk: Walk): unknown {
  let node = schema;
  for (let hops = 0; hops <= MAX_REF_HOPS; hops++) {
    const ref = own(record(node), '$ref');
    if (typeof ref !== 'string') return node;
    node = pointer(walk.root, ref);
  }
  return undefined;
}

/** What `schema` allows, as alternatives (bounded); `[]` for the `false` schema. */
export function alternatives(schema: unknown, walk: Walk, depth = 0): Alternative[] {
  walk.work++;
  if (depth > MAX_DEPTH || walk.work > MAX_WORK) return [{ any: true }];
  const resolved = resolve(schema, walk);
  if (resolved === false) return [];
  const node = record(resolved);
  if (node === undefined) return [{ any: true }];
  const values = own(node, 'enum');
  if (Array.isArray(values)) return [{ enum: values.slice(0, MAX_ENUM) }];
  if (Object.hasOwn(node, 'const')) return [{ enum: [node['const']] }];
  const type = own(node, 'type');
  const types = (
    typeof type === 'string' ? [type] : Array.isArray(type) ? type.slice(0, MAX_BRANCHES) : []
  ).filter((t): t is JsonType => TYPES.includes(t as JsonType));
  if (types.length > 0) return [...new Set(types)].map((t) => ({ type: t, node }));
  for (const key of ['anyOf', 'oneOf']) {
    const branches = own(node, key);
    if (Array.isArray(branches) && branches.length > 0)
      return branches.slice(0, MAX_BRANCHES).flatMap((b) => alternatives(b, walk, depth + 1));
  }
  const all = own(node, 'allOf');
  if (Array.isArray(all))
    for (const member of all.slice(0, MAX_BRANCHES)) {
      const found = alternatives(member, walk, depth + 1);
      if (!found.some((a) => 'any' in a)) return found;
    }
  if (record(own(node, 'properties')) !== undefined) return [{ type: 'object', node }];
  if (own(node, 'items') !== undefined || Array.isArray(own(node, 'prefixItems')))
    return [{ type: 'array', node }];
  return [{ any: true }];
}

/** `integer`, `"a" | "b"`, `string or null`: what the alternatives expect, for a message. */
export function expected(alts: readonly Alternative[]): string {
  const words = alts.map((a) =>
    'any' in a
      ? 'any value'
      : 'enum' in a
        ? `one of ${a.enum
            .slice(0, 8)
            .map((v) => shownJson(v))
            .join(', ')}${a.enum.length > 8 ? ', …' : ''}`
        : a.type === 'array' || a.type === 'object'
          ? `a JSON ${a.type}`
          : a.type,
  );
  return words.length === 0 ? 'nothing (the schema accepts no value)' : [...new Set(words)].join(' or ');
}

export function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function hasType(value: unknown, type: JsonType): boolean {
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

/** Deep equality of JSON values, bounded by the walk's budget. */
export function equal(a: unknown, b: unknown, walk: Walk): boolean {
  if (++walk.work > MAX_WORK) return true;
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every(
      (k) =>
        Object.hasOwn(b, k) &&
        equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], walk),
    )
  );
}

/**
 * The first problem of `value` against `schema` at `path`, or undefined: types, enums, and inside objects
 * and arrays `properties`, `required`, `additionalProperties: false`, `items`, `prefixItems`. Other
 * keywords (`pattern`, `minimum`, `format`…) are left to the server; past the bounds, a value passes.
 */
export function check(
  value: unknown,
  schema: unknown,
  path: string,
  walk: Walk,
  depth = 0,
): string | undefined {
  if (depth > MAX_DEPTH || walk.work > MAX_WORK) return undefined;
  const alts = alternatives(schema, walk, depth);
  const fits = alts.filter(
    (a) => 'any' in a || ('enum' in a ? a.enum.some((v) => equal(v, value, walk)) : hasType(value, a.type)),
  );
  if (fits.length === 0)
    return `${quoted(path, 80)} must be ${expected(alts)} (got ${typeOf(value)}${typeof value === 'string' ? ` ${quoted(value)}` : ''})`;
  let first: string | undefined;
  for (const alt of fits) {
    const problem = 'type' in alt ? checkInside(value, alt.node, path, walk, depth) : undefined;
    if (problem === undefined) return undefined;
    first ??= problem;
  }
  return first;
}

/** The keywords inside an object or array value (see `check`), and `allOf` members. */
function checkInside(
  value: unknown,
  node: Record<string, unknown>,
  path: string,
  walk: Walk,
  depth: number,
): string | undefined {
  const all = own(node, 'allOf');
  if (Array.isArray(all))
    for (const member of all.slice(0, MAX_BRANCHES)) {
      const problem = check(value, member, path, walk, depth + 1);
      if (problem !== undefined) return problem;
    }
  if (Array.isArray(value)) {
    const prefix = own(node, 'prefixItems');
    const items = own(node, 'items');
    for (let i = 0; i < value.length && walk.work <= MAX_WORK; i++) {
      const item = Array.isArray(prefix) && i < prefix.length ? prefix[i] : items;
      if (item === undefined || Array.isArray(item)) continue;
      const problem = check(value[i], item, `${path}[${i}]`, walk, depth + 1);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  const object = record(value);
  if (object === undefined) return undefined;
  const properties = record(own(node, 'properties')) ?? {};
  const required = own(node, 'required');
  if (Array.isArray(required))
    for (const key of required.slice(0, MAX_ENUM))
      if (typeof key === 'string' && !Object.hasOwn(object, key))
        return `${quoted(`${path}.${key}`, 80)} is required`;
  const additional = own(node, 'additionalProperties');
  const patterns = own(node, 'patternProperties') !== undefined;
  for (const key of Object.keys(object)) {
    if (walk.work > MAX_WORK) break;
    const at = `${path}.${key}`;
    const sub = Object.hasOwn(properties, key) ? properties[key] : patterns ? undefined : additional;
    if (sub === false) return `${quoted(at, 80)} is not a parameter here`;
    if (sub === undefined || sub === true) continue;
    const problem = check(object[key], sub, at, walk, depth + 1);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** The top-level schema facts: properties, required names, and what keys outside `properties` get. */
export function topLevel(inputSchema: unknown, walk: Walk) {
  const node = record(resolve(inputSchema, walk));
  const properties = record(own(node, 'properties'));
  const required = own(node, 'required');
  const additional = own(node, 'additionalProperties');
  // A schema that names its properties refuses others unless it allows them by name (a typo is
  // caught, not sent); one that names none (or has patternProperties, never evaluated) takes any key.
  const open = properties === undefined || own(node, 'patternProperties') !== undefined ? true : additional;
  return {
    properties: properties ?? {},
    required: Array.isArray(required)
      ? required.slice(0, MAX_ENUM).filter((r): r is string => typeof r === 'string')
      : [],
    extra: open === true || record(open) !== undefined ? (open as true | Record<string, unknown>) : false,
  };
}
