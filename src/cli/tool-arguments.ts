/**
 * The arguments of `autos-mcp call <tool> …`: `key=value`, `key:=<json>`, `key=@file`, a JSON object or
 * `-` (stdin), turned into a tool's arguments by its `inputSchema`. Pure: words and a schema in, arguments
 * or an `ArgumentError` out; files and stdin are read by the shell (`argument-sources.ts`).
 *
 * The schema is server data: `$ref` is followed only inside the schema (never fetched), chains, nesting and
 * the work done are bounded, and `pattern` is never evaluated (the server checks what is not checked
 * here). Anything from the schema in a message goes through the terminal sanitizer.
 */
import { UsageError } from './args.js';
import { safeText } from './format.js';

/** Most `$ref` hops in one chain, schema levels walked, schema nodes visited per call, problems reported. */
const MAX_REF_HOPS = 16;
const MAX_DEPTH = 32;
const MAX_WORK = 100_000;
const MAX_PROBLEMS = 10;
/** Most branches of one `anyOf`/`oneOf`/type list, and enum values looked at. */
const MAX_BRANCHES = 64;
const MAX_ENUM = 1000;

/** Arguments that do not fit the tool's schema (or are not `key=value` words): a usage error, exit code 2. */
export class ArgumentError extends UsageError {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(problems.join('; '));
    this.problems = problems;
  }
}

/** One word after the tool name, parsed (nothing read yet). `source` is a file path, or `-` for stdin. */
export type ArgumentWord =
  | { readonly kind: 'object'; readonly text?: string; readonly source?: '-' }
  | {
      readonly kind: 'pair';
      readonly key: string;
      /** `text`: coerced by the schema (`key=value`, `key=@file`); `json`: parsed (`key:=json`, `key:=@file`). */
      readonly mode: 'text' | 'json';
      readonly value?: string;
      readonly source?: string;
    };

/** What the shell read for a file or stdin source: its text, or why not (a message naming the path). */
export type SourceText = { readonly text: string } | { readonly problem: string };

/** A word as quoted in a message: bounded, terminal-safe. */
function quoted(word: string, max = 60): string {
  const cut = word.length > max ? `${word.slice(0, max - 1)}…` : word;
  return JSON.stringify(safeText(cut).replace(/\s+/g, ' '));
}

/** A JSON value from the schema as shown in a message (`"fast"`, `2`): one line, bounded, terminal-safe. */
function shownJson(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return safeText(text.length > 40 ? `${text.slice(0, 39)}…` : text).replace(/\s+/g, ' ');
}

/**
 * The words after the tool name, checked for syntax only (no schema needed, nothing read): a JSON object
 * (`{…}`) or `-` at most once, and `key=value`, `key:=json`, `key=@path`, `key:=@path` (`@-`: stdin).
 * A value that starts with a literal `@` is written `key=\@…`.
 */
