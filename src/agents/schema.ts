/**
 * A tool's `inputSchema` as a model API accepts it. Schemas are server data: the walk is bounded (depth and
 * node count), never follows or fetches a `$ref`, and copies instead of sharing. A change that is lossless
 * is made silently (`items: {}` where OpenAI wants one); one that loosens a constraint is reported, so the
 * caller knows the server's own check is then the only one. OpenAI strict mode is applied only where the
 * schema fits its rules without losing a constraint; anywhere else the reasons are reported.
 */

/** What happened to a definition on its way to a model API. */
export interface SchemaIssue {
  /** A JSON Pointer into the tool's `inputSchema` (`''` for the whole schema). */
  path: string;
  /** One sentence: what the API refuses there. */
  problem: string;
  /**
   * `loosened`: a constraint the API refuses was left out of what the model sees (the server still checks
   * it); `not_strict`: OpenAI strict mode was asked for and cannot apply, so the tool is sent with
   * `strict: false`; `left_out`: the tool is not among the definitions; `cut`: the description was cut;
   * `renamed`: the model sees the tool under another name than the server's (the issue's `name`).
   */
  action: 'loosened' | 'not_strict' | 'left_out' | 'cut' | 'renamed';
}

/** The APIs whose schema rules differ. */
export type SchemaTarget = 'openai' | 'anthropic';

/** Deepest nesting of a schema (schemas and the data in them) that is converted; deeper is left out. */
export const MAX_SCHEMA_DEPTH = 64;
/** Most values (objects, arrays and scalars) in one schema that are converted; more is left out. */
export const MAX_SCHEMA_NODES = 20_000;

/** Keywords whose value is a map of names to subschemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Keywords whose value is one subschema (`items` may also be a list, draft 4–2019). */
const SCHEMA_ONE = new Set([
  'additionalProperties',
  'unevaluatedProperties',
  'items',
  'additionalItems',
  'unevaluatedItems',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'contentSchema',
]);
/** Keywords whose value is a list of subschemas. */
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const REFERENCES = new Set(['$ref', '$dynamicRef', '$recursiveRef']);
/**
 * Refused at the top of a tool schema: OpenAI ("must have type 'object' and not have 'oneOf'/'anyOf'/
 * 'allOf'/'enum'/'not' at the top level") and Anthropic (no `oneOf`, `allOf` or `anyOf` at the top level).
 */
const ROOT_REFUSED = ['anyOf', 'oneOf', 'allOf', 'enum', 'not'];

/** The result of converting one schema. */
export interface ConvertedSchema {
  /** Absent when the tool is left out (see `issues`). */
  schema?: Record<string, unknown>;
  /** True when OpenAI strict mode applies to `schema`. */
  strict: boolean;
  issues: SchemaIssue[];
}

/** Bound exceeded: the tool is left out (thrown inside the walk, caught in `convertSchema`). */
class TooLarge extends Error {}

interface Walk {
  target: SchemaTarget;
  nodes: number;
  issues: SchemaIssue[];
}

/**
 * Converts one `inputSchema` for `target`. With `strict` (OpenAI only), the result is strict when every
 * object closes its properties, lists them all in `required`, and uses only keywords strict mode knows.
 */
export function convertSchema(input: unknown, target: SchemaTarget, strict = false): ConvertedSchema {
  const walk: Walk = { target, nodes: 0, issues: [] };
  if (!isPlainObject(input) || input['type'] !== 'object') {
    return leftOut('', 'the input schema is not an object schema (type "object")');
  }
  let schema: Record<string, unknown>;
  try {
    schema = schemaNode(input, '', 0, walk) as Record<string, unknown>;
  } catch (error) {
    if (!(error instanceof TooLarge)) throw error;
    return leftOut('', error.message);
  }
  for (const key of ROOT_REFUSED) {
    if (!Object.hasOwn(schema, key)) continue;
    delete schema[key];
    walk.issues.push({
      path: `/${key}`,
      problem: `${key} at the top of a tool schema is refused by the API; the server still checks it`,
      action: 'loosened',
    });
  }
  if (!strict || target !== 'openai') return { schema, strict: false, issues: walk.issues };
  const reasons: SchemaIssue[] = [];
  const strictSchema = strictNode(schema, '', { objectDepth: 0, properties: 0, enumValues: 0 }, reasons);
  if (reasons.length > 0) return { schema, strict: false, issues: [...walk.issues, ...reasons.slice(0, 10)] };
  return { schema: strictSchema as Record<string, unknown>, strict: true, issues: walk.issues };
}

