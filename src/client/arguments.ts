/**
 * `validateArguments`: a call's arguments checked against the tool's `inputSchema` before anything is sent.
 * The validator (@cfworker/json-schema: an interpreter, no code generated from the schema, drafts 4 to
 * 2020-12) is imported only when the option is used. The schema is server data: it is copied (the
 * validator annotates what it is given; the definition stays exactly as listed), bounded, and any `$ref`
 * that does not resolve inside it is refused — nothing is ever fetched. Errors name the path and the
 * expected type, never a value. A `pattern` runs only where its cost is bounded (`pattern-cost.ts`); the
 * rest is left to the server. The check is metered by the work it does, not the schema's size: past its
 * budget it stops and the schema is refused (`schema-budget.ts`). The meter relies on how the validator
 * reads a schema, so it is tested once when the validator loads ({@link meterWorks}); a validator it cannot
 * meter checks only schemas whose work is bounded before it runs, and leaves the others to the server.
 * Spec: S25+26/server/tools (`inputSchema`, default dialect 2020-12).
 */
import { debugLog } from '../diagnostics/publish.js';
import { McpError } from '../errors/index.js';
import { patternInputLimit } from './pattern-cost.js';
import {
  type ArgumentShape,
  attachMeter,
  evaluationsFor,
  Meter,
  OVER_BUDGET,
  OVER_KEY_PATTERNS,
  shapeOf,
} from './schema-budget.js';
import { refsResolve } from './schema-refs.js';
import type { Tool } from './types.js';

/** Deepest nesting of a schema that is checked; a deeper one is refused (`invalid_tool`). */
const MAX_DEPTH = 64;
/** Most values (objects, arrays, scalars) in one schema; a bigger one is refused (`invalid_tool`). */
const MAX_NODES = 20_000;
/** Longest path or property name quoted in an error. */
const MAX_PATH = 200;
/**
 * Classes of the longest string in the arguments (values and property names): one validator per class and
 * schema, keeping the patterns that may run on strings of that length.
 */
const INPUT_CLASSES = [64, 256, 4096, 1 << 20, Number.POSITIVE_INFINITY];
/** A `patternProperties` expression must be able to run on property names this long, or the schema is refused. */
const PROPERTY_NAME_MAX = 4096;

type Draft = '4' | '7' | '2019-09' | '2020-12';
type Unit = { instanceLocation: string; keyword: string; keywordLocation: string; error: string };
type Validate = (
  instance: Record<string, unknown>,
  shape: ArgumentShape,
  evaluations?: number,
) => { valid: boolean; errors: Unit[] };
/** The validator, and whether it passed the meter's self-check. */
interface Loaded {
  module: typeof import('@cfworker/json-schema');
  metered: boolean;
}
/** A check not run: the call goes as it is, and the server checks it (as a pattern too costly to run). */
const UNCHECKED = { valid: true, errors: [] };

/** Keywords whose failure is only the sum of a failure below them: the error below is the precise one. */
const CONTAINERS = new Set([
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'unevaluatedItems',
  '$ref',
  '$recursiveRef',
  '$dynamicRef',
  'allOf',
  'dependentSchemas',
  'then',
  'else',
]);
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** What a failed check says: where, what was expected, by which keyword. Never the value. */
export interface ArgumentProblem {
  /** JSON Pointer into the arguments (`''` is the arguments object itself). */
  path: string;
  /** The schema keyword that failed (`type`, `required`, `minimum`, …). */
  keyword: string;
  /** The expected JSON type(s), when the schema says (`string`, `string | number`). */
  expected?: string;
}

const compiled = new WeakMap<object, Map<number, Validate>>();
let loading: Promise<Loaded> | undefined;

/**
 * Imports the validator once, on first use, and tests the meter on it; a missing package is a `config`
 * error saying what to install.
 */
function loadValidator(): Promise<Loaded> {
  loading ??= import('@cfworker/json-schema').then(
    (module) => {
      const metered = meterWorks(module);
      if (!metered)
        debugLog(
          'validateArguments: the installed @cfworker/json-schema cannot be metered (its internals differ from 4.1.6), so an inputSchema with a $ref, $dynamicRef or $recursiveRef, or too large for the arguments, is not checked here and is left to the server',
        );
      return { module, metered };
    },
    (error: unknown) => {
      loading = undefined;
      throw new McpError(
        'config',
        'validateArguments needs the optional peer dependency @cfworker/json-schema: npm install @cfworker/json-schema@4',
        { cause: error },
      );
    },
  );
  return loading;
}

