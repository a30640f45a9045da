/**
 * A server's JSON Schema reduced to what the type generator may see: the keywords that shape a type
 * (type, properties, required, items, enum, const, anyOf/oneOf/allOf, additionalProperties) and
 * descriptions made safe as comment text. Every `$ref` is resolved here, inside the same document, or
 * typed `unknown`: nothing is fetched or read, and the generator never sees a `$ref`, an `$id` or a
 * keyword of its own from the server (`tsType` would be pasted into the file as code; the one we set is
 * the constant `unknown`). Depth, size, recursion and list
 * lengths are bounded, so a hostile schema costs a bounded amount of work. Pure.
 */
import { commentBody } from './text.js';

/** Nesting below this many schema levels ($ref hops included) is typed `unknown`. */
export const MAX_SCHEMA_DEPTH = 32;
/** Schema nodes taken from one tool's schema ($ref copies included); past it, `unknown`. */
export const MAX_SCHEMA_NODES = 5000;
/** Longest `enum` turned into a union of literals; a longer one types only by `type`. */
export const MAX_ENUM_VALUES = 500;
/** Longest string in an `enum` or `const`; an `enum` holding a longer one types only by `type`. */
export const MAX_LITERAL_CHARS = 1000;
/** Longest property name kept; a longer one is left to the index signature. */
export const MAX_PROPERTY_NAME = 512;
/** Most members of `anyOf`, `oneOf`, `allOf` or a tuple; more are typed `unknown`. */
export const MAX_MEMBERS = 64;
const MAX_DESCRIPTION = 2000;
const MAX_DEFAULT = 200;

/** The members TypeScript gives every object type; see `#object`. */
const OBJECT_MEMBERS = [
  'constructor',
  'toString',
  'toLocaleString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
];

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

type Schema = Record<string, unknown>;

export interface SafeSchema {
  /** The reduced schema: plain JSON data holding no `$ref`. */
  schema: Schema;
  /** What was typed `unknown` and why, in words fit for a comment (never the schema's own text). */
  notes: string[];
}

/**
 * `schema` reduced for the generator (see the file header). `description` becomes the root's
 * description (the root's own `title` and `description` are dropped: the caller words the doc comment).
 */
export function safeSchema(schema: unknown, description?: string): SafeSchema {
  const walker = new Walker(schema);
  const out = walker.walk(schema, 0, ['#']);
  delete out['description'];
  if (description !== undefined && description !== '') out['description'] = description;
  return { schema: out, notes: [...walker.notes] };
}

function isObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function own(object: object, key: string): unknown {
  return Object.hasOwn(object, key) ? (object as Record<string, unknown>)[key] : undefined;
}