export function parseArgumentWords(words: readonly string[]): ArgumentWord[] | ArgumentError {
  const parsed: ArgumentWord[] = [];
  const problems: string[] = [];
  let objects = 0;
  let stdin = 0;
  for (const word of words) {
    if (word === '-' || /^\s*[{[]/.test(word)) {
      objects++;
      if (word === '-') stdin++;
      else {
        const json = parseJson(word);
        if (json === undefined) {
          problems.push(`the JSON argument is not valid JSON (quote it: '{"key":"value"}')`);
          continue;
        }
        if (record(json.value) === undefined) {
          problems.push('the JSON argument must be a JSON object ({"key": value, …})');
          continue;
        }
      }
      parsed.push(word === '-' ? { kind: 'object', source: '-' } : { kind: 'object', text: word });
      continue;
    }
    const eq = word.indexOf('=');
    if (eq === -1 || eq === 0 || (eq === 1 && word[0] === ':')) {
      problems.push(
        eq === -1
          ? `${quoted(word)} is not key=value (a string), key:=<json>, key=@<file>, a JSON object or - (stdin)`
          : `${quoted(word)} has no key before =`,
      );
      continue;
    }
    const json = word[eq - 1] === ':';
    const key = word.slice(0, json ? eq - 1 : eq);
    let value = word.slice(eq + 1);
    if (value.startsWith('@')) {
      if (value === '@-') stdin++;
      else if (value === '@') {
        problems.push(`${quoted(word)}: @ needs a file path (key=@path, or @- for stdin)`);
        continue;
      }
      parsed.push({ kind: 'pair', key, mode: json ? 'json' : 'text', source: value.slice(1) });
      continue;
    }
    if (json && parseJson(value) === undefined) {
      problems.push(`${quoted(key)}: the value after := is not valid JSON (${quoted(word)})`);
      continue;
    }
    if (!json && value.startsWith('\\@')) value = value.slice(1);
    parsed.push({ kind: 'pair', key, mode: json ? 'json' : 'text', value });
  }
  if (objects > 1) problems.push('give at most one JSON object (or -); add other keys as key=value');
  if (stdin > 1) problems.push('stdin can be read once: give - or one key=@- only');
  return problems.length > 0 ? new ArgumentError(problems.slice(0, MAX_PROBLEMS)) : parsed;
}

/** The files (and `-` for stdin) that the words read, in order, each once. */
export function argumentSources(words: readonly ArgumentWord[]): string[] {
  return [...new Set(words.flatMap((w) => (w.source === undefined ? [] : [w.source])))];
}

// --- schemas --------------------------------------------------------------------------------------

type JsonType = 'null' | 'boolean' | 'integer' | 'number' | 'array' | 'object' | 'string';
const TYPES: readonly JsonType[] = ['null', 'boolean', 'integer', 'number', 'array', 'object', 'string'];

/**
 * One alternative a schema allows: a JSON type (with the schema node that holds its keywords), the values
 * of an `enum`/`const`, or `any` (the schema says nothing this code understands).
 */
type Alternative =
  | { readonly type: JsonType; readonly node: Record<string, unknown> }
  | { readonly enum: readonly unknown[] }
  | { readonly any: true };

interface Walk {
  readonly root: unknown;
  work: number;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** `node[key]` only when it is the node's own property (never `__proto__`, `constructor`… inherited). */
function own(node: Record<string, unknown> | undefined, key: string): unknown {
  return node !== undefined && Object.hasOwn(node, key) ? node[key] : undefined;
}

/** A local JSON pointer (`#/$defs/Name`) in the root schema; anything else is not followed. */
function pointer(root: unknown, ref: string): unknown {
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
function alternatives(schema: unknown, walk: Walk, depth = 0): Alternative[] {
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
function expected(alts: readonly Alternative[]): string {
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

function typeOf(value: unknown): string {
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
function equal(a: unknown, b: unknown, walk: Walk): boolean {
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
function check(value: unknown, schema: unknown, path: string, walk: Walk, depth = 0): string | undefined {
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

// --- values ---------------------------------------------------------------------------------------

/** A JSON number, as JSON writes one (no `+`, no leading zeros, no `.5`, no hex). */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/**
 * `text` as a value of the schema (`key=value`): a string stays a string where the schema allows strings
 * and nothing else fits first. Alternatives are tried in this order: an enum value equal to the text,
 * an enum value written as JSON (`2`, `true`), then `null`, `boolean`, `integer`, `number`, `array`,
 * `object`, and last `string` (or any value the schema does not describe). When a string is allowed too,
 * a number is taken only in the form JSON writes it back (`42`, `0.5`: not `0012`, `1712345.000100`, `1e3`).
 */
function coerceText(text: string, schema: unknown, key: string, walk: Walk): { value: unknown } | string {
  const alts = alternatives(schema, walk);
  const stringAllowed = alts.some((a) => 'any' in a || ('type' in a && a.type === 'string'));
  const trimmed = text.trim();
  for (const alt of alts) if ('enum' in alt && alt.enum.includes(text)) return { value: text };
  const literal = parseJson(trimmed);
  for (const alt of alts)
    if (
      'enum' in alt &&
      literal !== undefined &&
      alt.enum.some((v) => typeof v !== 'string' && equal(v, literal.value, walk))
    )
      return literal;
  const typed = alts.filter((a): a is Extract<Alternative, { type: JsonType }> => 'type' in a);
  let problem: string | undefined;
  for (const type of TYPES) {
    const alt = typed.find((a) => a.type === type);
    if (alt === undefined) continue;
    if (type === 'string') return { value: text };
    if (type === 'null' && trimmed === 'null') return { value: null };
    if (type === 'boolean' && (trimmed === 'true' || trimmed === 'false'))
      return { value: trimmed === 'true' };
    if ((type === 'integer' || type === 'number') && trimmed.length <= 400 && JSON_NUMBER.test(trimmed)) {
      const n = Number(trimmed);
      if (stringAllowed && String(n) !== text) continue;
      if (type === 'number' && Number.isFinite(n)) return { value: n };
      if (type === 'integer' && Number.isInteger(n)) {
        if (Number.isSafeInteger(n)) return { value: n };
        problem ??= `${quoted(key)} is an integer beyond ±2^53, which cannot be sent exactly (got ${quoted(text)})`;
      }
    }
    if ((type === 'array' || type === 'object') && literal !== undefined && typeOf(literal.value) === type) {
      const inside = check(literal.value, alt.node, key, walk);
      if (inside === undefined) return literal;
      problem ??= inside;
    }
  }
  if (alts.some((a) => 'any' in a)) return { value: text };
  if (problem !== undefined && !stringAllowed) return problem;
  const example = typed.some((a) => a.type === 'array')
    ? ` (e.g. ${key}='["a","b"]')`
    : typed.some((a) => a.type === 'object')
      ? ` (e.g. ${key}='{"a":1}')`
      : '';
  return `${quoted(key)} must be ${expected(alts)}${example} (got ${quoted(text)})`;
}

/** The top-level schema facts: properties, required names, and what keys outside `properties` get. */
function topLevel(inputSchema: unknown, walk: Walk) {
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

/**
 * The tool's arguments from parsed words and what the shell read for their sources (`read(path)`, `-`
 * for stdin), by the tool's `inputSchema` (undefined when the server did not list it: values stay
 * strings, `key:=json` gives JSON). Unknown keys, missing required keys and values of the wrong type are
 * problems, all reported at once (up to 10).
 */
export function coerceArguments(
  words: readonly ArgumentWord[],
  inputSchema: unknown,
  read: (path: string) => SourceText,
): Record<string, unknown> | ArgumentError {
  const walk: Walk = { root: inputSchema, work: 0 };
  const top = topLevel(inputSchema, walk);
  const args = new Map<string, unknown>();
  /** Keys given, also those whose value was refused (so they are not reported missing as well). */
  const given = new Set<string>();
  let unreadObject = false;
  const problems: string[] = [];
  const schemaOf = (key: string): unknown =>
    Object.hasOwn(top.properties, key) ? top.properties[key] : top.extra === false ? undefined : top.extra;
  const known = (key: string): boolean => Object.hasOwn(top.properties, key) || top.extra !== false;
  for (const word of words) {
    let text = word.kind === 'object' ? word.text : word.value;
    if (word.source !== undefined) {
      const got = read(word.source);
      if ('problem' in got) {
        problems.push(got.problem);
        if (word.kind === 'pair') given.add(word.key);
        else unreadObject = true;
        continue;
      }
      text = got.text;
    }
    if (text === undefined) continue;
    if (word.kind === 'object') {
      const parsed = parseJson(text);
      const object = record(parsed?.value);
      if (object === undefined) {
        problems.push(
          `${word.source === '-' ? 'stdin' : 'the JSON argument'} is not a JSON object (quote it: '{"key":"value"}')`,
        );
        unreadObject = true;
        continue;
      }
      for (const [key, value] of Object.entries(object)) {
        if (given.has(key)) problems.push(`${quoted(key)} is given twice`);
        else if (!known(key)) problems.push(`${quoted(key)} is not a parameter of this tool`);
        else {
          const problem = check(value, schemaOf(key), key, walk);
          if (problem !== undefined) problems.push(problem);
          args.set(key, value);
        }
        given.add(key);
      }
      continue;
    }
    const { key } = word;
    if (given.has(key)) {
      problems.push(`${quoted(key)} is given twice`);
      continue;
    }
    given.add(key);
    if (!known(key)) {
      problems.push(`${quoted(key)} is not a parameter of this tool`);
      continue;
    }
    if (word.mode === 'json') {
      const parsed = parseJson(text);
      if (parsed === undefined) {
        problems.push(
          `${quoted(key)}: ${word.source === undefined ? 'the value after :=' : `the file ${quoted(word.source)}`} is not valid JSON`,
        );
        continue;
      }
      const problem = check(parsed.value, schemaOf(key), key, walk);
      if (problem !== undefined) problems.push(problem);
      args.set(key, parsed.value);
      continue;
    }
    const coerced = coerceText(text, schemaOf(key), key, walk);
    if (typeof coerced === 'string') problems.push(coerced);
    else args.set(key, coerced.value);
  }
  // An object that could not be read may have held the required keys: only its problem is reported.
  const missing = unreadObject ? [] : top.required.filter((r) => !given.has(r));
  if (missing.length > 0)
    problems.push(
      `missing required ${missing.length === 1 ? 'parameter' : 'parameters'} ${missing
        .slice(0, 20)
        .map((m) => quoted(m))
        .join(', ')}${missing.length > 20 ? ', …' : ''}`,
    );
  // Object.fromEntries defines own properties: a key "__proto__" stays a key, never a prototype.
  return problems.length > 0 ? new ArgumentError(problems.slice(0, MAX_PROBLEMS)) : Object.fromEntries(args);
}

/**
 * The tool's arguments from the words after its name: `parseArgumentWords`, then `coerceArguments`, in
 * one step (for callers that read sources synchronously, and for tests).
 */
export function toolArguments(
  words: readonly string[],
  inputSchema: unknown,
  read: (path: string) => SourceText = (path) => ({ problem: `cannot read ${quoted(path)}` }),
): Record<string, unknown> | ArgumentError {
  const parsed = parseArgumentWords(words);
  return parsed instanceof ArgumentError ? parsed : coerceArguments(parsed, inputSchema, read);
}