/** A `$ref` chain (root → a → b → the schema of `n`): each object on it must be charged when evaluated. */
const PROBE: Tool = {
  name: 'self-check',
  inputSchema: {
    type: 'object',
    $ref: '#/$defs/a',
    $defs: { a: { $ref: '#/$defs/b' }, b: { properties: { n: { type: 'integer' } } } },
  },
};
const PROBE_ARGS = { n: 1 };
const PROBE_OBJECTS = 4;

/**
 * Whether the meter counts the work of the `module` installed: the meter is read through an accessor the
 * validator happens to read on every schema object it evaluates (`schema-budget.ts`), which a later 4.x
 * need not do. So the probe is checked through the metered path: every object of its `$ref` chain is
 * charged, and a run past its budget throws {@link OVER_BUDGET}.
 */
export function meterWorks(module: typeof import('@cfworker/json-schema')): boolean {
  const meter = new Meter();
  const shape = shapeOf(PROBE_ARGS);
  try {
    const validate = compile({ module, metered: true }, PROBE, 'self-check', INPUT_CLASSES[0] ?? 0, meter);
    if (!validate(PROBE_ARGS, shape).valid || meter.evaluated < PROBE_OBJECTS) return false;
    validate(PROBE_ARGS, shape, 1);
    return false;
  } catch (error) {
    return error === OVER_BUDGET && meter.evaluated === 1;
  }
}

/**
 * Checks `args` against `tool.inputSchema`. Throws `invalid_arguments` (`not_sent`) naming the first failing
 * path, `invalid_tool` (`not_sent`) when the schema cannot be used (too big, an unknown dialect, a `$ref`
 * that does not resolve inside it, or evaluation failing), and `config` when the validator is not installed.
 */
export async function checkArguments(
  tool: Tool,
  args: Record<string, unknown>,
  target: string,
): Promise<void> {
  const notCalled = `tool ${tool.name} on ${target} was not called`;
  const shape = shapeOf(args);
  if (shape.name > PROPERTY_NAME_MAX)
    throw new McpError(
      'invalid_arguments',
      `${notCalled}: a property name of the arguments is longer than ${PROPERTY_NAME_MAX} characters, more than its inputSchema can be checked on`,
      { data: { tool: tool.name, path: '', keyword: 'propertyNames' } },
    );
  const inputClass = INPUT_CLASSES.find((limit) => limit >= Math.max(shape.name, shape.value)) ?? 0;
  const byClass = compiled.get(tool.inputSchema) ?? new Map<number, Validate>();
  compiled.set(tool.inputSchema, byClass);
  const validate = byClass.get(inputClass) ?? compile(await loadValidator(), tool, notCalled, inputClass);
  byClass.set(inputClass, validate);
  let outcome: ReturnType<Validate>;
  try {
    outcome = validate(args, shape);
  } catch (error) {
    if (error instanceof McpError) throw error; // a schema refused when it was compiled
    if (error === OVER_BUDGET)
      throw new McpError(
        'invalid_tool',
        `${notCalled}: its inputSchema takes more than ${evaluationsFor(shape)} evaluations to check on these arguments (its $ref and applicators expand), so the check was stopped`,
        { data: { tool: tool.name } },
      );
    if (error === OVER_KEY_PATTERNS)
      throw new McpError(
        'invalid_tool',
        `${notCalled}: its patternProperties expressions would take too long on the property names of these arguments, so the check was stopped`,
        { data: { tool: tool.name } },
      );
    // A cyclic `$ref` (stack overflow), a pattern that is not a regular expression, …
    throw new McpError('invalid_tool', `${notCalled}: its inputSchema could not be evaluated`, {
      cause: error,
      data: { tool: tool.name },
    });
  }
  if (outcome.valid) return;
  const problem = firstProblem(outcome.errors);
  const at = problem.path === '' ? 'the arguments object' : problem.path;
  const expected = problem.expected === undefined ? '' : `: expected ${problem.expected}`;
  const rule = problem.keyword === 'type' ? '' : ` (${problem.keyword})`;
  throw new McpError(
    'invalid_arguments',
    `${notCalled}: the arguments do not fit its inputSchema at ${at}${expected}${rule}`,
    { data: { tool: tool.name, ...problem } },
  );
}