function leftOut(path: string, problem: string): ConvertedSchema {
  return { strict: false, issues: [{ path, problem, action: 'left_out' }] };
}

function schemaNode(node: unknown, path: string, depth: number, walk: Walk): unknown {
  count(depth, walk);
  if (typeof node === 'boolean') return node;
  if (!isPlainObject(node)) {
    walk.issues.push({ path, problem: 'a subschema that is not an object or a boolean', action: 'loosened' });
    return {};
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    const at = `${path}/${pointerToken(key)}`;
    if (REFERENCES.has(key)) {
      // Only references inside the schema are kept; nothing is ever fetched (a model API would refuse or
      // ignore a remote one anyway).
      if (typeof value === 'string' && value.startsWith('#')) put(out, key, value);
      else
        walk.issues.push({
          path: at,
          problem: 'a reference outside the schema (never fetched)',
          action: 'loosened',
        });
    } else if (SCHEMA_MAPS.has(key) && isPlainObject(value)) {
      const map: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries(value))
        put(map, name, schemaNode(sub, `${at}/${pointerToken(name)}`, depth + 1, walk));
      put(out, key, map);
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      put(
        out,
        key,
        value.map((sub, i) => schemaNode(sub, `${at}/${i}`, depth + 1, walk)),
      );
    } else if (key === 'items' && Array.isArray(value)) {
      put(
        out,
        key,
        value.map((sub, i) => schemaNode(sub, `${at}/${i}`, depth + 1, walk)),
      );
    } else if (SCHEMA_ONE.has(key)) {
      put(out, key, schemaNode(value, at, depth + 1, walk));
    } else {
      put(out, key, data(value, depth + 1, walk));
    }
  }
  // OpenAI refuses an array schema without `items` ("array schema missing items"); `{}` means the same.
  if (walk.target === 'openai' && hasType(out, 'array') && !Object.hasOwn(out, 'items')) out['items'] = {};
  return out;
}

/** A copy of plain JSON data (enum values, defaults, examples), bounded like the schema. */
function data(value: unknown, depth: number, walk: Walk): unknown {
  count(depth, walk);
  if (Array.isArray(value)) return value.map((v) => data(v, depth + 1, walk));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) put(out, key, data(v, depth + 1, walk));
    return out;
  }
  return value;
}

function count(depth: number, walk: Walk): void {
  if (depth > MAX_SCHEMA_DEPTH)
    throw new TooLarge(`the input schema is nested deeper than ${MAX_SCHEMA_DEPTH} levels`);
  if (++walk.nodes > MAX_SCHEMA_NODES)
    throw new TooLarge(`the input schema has more than ${MAX_SCHEMA_NODES} values`);
}

// --- OpenAI strict mode (Structured Outputs, "Supported schemas") -----------------------------------------

/** What strict mode accepts in a schema (beyond annotations, which are dropped). */
const STRICT_KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  '$ref',
  '$defs',
  'definitions',
  'description',
  'pattern',
  'format',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'minItems',
  'maxItems',
]);
/** Annotations: no constraint, so dropping them for strict mode loses nothing. */
const ANNOTATIONS = new Set([
  '$schema',
  '$id',
  '$comment',
  'title',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
]);
const STRICT_FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);
/** Strict-mode limits: object nesting, properties in all, enum values in all. */
const STRICT_MAX_OBJECT_DEPTH = 10;
const STRICT_MAX_PROPERTIES = 5000;
const STRICT_MAX_ENUM_VALUES = 1000;

interface StrictCounts {
  objectDepth: number;
  properties: number;
  enumValues: number;
}

