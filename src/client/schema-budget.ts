/**
 * What checking a call's arguments against a server's `inputSchema` may cost, counted while the validator
 * runs. A schema's size says little about its work: 40 `$defs` that each `$ref` the next twice are 2^40
 * evaluations, an `items` whose schema holds two `$ref`s back to itself doubles its work at each level of
 * the arguments, and a `pattern` under `items` runs once per element. So each schema object of the copy
 * the validator is given carries a meter, read by the validator each time it evaluates that object (it
 * reads every keyword of a schema object it evaluates, `$recursiveAnchor` among them); past the budget
 * the check stops and the schema is refused. Pattern runs are charged their bound (`pattern-cost.ts`) and
 * `uniqueItems` checks (quadratic in the array) their pair comparisons, `minLength`/`maxLength` the
 * characters they count: past their own budgets they are not run, as a pattern too costly to run at all is
 * not, and the server checks them.
 */
import { isPattern, type ParsedPattern, parsePattern, patternSteps } from './pattern-cost.js';

/**
 * Evaluations of schema objects (each weighted by its own size: an `enum` of 1,000 values weighs 1,001)
 * allowed for a call, at least; measured at 2–5 µs each, so 10,000 take 20–50 ms.
 */
const MIN_EVALUATIONS = 10_000;
/** Evaluations allowed per value in the arguments, when that is more: the work of a big call is its own. */
const EVALUATIONS_PER_VALUE = 16;
/** Backtracking steps (`pattern-cost.ts`) of all pattern runs of one call: two runs at the most one may take. */
const PATTERN_STEPS = 2 ** 27;
/**
 * Values visited by the `uniqueItems` checks of one call. The validator compares every pair of items, so one
 * check visits up to (longest array) × (values in the arguments): 4,096 objects took 4 s, 16,384 took 56 s.
 * 2^20 visits are at most ~80 ms (objects cost ~80 ns a value, numbers ~8).
 */
const UNIQUE_VISITS = 2 ** 20;
/**
 * Characters counted by the `minLength`/`maxLength` checks of one call (the validator counts code points
 * in a loop, ~10-20 ns a character, so an `allOf` of 100 `minLength` took 2.2 s on 1 MiB). 2^20: one count
 * of 1 MiB, about 11 ms. At 2^21 the two counts were a third of the call on 1 MiB (22 of 65 ms of host CPU
 * in a profile), which left too little of the 100 ms bound for a loaded machine (111 ms seen in CI).
 */
const LENGTH_CHARS = 2 ** 20;

/** Thrown by a meter when the evaluations run out; `arguments.ts` turns it into `invalid_tool`. */
export const OVER_BUDGET = Symbol('over budget');
/** Thrown when the `patternProperties` expressions would spend the pattern steps (they cannot be skipped). */
export const OVER_KEY_PATTERNS = Symbol('over key patterns');

/** The evaluations allowed for arguments of `shape`. */
export function evaluationsFor(shape: ArgumentShape): number {
  return Math.max(MIN_EVALUATIONS, EVALUATIONS_PER_VALUE * shape.values);
}

/** The sizes of a call's arguments that the charges depend on. */
export interface ArgumentShape {
  /** Longest property name. */
  name: number;
  /** Longest string value. */
  value: number;
  /** Values (objects, arrays, scalars) in all. */
  values: number;
  /** Most properties of one object. */
  widest: number;
  /** Most items of one array. */
  longestArray: number;
}

/** The budget of one compiled validator: armed for the length of one `validate` call, unlimited otherwise. */
export class Meter {
  evaluations = Number.POSITIVE_INFINITY;
  patternSteps = Number.POSITIVE_INFINITY;
  uniqueVisits = Number.POSITIVE_INFINITY;
  lengthChars = Number.POSITIVE_INFINITY;
  shape: ArgumentShape = { name: 0, value: 0, values: 0, widest: 0, longestArray: 0 };
  /** Schema objects evaluated in the last run (read by the self-check of `arguments.ts`). */
  evaluated = 0;
  /** Sum of the weights of the schema objects metered, each counted once. */
  schemaWeight = 0;
  /**
   * Schema objects whose work has no bound but this meter: a `$ref`, `$dynamicRef` or `$recursiveRef`
   * (expanding), or `patternProperties` (expressions run on every property name, each time).
   */
  unbounded = 0;
  private armed = false;

  /**
   * Runs `check` within the budget for arguments of `shape` (or `evaluations`); throws
   * {@link OVER_BUDGET} past it.
   */
  run<T>(shape: ArgumentShape, check: () => T, evaluations = evaluationsFor(shape)): T {
    this.shape = shape;
    this.evaluated = 0;
    this.evaluations = evaluations;
    this.patternSteps = PATTERN_STEPS;
    this.uniqueVisits = UNIQUE_VISITS;
    this.lengthChars = LENGTH_CHARS;
    this.armed = true;
    try {
      return check();
    } finally {
      this.armed = false;
      this.evaluations = Number.POSITIVE_INFINITY;
      this.patternSteps = Number.POSITIVE_INFINITY;
      this.uniqueVisits = Number.POSITIVE_INFINITY;
      this.lengthChars = Number.POSITIVE_INFINITY;
    }
  }