function compile(
  loaded: Loaded,
  tool: Tool,
  notCalled: string,
  inputClass: number,
  meter = new Meter(),
): Validate {
  const { module } = loaded;
  const refuse = (why: string, cause?: unknown) =>
    new McpError('invalid_tool', `${notCalled}: its inputSchema ${why}`, {
      data: { tool: tool.name },
      ...(cause === undefined ? {} : { cause }),
    });
  const copy = boundedCopy(tool.inputSchema, inputClass, meter, loaded.metered);
  if (copy === BOUNDS)
    return fail(refuse(`is larger than can be checked (${MAX_DEPTH} levels, ${MAX_NODES} values)`));
  if (copy === SLOW_PATTERN)
    return fail(
      refuse('has a patternProperties expression that could take exponential time, which is never run'),
    );
  // Every `$ref` must resolve inside the schema: a remote or missing one is refused, never fetched.
  if (!refsResolve(copy))
    return fail(refuse('has a $ref that does not resolve inside it (remote references are never fetched)'));
  const draft = draftOf((copy as Record<string, unknown>)['$schema']);
  if (draft === undefined) return fail(refuse('names a JSON Schema dialect the validator does not support'));
  let validator: InstanceType<typeof module.Validator>;
  try {
    validator = new module.Validator(copy as Record<string, unknown>, draft, true);
  } catch (error) {
    return fail(refuse('could not be compiled', error));
  }
  const run: Validate = (instance, shape, evaluations) =>
    meter.run(shape, () => validator.validate(instance) as { valid: boolean; errors: Unit[] }, evaluations);
  if (loaded.metered) return run;
  // Unmetered, the work is bounded only without references: the validator then reaches each schema object
  // from its parent, at the same value or one below it, so at most once per value of the arguments (keys
  // under `propertyNames` are no more than the values). That work must fit the budget the meter would give.
  // `patternProperties` runs its expressions at each evaluation, on every name: left to the server too.
  if (meter.unbounded > 0) return () => UNCHECKED;
  return (instance, shape) =>
    meter.schemaWeight * shape.values > evaluationsFor(shape) ? UNCHECKED : run(instance, shape);
}

/** A `Validate` that always throws `error` (cached too: the same schema is refused the same way). */
function fail(error: McpError): Validate {
  return () => {
    throw error;
  };
}