function strictNode(node: unknown, path: string, counts: StrictCounts, reasons: SchemaIssue[]): unknown {
  const refuse = (at: string, problem: string): void => {
    reasons.push({ path: at, problem: `${problem} (strict mode)`, action: 'not_strict' });
  };
  if (!isPlainObject(node)) {
    refuse(path, 'a boolean subschema is not supported');
    return node;
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    const at = `${path}/${pointerToken(key)}`;
    if (ANNOTATIONS.has(key)) continue;
    if (!STRICT_KEYWORDS.has(key)) {
      refuse(at, `${key} is not supported`);
      continue;
    }
    put(out, key, value);
  }
  const isObject = hasType(out, 'object') || Object.hasOwn(out, 'properties');
  if (
    !Object.hasOwn(out, 'type') &&
    !Object.hasOwn(out, 'anyOf') &&
    !Object.hasOwn(out, '$ref') &&
    !Object.hasOwn(out, 'enum') &&
    !Object.hasOwn(out, 'const') &&
    !isObject
  ) {
    refuse(path, 'a subschema without a type is not supported');
  }
  if (typeof out['format'] === 'string' && !STRICT_FORMATS.has(out['format'])) {
    refuse(`${path}/format`, `format "${out['format'].slice(0, 40)}" is not supported`);
  }
  if (Array.isArray(out['enum'])) counts.enumValues += out['enum'].length;
  const depth = counts.objectDepth;
  if (isObject) {
    counts.objectDepth++;
    if (counts.objectDepth > STRICT_MAX_OBJECT_DEPTH)
      refuse(path, `objects nested deeper than ${STRICT_MAX_OBJECT_DEPTH}`);
    const properties = isPlainObject(out['properties']) ? out['properties'] : {};
    const names = Object.keys(properties);
    counts.properties += names.length;
    const additional = out['additionalProperties'];
    // Closing an open object narrows what the model may send, never what the server accepts.
    if (additional === undefined || additional === true) out['additionalProperties'] = false;
    else if (additional !== false)
      refuse(`${path}/additionalProperties`, 'additionalProperties as a schema is not supported');
    const required = new Set(Array.isArray(out['required']) ? out['required'] : []);
    const optional = names.filter((name) => !required.has(name));
    if (optional.length > 0) {
      const shown = optional
        .slice(0, 5)
        .map((n) => JSON.stringify(n.slice(0, 40)))
        .join(', ');
      refuse(
        `${path}/required`,
        `optional properties (${shown}${optional.length > 5 ? ', …' : ''}) are not supported: every property must be required`,
      );
    }
  }
  for (const key of ['properties', '$defs', 'definitions']) {
    const map = out[key];
    if (!isPlainObject(map)) continue;
    const copy: Record<string, unknown> = {};
    for (const [name, sub] of Object.entries(map))
      put(copy, name, strictNode(sub, `${path}/${key}/${pointerToken(name)}`, counts, reasons));
    out[key] = copy;
  }
  if (Array.isArray(out['items'])) refuse(`${path}/items`, 'items as a list (tuple) is not supported');
  else if (out['items'] !== undefined)
    out['items'] = strictNode(out['items'], `${path}/items`, counts, reasons);
  if (Array.isArray(out['anyOf']))
    out['anyOf'] = out['anyOf'].map((sub, i) => strictNode(sub, `${path}/anyOf/${i}`, counts, reasons));
  counts.objectDepth = depth;
  if (path === '') {
    if (counts.properties > STRICT_MAX_PROPERTIES)
      refuse('', `more than ${STRICT_MAX_PROPERTIES} properties`);
    if (counts.enumValues > STRICT_MAX_ENUM_VALUES)
      refuse('', `more than ${STRICT_MAX_ENUM_VALUES} enum values`);
  }
  return out;
}

/** Sets an own property even for a key like `__proto__` (server data), never touching a prototype. */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function hasType(schema: Record<string, unknown>, type: string): boolean {
  const value = schema['type'];
  return value === type || (Array.isArray(value) && value.includes(type));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** RFC 6901: `~` → `~0`, `/` → `~1`. */
function pointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}