  /** Charges one evaluation of a schema object weighing `weight`, and its `patternProperties` expressions. */
  evaluate(weight: number, keyPatterns: readonly ParsedPattern[]): void {
    if (!this.armed) return;
    this.evaluated += 1;
    this.evaluations -= weight;
    if (this.evaluations < 0) throw OVER_BUDGET;
    // Each expression is tried on every property name of the object being checked: they must all run.
    for (const parsed of keyPatterns) {
      this.patternSteps -= patternSteps(parsed, this.shape.name) * Math.max(1, this.shape.widest);
      if (this.patternSteps < 0) throw OVER_KEY_PATTERNS;
    }
  }

  /** Whether a `uniqueItems` check may run once more; one not run is left to the server. */
  mayCompare(): boolean {
    if (!this.armed) return true;
    const visits = this.shape.longestArray * this.shape.values;
    if (visits > this.uniqueVisits) return false;
    this.uniqueVisits -= visits;
    return true;
  }

  /**
   * Whether a `minLength` or `maxLength` may be read once more (each read charged the longest string, so
   * every count the validator makes was paid for); one not read is left to the server.
   */
  mayMeasure(): boolean {
    if (!this.armed) return true;
    const chars = Math.max(this.shape.value, this.shape.name);
    if (chars > this.lengthChars) return false;
    this.lengthChars -= chars;
    return true;
  }

  /** Whether a `pattern` may run once more (charged at the longest string of the call); a pattern not run is left to the server. */
  mayRun(parsed: ParsedPattern): boolean {
    if (!this.armed) return true;
    // On a value, or on a property name under `propertyNames`.
    const steps = patternSteps(parsed, Math.max(this.shape.value, this.shape.name));
    if (steps > this.patternSteps) return false;
    this.patternSteps -= steps;
    return true;
  }
}

/**
 * Puts a meter on `schema`, a schema object of the copy (built by `arguments.ts`, so plain data): a
 * non-enumerable `$recursiveAnchor` accessor, keeping any value the server gave, and a `pattern` accessor
 * that hides the pattern once the pattern budget is spent. Non-enumerable, so neither the validator's
 * reference walk nor a copy sees it as a subschema.
 */
export function attachMeter(schema: Record<string, unknown>, meter: Meter): void {
  const anchor = schema['$recursiveAnchor'];
  const weight = weightOf(schema);
  meter.schemaWeight += weight;
  if (
    REFERENCES.some((key) => Object.hasOwn(schema, key)) ||
    patternKeys(schema['patternProperties']).length > 0
  )
    meter.unbounded += 1;
  // An expression that does not compile is left to the validator, which fails on it (the schema is refused).
  const keyPatterns = patternKeys(schema['patternProperties']).filter(isPattern).map(parsePattern);
  Object.defineProperty(schema, '$recursiveAnchor', {
    get() {
      meter.evaluate(weight, keyPatterns);
      return anchor;
    },
    enumerable: false,
    configurable: true,
  });
  if (schema['uniqueItems'] === true)
    Object.defineProperty(schema, 'uniqueItems', {
      get: () => (meter.mayCompare() ? true : undefined),
      enumerable: true,
      configurable: true,
    });
  for (const key of ['minLength', 'maxLength']) {
    const limit = schema[key];
    if (limit !== undefined)
      Object.defineProperty(schema, key, {
        get: () => (meter.mayMeasure() ? limit : undefined),
        enumerable: true,
        configurable: true,
      });
  }
  const pattern = schema['pattern'];
  // One that does not compile stays as it is: the validator fails on it, and the schema is refused.
  if (typeof pattern !== 'string' || !isPattern(pattern)) return;
  const parsed = parsePattern(pattern);
  Object.defineProperty(schema, 'pattern', {
    get: () => (meter.mayRun(parsed) ? pattern : undefined),
    enumerable: true,
    configurable: true,
  });
}

const REFERENCES = ['$ref', '$dynamicRef', '$recursiveRef'];

/**
 * The work of one evaluation of `schema` apart from its subschemas: one per keyword, the entries it loops
 * over, and every value of an `enum` or `const` (compared in depth with the value checked) or of the
 * lists of `dependentRequired`.
 */
function weightOf(schema: Record<string, unknown>): number {
  let weight = 1;
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'enum' || key === 'const' || key === 'dependentRequired' || key === 'dependencies')
      weight += valuesIn(value);
    else if (Array.isArray(value)) weight += value.length;
    else if (typeof value === 'object' && value !== null) weight += Object.keys(value).length;
    else weight += 1;
  }
  return weight;
}

/** Values in `value`, itself included (a copy already bounded in size). */
function valuesIn(value: unknown): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    count += 1;
    if (typeof node === 'object' && node !== null) stack.push(...Object.values(node));
  }
  return count;
}

function patternKeys(value: unknown): string[] {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value) : [];
}

/** The {@link ArgumentShape} of `args`, walked without recursion. */
export function shapeOf(args: Record<string, unknown>): ArgumentShape {
  const shape: ArgumentShape = { name: 0, value: 0, values: 0, widest: 0, longestArray: 0 };
  const stack: unknown[] = [args];
  while (stack.length > 0) {
    const node = stack.pop();
    shape.values += 1;
    if (typeof node === 'string') shape.value = Math.max(shape.value, node.length);
    else if (Array.isArray(node)) {
      shape.longestArray = Math.max(shape.longestArray, node.length);
      for (const item of node) stack.push(item);
    } else if (typeof node === 'object' && node !== null) {
      const entries = Object.entries(node);
      shape.widest = Math.max(shape.widest, entries.length);
      for (const [key, item] of entries) {
        shape.name = Math.max(shape.name, key.length);
        stack.push(item);
      }
    }
  }
  return shape;
}