/** The dialect a `$schema` names; absent means 2020-12, the MCP default (S25+26/server/tools). */
function draftOf(schema: unknown): Draft | undefined {
  if (schema === undefined) return '2020-12';
  if (typeof schema !== 'string') return undefined;
  if (/json-schema\.org\/draft\/2020-12\/schema#?$/.test(schema)) return '2020-12';
  if (/json-schema\.org\/draft\/2019-09\/schema#?$/.test(schema)) return '2019-09';
  if (/json-schema\.org\/draft-0[67]\/schema#?$/.test(schema)) return '7';
  if (/json-schema\.org\/draft-04\/schema#?$/.test(schema)) return '4';
  return undefined;
}

/**
 * A plain copy of the schema, without `format` (an annotation in 2020-12: asserting it could refuse what
 * the server accepts) and without each `pattern` that may not run on strings of `inputClass` characters;
 * {@link BOUNDS} past the bounds, {@link SLOW_PATTERN} for a `patternProperties` expression that may not run
 * on property names. Unmetered, without the assertions whose runs the meter counts ({@link METERED}).
 * Own enumerable data only; `__proto__` keys stay data.
 */
function boundedCopy(schema: unknown, inputClass: number, meter: Meter, metered: boolean): unknown {
  let nodes = 0;
  const copy = (value: unknown, depth: number, inSchema: boolean): unknown => {
    if (++nodes > MAX_NODES || depth > MAX_DEPTH) throw BOUNDS;
    if (Array.isArray(value)) return value.map((item) => copy(item, depth + 1, inSchema));
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      // `format` is dropped only where it is a keyword, not as a property named "format" or inside `enum`/`const`.
      if (inSchema && key === 'format' && typeof item === 'string') continue;
      if (inSchema && key === 'pattern' && typeof item === 'string' && patternInputLimit(item) < inputClass)
        continue;
      if (inSchema && !metered && METERED.has(key) && typeof item !== 'object') continue;
      const literal = key === 'enum' || key === 'const' || key === 'default' || key === 'examples';
      const named =
        inSchema &&
        (key === 'properties' || key === '$defs' || key === 'definitions' || key === 'patternProperties');
      Object.defineProperty(out, key, {
        value: named
          ? copyNamed(item, depth + 1, key === 'patternProperties')
          : copy(item, depth + 1, inSchema && !literal),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    if (inSchema) attachMeter(out, meter);
    return out;
  };
  // A map of name → schema: the names are data, each value a schema.
  const copyNamed = (value: unknown, depth: number, regexKeys: boolean): unknown => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return copy(value, depth, false);
    if (++nodes > MAX_NODES || depth > MAX_DEPTH) throw BOUNDS;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (regexKeys && patternInputLimit(key) < PROPERTY_NAME_MAX) throw SLOW_PATTERN;
      Object.defineProperty(out, key, { value: copy(item, depth + 1, true), enumerable: true });
    }
    return out;
  };
  try {
    return copy(schema, 0, true);
  } catch (error) {
    if (error === BOUNDS || error === SLOW_PATTERN) return error;
    throw error;
  }
}
/** Assertions whose cost per run grows with the arguments: without the meter, left to the server. */
const METERED = new Set(['pattern', 'uniqueItems', 'minLength', 'maxLength']);
const BOUNDS = Symbol('bounds');
const SLOW_PATTERN = Symbol('slow pattern');

/** The most precise failure: the first error that is not only the sum of the errors below it. */
export function firstProblem(errors: readonly Unit[]): ArgumentProblem {
  const index = errors.findIndex((unit) => !CONTAINERS.has(unit.keyword));
  const unit = errors[index === -1 ? errors.length - 1 : index];
  if (unit === undefined) return { path: '', keyword: 'unknown' };
  let path = pointerOf(unit.instanceLocation);
  const problem: ArgumentProblem = { path, keyword: unit.keyword };
  if (unit.keyword === 'false') {
    // `additionalProperties: false` and other `false` schemas: nothing is allowed here.
    problem.keyword = 'additionalProperties';
    problem.expected = 'no value (the schema allows no such property)';
  } else if (unit.keyword === 'type') {
    const types = typesIn(unit.error);
    if (types !== undefined) problem.expected = types;
  } else if (unit.keyword === 'required') {
    const name = /required property "(.*)"\.$/s.exec(unit.error)?.[1];
    if (name !== undefined) path = `${path}/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    problem.path = path;
    problem.expected = 'a value (required)';
  } else if (unit.keyword === 'anyOf' || unit.keyword === 'oneOf') {
    // The alternatives' own type errors say what would have fit.
    const below = errors.filter(
      (e) => e.keyword === 'type' && e.keywordLocation.startsWith(`${unit.keywordLocation}/`),
    );
    const types = [...new Set(below.flatMap((e) => (typesIn(e.error) ?? '').split(' | ')))].filter(Boolean);
    if (types.length > 0) problem.expected = types.join(' | ');
  }
  problem.path = problem.path.length > MAX_PATH ? `${problem.path.slice(0, MAX_PATH)}…` : problem.path;
  return problem;
}

/** The expected types of a validator type error, from the JSON type vocabulary only. */
function typesIn(error: string): string | undefined {
  const listed = /Expected (.*)\.$/s.exec(error)?.[1] ?? '';
  const types = [...listed.matchAll(/"([a-z]+)"/g)].map((m) => m[1] ?? '').filter((t) => TYPES.has(t));
  return types.length > 0 ? types.join(' | ') : undefined;
}

/** `#/a~1b/0` (URI-encoded by the validator) → `/a~1b/0`, a JSON Pointer into the arguments. */
function pointerOf(location: string): string {
  const raw = location.startsWith('#') ? location.slice(1) : location;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