/** Sets `key` as an own data property, even when it is `__proto__`. */
function define(object: Schema, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

function isLiteral(value: unknown): boolean {
  if (typeof value === 'string') return value.length <= MAX_LITERAL_CHARS;
  return (
    typeof value === 'boolean' || value === null || (typeof value === 'number' && Number.isFinite(value))
  );
}

class Walker {
  readonly notes = new Set<string>();
  #nodes = 0;
  readonly #root: unknown;

  constructor(root: unknown) {
    this.#root = root;
  }

  walk(node: unknown, depth: number, refs: readonly string[]): Schema {
    if (!isObject(node)) return {};
    if (depth >= MAX_SCHEMA_DEPTH) {
      this.notes.add(`parts nested deeper than ${MAX_SCHEMA_DEPTH} levels are typed unknown`);
      return {};
    }
    if (++this.#nodes > MAX_SCHEMA_NODES) {
      this.notes.add(`the schema has more than ${MAX_SCHEMA_NODES} parts; the rest is typed unknown`);
      return {};
    }
    const ref = own(node, '$ref');
    if (typeof ref === 'string') return this.#ref(node, ref, depth, refs);
    const out: Schema = {};
    const doc = describe(node);
    if (doc !== undefined) out['description'] = doc;
    if (own(node, 'deprecated') === true) out['deprecated'] = true;
    const type = own(node, 'type');
    if (typeof type === 'string' && TYPES.has(type)) out['type'] = type;
    else if (
      Array.isArray(type) &&
      type.length > 0 &&
      type.every((t) => typeof t === 'string' && TYPES.has(t))
    )
      out['type'] = [...new Set(type)];
    this.#object(node, out, depth, refs);
    this.#array(node, out, depth, refs);
    const values = own(node, 'enum');
    if (
      Array.isArray(values) &&
      values.length > 0 &&
      values.length <= MAX_ENUM_VALUES &&
      values.every(isLiteral)
    )
      out['enum'] = [...values];
    const constant = own(node, 'const');
    if (constant !== undefined && isLiteral(constant)) out['enum'] = [constant];
    for (const keyword of ['anyOf', 'oneOf', 'allOf']) {
      const members = own(node, keyword);
      if (!Array.isArray(members) || members.length === 0) continue;
      if (members.length > MAX_MEMBERS) {
        this.notes.add(`a list of more than ${MAX_MEMBERS} alternatives is typed unknown`);
        continue;
      }
      out[keyword] = members.map((member) => this.walk(member, depth + 1, refs));
    }
    return out;
  }

  #object(node: Schema, out: Schema, depth: number, refs: readonly string[]): void {
    const properties = own(node, 'properties');
    let open = false;
    if (isObject(properties)) {
      const kept: Schema = {};
      for (const key of Object.keys(properties)) {
        if (key.length > MAX_PROPERTY_NAME) {
          open = true;
          continue;
        }
        define(kept, key, this.walk(properties[key], depth + 1, refs));
      }
      out['properties'] = kept;
      const required = own(node, 'required');
      const names = Array.isArray(required)
        ? [...new Set(required.filter((r): r is string => typeof r === 'string' && Object.hasOwn(kept, r)))]
        : [];
      if (names.length > 0) out['required'] = names;
      // Every object literal has these (from Object.prototype), so an optional one typed `string` would
      // refuse `{}`: such a property is typed unknown. `tsType` is set only here, only to this constant.
      for (const key of OBJECT_MEMBERS) {
        const schema = Object.hasOwn(kept, key) ? kept[key] : undefined;
        if (schema === undefined || names.includes(key)) continue;
        const doc = (schema as Schema)['description'];
        define(kept, key, { tsType: 'unknown', ...(typeof doc === 'string' ? { description: doc } : {}) });
      }
    }
    const additional = own(node, 'additionalProperties');
    if (typeof additional === 'boolean') out['additionalProperties'] = additional || open;
    else if (isObject(additional)) out['additionalProperties'] = this.walk(additional, depth + 1, refs);
    else if (open || isObject(own(node, 'patternProperties'))) out['additionalProperties'] = true;
  }

  #array(node: Schema, out: Schema, depth: number, refs: readonly string[]): void {
    const items = own(node, 'items');
    const prefix = own(node, 'prefixItems');
    const tuple = Array.isArray(prefix) ? prefix : Array.isArray(items) ? items : undefined;
    if (tuple !== undefined) {
      if (tuple.length > MAX_MEMBERS) {
        this.notes.add(`a tuple of more than ${MAX_MEMBERS} items is typed unknown[]`);
        out['items'] = {};
        return;
      }
      out['items'] = tuple.map((item) => this.walk(item, depth + 1, refs));
      // The rest of a tuple: 2020-12 `items` beside `prefixItems`, draft-07 `additionalItems`.
      const rest = Array.isArray(prefix) ? items : own(node, 'additionalItems');
      if (rest === false) out['additionalItems'] = false;
      else if (isObject(rest)) out['additionalItems'] = this.walk(rest, depth + 1, refs);
      return;
    }
    if (isObject(items)) out['items'] = this.walk(items, depth + 1, refs);
  }

  /** A `$ref` inside this document, inlined; any other, or one that recurs, typed unknown. */
  #ref(node: Schema, ref: string, depth: number, refs: readonly string[]): Schema {
    const target = ref === '#' || ref.startsWith('#/') ? pointer(this.#root, ref) : undefined;
    let out: Schema;
    if (target === undefined) {
      this.notes.add('a $ref to another document (never fetched) or to nothing is typed unknown');
      out = {};
    } else if (refs.includes(ref)) {
      this.notes.add('a recursive $ref is typed unknown where it recurs');
      out = {};
    } else {
      out = this.walk(target, depth + 1, [...refs, ref]);
    }
    const doc = describe(node);
    if (doc !== undefined) out['description'] = doc;
    return out;
  }
}

/** A JSON Pointer (`#/a/b~1c`) inside `root`, own properties only; undefined when it leads nowhere. */
function pointer(root: unknown, ref: string): unknown {
  let node = root;
  if (ref === '#') return node;
  for (const raw of ref.slice(2).split('/')) {
    let segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    try {
      segment = decodeURIComponent(segment);
    } catch {
      // A `%` that is not an escape is the character itself.
    }
    if (Array.isArray(node)) node = /^(0|[1-9][0-9]*)$/.test(segment) ? node[Number(segment)] : undefined;
    else if (isObject(node)) node = own(node, segment);
    else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

/** A node's title, description and default as one comment text (made safe), or undefined. */
function describe(node: Schema): string | undefined {
  const parts: string[] = [];
  const title = own(node, 'title');
  const description = own(node, 'description');
  if (typeof title === 'string') parts.push(title);
  if (typeof description === 'string') parts.push(description);
  if (Object.hasOwn(node, 'default')) {
    let shown: string | undefined;
    try {
      shown = JSON.stringify(node['default']);
    } catch {
      shown = undefined;
    }
    if (shown !== undefined)
      parts.push(`Default: ${shown.length > MAX_DEFAULT ? `${shown.slice(0, MAX_DEFAULT)}…` : shown}`);
  }
  const text = commentBody(parts.join('\n'), MAX_DESCRIPTION);
  return text === '' ? undefined : text;
}
