/**
 * The arguments of `autos-mcp call <tool> …`: `key=value`, `key:=<json>`, `key=@file`, a JSON object or
 * `-` (stdin), turned into a tool's arguments by its `inputSchema`. Pure: words and a schema in, arguments
 * or an `ArgumentError` out; files and stdin are read by the shell (`argument-sources.ts`).
 *
 * The schema walk (its bounds, `$ref`, what is checked and what is left to the server) is
 * `argument-schema.ts`; the words' syntax is `argument-words.ts`.
 */
import {
  type Alternative,
  alternatives,
  check,
  equal,
  expected,
  type JsonType,
  TYPES,
  topLevel,
  typeOf,
  type Walk,
} from './argument-schema.js';
import {
  ArgumentError,
  type ArgumentWord,
  MAX_PROBLEMS,
  parseArgumentWords,
  parseJson,
  quoted,
  record,
  type SourceText,
} from './argument-words.js';

/** A JSON number, as JSON writes one (no `+`, no leading zeros, no `.5`, no hex). */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

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
